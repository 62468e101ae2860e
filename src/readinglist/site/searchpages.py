"""Pagefind's copies of the pages: each cut to what Pagefind indexes of it.

Pagefind parses every byte of a page, although it indexes only the part marked
``data-pagefind-body`` less the excluded parts (``search.EXCLUDED``). A paper page is about 45 KB
at 1,000 works, of which about 6 KB are indexed: the theme, the related papers (their graph
drawn in SVG) and the Cite menu are the rest. Indexing a shard of 250 paper pages took 0.55 s
against 0.2 s for the same pages cut down (measured; ``docs/develop/performance.md``).

``search.py`` has Pagefind index copies in a temporary folder, under the same relative paths, so
that each page keeps its URL. A copy (of a page that marks a body) keeps the page's ``<html>`` tag (Pagefind takes the
language from it) and ``<title>``, and the marked body (``templates/page.html`` ends it with
:data:`END`), less the elements Pagefind would leave out anyway. Pagefind is still given the
excluded selectors, so a cut that missed an element would cost time, not change the index:
``tests/test_search_pages.py`` checks that both index to the same fragments. The HTML is
Sphinx's own output, where record text is escaped: no ``<`` of a record's text can open a tag.
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
    for rule in cuts if PAPER in body[: body.index(">")] else [c for c in cuts if c.depth is None]:
        body = _without(body, rule)
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
