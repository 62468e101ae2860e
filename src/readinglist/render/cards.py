"""Paper cards for the topic pages: one card per paper, or one per system with several versions.

A version group's card shows its newest version and links the others by year. It has no
whole-card link (a stretched link would cover the version links): its title is the link
instead, and stays the card's first line, which the extension makes its heading.

The cards are data, not Markdown: one ``{readinglist-cards}`` block with a JSON object per card
(``doc``, ``title``, ``meta``, ``summary`` lines, ``versions``), which the extension keeps as one
node and writes as sphinx-design's grid of cards (``site/sphinx_ext/cardlist.py``). A card's
status badge is the extension's to fill in as it writes the page (``liststatus.py``), so a
status change leaves the topic pages' Markdown as it was.
As ``{grid-item-card}`` directives each card was a dozen nodes parsed as nested Markdown, and
a topic page lists hundreds: re-reading the listings was most of a status change's Sphinx time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..enrich.credit import work_credit
from ..enrich.starthere import version_sets
from ..model import Paper
from .escape import Md, data_block
from .links import PAPERS, display_title, newest_first, one_line

UNDATED = "undated"
CARD_WORDS = 14  # per line: three lines take about as much room as the 30-word TL;DR did


def card(paper: Paper) -> dict[str, Any]:
    work = paper.work
    given = work_credit(work)  # as the paper page says it: no first author the source never gave
    meta = ", ".join(given.listed[:3]) + (" et al." if len(given.listed) > 3 or work.et_al else "")
    if not given.listed and given.with_:
        meta = "with " + ", ".join(given.with_)
    return {
        "doc": f"{PAPERS}/{paper.slug}",
        "title": display_title(paper),
        "meta": f"{work.year or 'Year unknown'} · {meta}",
        "summary": _summary(paper),
        "versions": [],
    }


def _summary(paper: Paper) -> list[list[str]]:
    """The paper's problem, approach and result, a few words each, as (label, text); else its TL;DR."""
    lines = paper.brief.lines()
    if not lines:
        tldr = one_line(paper.tldr)
        return [["", tldr]] if tldr else []
    return [[label, one_line(line, CARD_WORDS)] for label, line in lines]


def cards(papers: Sequence[Paper]) -> list[dict[str, Any]]:
    """The cards of ``papers``, newest first: versions of one system share the newest one's card."""
    return [card(g[0]) if len(g) == 1 else group_card(g) for g in version_sets(newest_first(list(papers)))]


def card_list(papers: Sequence[Paper]) -> Md:
    """The ``{readinglist-cards}`` block of ``papers``; empty when there are none."""
    return data_block("readinglist-cards", cards(papers))


def group_card(group: Sequence[Paper]) -> dict[str, Any]:
    """``group`` newest first: the first paper's card, listing the other versions by year."""
    shown = card(group[0])
    shown["versions"] = version_items(group[1:])
    return shown


def version_labels(papers: Sequence[Paper]) -> list[str]:
    """Each paper's year (``undated`` without one), with a few words of its title when two share it."""
    years = [str(p.work.year) if p.work.year else UNDATED for p in papers]
    return [
        y if years.count(y) == 1 else f"{y}, {one_line(display_title(p), 6)}"
        for y, p in zip(years, papers, strict=True)
    ]


def version_items(papers: Sequence[Paper]) -> list[dict[str, str]]:
    """Links to other versions of a system, as the data blocks hold them: page and label."""
    return [
        {"doc": f"{PAPERS}/{p.slug}", "label": label} for label, p in zip(version_labels(papers), papers, strict=True)
    ]
