"""Pagefind's copies of the pages: each cut to what Pagefind indexes of it.

Pagefind parses every byte of a page, although it indexes only the part marked
``data-pagefind-body`` less the excluded parts (``search.EXCLUDED``). Of a paper page, about a
seventh is indexed: the theme, the related papers (their graph drawn in SVG) and the Cite menu
are the rest, so the pages cut down are indexed in about a third of the time.

``search.py`` has Pagefind index copies in a temporary folder, under the same relative paths, so
that each page keeps its URL. A copy (of a page that marks a body) keeps the page's ``<html>`` tag (Pagefind takes the
language from it) and ``<title>``, and the marked body (``templates/page.html`` ends it with
:data:`END`), less the elements Pagefind would leave out anyway. Pagefind is still given the
excluded selectors, so a cut that missed an element would cost time, not change the index:
``tests/test_search_facets.py`` checks that both index to the same fragments. The HTML is
Sphinx's own output, where record text is escaped: no ``<`` of a record's text can open a tag.

A paper's copy also says what is worth finding (issue 27): Pagefind indexes what the reader wrote
or the paper says (title, authors, venue, abstract, summary, notes, tags), so the lines under its
title that the tool inferred or that describe the record (category badges and their "inferred"
note, the working-title note, status, links, source, topics) are emptied, and the authors and the
notes weigh more than the abstract (:func:`paper_head`). No CSS selector Pagefind knows can name
those lines, so only the copy leaves them out: they are filters or badges, never body text or an
excerpt.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..writer import write_bytes_if_changed

BODY = "<div data-pagefind-body"
END = "<!--readinglist-search-end-->"  # printed by templates/page.html after the body's </div>
PAPER = "data-readinglist-paper"  # templates/page.html marks a paper's article with it
# Pagefind's weights (1 by default; the title, an h1, weighs 7): a word of the authors, then of
# the reader's notes, ranks a paper above one whose abstract has it (issue 27: title, authors,
# note, abstract, in that order).
AUTHORS_WEIGHT = "4"
NOTES_WEIGHT = "2"
# The lines under a paper's title (render/templates/paper.md.j2) that Pagefind indexes: what the
# paper says. The others (badges, status, links, source, topics) are emptied.
KEPT_LINES = ("<strong>Authors:</strong>", "<strong>Year:</strong>", "<strong>Tags:</strong>")


@dataclass(frozen=True)
class Cut:
    """Elements emptied in a copy: a tag, with a class or an id, as ``search.EXCLUDED`` names them.

    Not void elements (``img``): Pagefind leaves out the heading before an excluded one, so a copy
    without it would index differently."""

    tag: str
    classname: str = ""
    ids: tuple[str, ...] = ()
    depth: int | None = None  # sections only: inside this many sections (1: in the h1 section)

    def opening(self) -> re.Pattern[str]:
        if self.classname:
            attribute = rf'class="(?:[^"]*\s)?{re.escape(self.classname)}(?:\s[^"]*)?"'
        else:
            attribute = 'id="(?:' + "|".join(re.escape(i) for i in self.ids) + ')"'
        return re.compile(rf"<{self.tag}\b[^>]*\b{attribute}[^>]*>")


class Copies:
    """The cut copies Pagefind reads, kept in ``folder`` from one build to the next.

    A copy is written when its page's digest is taken (:meth:`indexed`, called by
    ``shards.plan`` for a page new or changed since the record), so a shard indexed again reads
    the copies of its unchanged pages as they are, instead of every page being read and cut
    again. A page with no marked body has no copy: where any page of a run marks one, Pagefind
    indexes only the pages that do (:meth:`complete`). A copy left by a killed build is of a
    page the record does not hold, so the next plan cuts that page again.
    """

    def __init__(self, folder: Path, cuts: tuple[Cut, ...]) -> None:
        self.folder, self.cuts = folder, cuts

    def indexed(self, page: str, data: bytes) -> bytes:
        """What Pagefind indexes of ``page`` (its copy, or the page whole); the copy is kept."""
        lean = self._cut(data)
        target = self.folder / page
        if lean is None:
            target.unlink(missing_ok=True)  # no body now: a copy of an older page would be indexed
            return data
        write_bytes_if_changed(target, lean, durable=False)  # the next build cuts it again if killed
        return lean

    def _cut(self, data: bytes) -> bytes | None:
        try:
            lean = cut_down(data.decode("utf-8"), self.cuts)
        except UnicodeDecodeError:  # not Sphinx's UTF-8: indexed as it is
            return None
        return None if lean is None else lean.encode("utf-8")

    def complete(self, pages: Iterable[str], site: Path) -> Path:
        """Make the copies of ``pages`` that are missing (the folder was cleared, or the record
        is older than the copies); the folder Pagefind reads ``pages`` from. In a shard where no
        page marks a body, that is the site: Pagefind reads each page whole, as it would there."""
        pages = list(pages)
        for page in pages:
            if not (self.folder / page).is_file():
                self.indexed(page, (site / page).read_bytes())
        return self.folder if any((self.folder / page).is_file() for page in pages) else site

    def forget(self, pages: Iterable[str]) -> None:
        """Remove the copies of pages that are no longer in the site."""
        for page in pages:
            (self.folder / page).unlink(missing_ok=True)

    def clear(self) -> None:
        """No record to trust: every copy is made again."""
        shutil.rmtree(self.folder, ignore_errors=True)


def cut_down(text: str, cuts: tuple[Cut, ...]) -> str | None:
    """The page as Pagefind needs it, or None if it has no body marked by templates/page.html."""
    start, end = text.find(BODY), text.find(END)
    html = re.search(r"<html\b[^>]*>", text)
    if start < 0 or end < start or html is None:
        return None
    title = re.search(r"<title>.*?</title>", text, re.S)
    body = text[start:end]
    paper = PAPER in body[: body.index(">")]
    for rule in cuts if paper else [c for c in cuts if c.depth is None]:
        body = _without(body, rule)
    body = paper_head(body) if paper else body
    head = f'<head><meta charset="utf-8">{title.group() if title else ""}</head>'
    return f"<!doctype html>\n{html.group()}{head}<body>{body}</body></html>\n"


def _without(body: str, rule: Cut) -> str:
    """``body`` less every element ``rule`` names (and what they contain)."""
    kept, at = [], 0
    for found in rule.opening().finditer(body):
        if found.start() < at or (rule.depth is not None and _depth(body, found.start()) != rule.depth):
            continue  # inside an element already left out, or a section at another level
        # The element stays, emptied: Pagefind still records its id as an anchor.
        kept.append(body[at : found.end()] + f"</{rule.tag}>")
        at = _close(body, found.end(), rule.tag)
    return "".join(kept) + body[at:]


def _depth(body: str, position: int) -> int:
    """How many sections are open at ``position``."""
    head = body[:position]
    return len(re.findall(r"<section\b", head)) - head.count("</section>")


def _close(body: str, position: int, tag: str) -> int:
    """The end of the element whose opening tag ends at ``position`` (the end of ``body`` if unclosed)."""
    depth = 1
    for found in re.compile(rf"<{tag}\b|</{tag}>").finditer(body, position):
        depth += -1 if found.group().startswith("</") else 1
        if depth == 0:
            return found.end()
    return len(body)


def paper_head(body: str) -> str:
    """A paper's body with the lines under its title cut to what the paper says, the authors'
    line and the notes' section weighted. Only the paper's own level counts: a note holding
    "**Authors:**" is the reader's words, indexed as they are."""
    sections = [found.start() for found in re.finditer(r"<section\b", body)]
    end = sections[1] if len(sections) > 1 else len(body)  # the head ends at the paper's first h2 section
    head, rest = re.sub(r"<p>(.*?)</p>", _line, body[:end], flags=re.S), body[end:]
    notes = next((f for f in re.finditer(r'<section id="notes">', rest) if _depth(rest, f.start()) == 0), None)
    if notes is not None:  # the paper's Notes, beside its Summary (not a note's own heading)
        weighted = f'<section id="notes" data-pagefind-weight="{NOTES_WEIGHT}">'
        rest = rest[: notes.start()] + weighted + rest[notes.end() :]
    return head + rest


def _line(found: re.Match[str]) -> str:
    """One line under the title: kept from its first kept label on, or emptied."""
    text = found.group(1)
    at = min((text.find(label) for label in KEPT_LINES if label in text), default=-1)
    if at < 0:
        return "<p></p>"
    weight = f' data-pagefind-weight="{AUTHORS_WEIGHT}"' if text.startswith(KEPT_LINES[0], at) else ""
    return f"<p{weight}>{text[at:]}</p>"
