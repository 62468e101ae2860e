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


def copy(pages: Iterable[str], site: Path, folder: Path, cuts: tuple[Cut, ...]) -> None:
    """Write one shard's pages (relative to ``site``) cut down under ``folder``, at the same paths.

    A page with no marked body is left out: where any page of a run marks one, Pagefind indexes
    only the pages that do. In a shard where none does, Pagefind reads each page whole, as before.
    """
    lean = {page: cut_down((site / page).read_text(encoding="utf-8"), cuts) for page in pages}
    whole = not any(lean.values())
    for page, text in lean.items():
        target = folder / page
        if text is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        elif whole:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(site / page, target)


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
