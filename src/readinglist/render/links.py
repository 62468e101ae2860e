"""Links between generated pages, and small text helpers shared by the page renderers."""

from __future__ import annotations

import json

from ..latex import to_text
from ..model import Paper
from .escape import Md, clean, data_block
from .registry import AUTHORS, PAPERS, TOPICS

__all__ = ["AUTHORS", "PAPERS", "TOPICS"]  # the folders, for the renderers (render/registry.py)
UNTITLED = "Untitled record"
# Generated pages link with ``rl:docname#anchor`` URLs. MyST passes a known URL scheme through
# as a plain reference, and the Sphinx extension rewrites it to a relative URI: no cross-reference
# to resolve, no label per page (Sphinx scans every label for every document it reads).
SCHEME = "rl"


def url(docname: str, anchor: str = "") -> str:
    return f"{SCHEME}:{docname}" + (f"#{anchor}" if anchor else "")


def target(uri: str) -> tuple[str, str] | None:
    """(docname, anchor) of an ``rl:`` URL; None for any other URL."""
    if not uri.startswith(f"{SCHEME}:"):
        return None
    doc, _, anchor = uri[len(SCHEME) + 1 :].partition("#")
    return doc, anchor


def paper_url(paper: Paper) -> str:
    return url(f"{PAPERS}/{paper.slug}")


def link_list(links: list[tuple[Paper, str]], years: bool = True, status: bool = False) -> Md:
    """The ``readinglist-links`` block (site/linklist.py): one linked paper a line, one node instead of six an item.

    ``status``: each item's reason is its paper's reading status, which the Sphinx extension fills
    in when it writes the page (site/sphinx_ext/liststatus.py): a status change then leaves the
    page's Markdown as it was, and Sphinx writes the page again without reading it again."""
    return data_block("readinglist-links", link_items(links, years, status))


def link_items(links: list[tuple[Paper, str]], years: bool = True, status: bool = False) -> list[dict[str, object]]:
    """The items of a ``readinglist-links`` block, for a block or for a page's data file."""
    return [_link_item(p, why, years, status) for p, why in links]


def _link_item(paper: Paper, reason: str, years: bool, status: bool) -> dict[str, object]:
    year = paper.work.year if years and paper.work.year else ""
    item: dict[str, object] = {"doc": f"{PAPERS}/{paper.slug}", "title": display_title(paper), "year": year}
    return {**item, "status": True} if status else {**item, "reason": clean(reason)}


def newest_first(papers: list[Paper]) -> list[Paper]:
    return sorted(papers, key=lambda p: (-(p.work.year or 0), p.key))


def display_title(paper: Paper) -> str:
    """The title as text; a title with no visible character would leave a page without a name."""
    return clean(to_text(paper.work.title)) or UNTITLED


def one_line(text: str, words: int = 30) -> str:
    parts = clean(text).split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def json_string(value: str) -> Md:
    """A YAML-safe scalar (JSON strings are YAML) for front matter."""
    return Md(json.dumps(clean(value), ensure_ascii=False))


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def year_span(years: list[int]) -> str:
    """ "2019–2023", or "2019" alone for a list of one year (never "2019–2019"); sorted years."""
    return f"{years[0]}–{years[-1]}" if years[0] != years[-1] else str(years[0])
