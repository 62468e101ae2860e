"""Paper cards for the topic pages: one card per paper, or one per system with several versions.

A version group's card shows its newest version and links the others by year. It has no
whole-card link (sphinx-design's stretched link would cover the version links): its title is
the link instead, and stays the card's first bold line, which ``site/a11y.py`` makes its heading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..enrich.credit import work_credit
from ..enrich.starthere import version_sets
from ..model import Paper
from .escape import Md, md_text
from .links import display_title, newest_first, one_line, paper_url
from .workflow import Notes, badge, group_status

UNDATED = "undated"
CARD_WORDS = 14  # per line: three lines take about as much room as the 30-word TL;DR did


def card(paper: Paper) -> dict[str, Any]:
    work = paper.work
    given = work_credit(work)  # as the paper page says it: no first author the source never gave
    meta = ", ".join(given.listed[:3]) + (" et al." if len(given.listed) > 3 or work.et_al else "")
    if not given.listed and given.with_:
        meta = "with " + ", ".join(given.with_)
    return {
        "link": Md(paper_url(paper)),
        "title": display_title(paper),
        "meta": f"{work.year or 'Year unknown'} · {meta}",
        "summary": _summary(paper),
        "versions": Md(""),
        "status": Md(""),
    }


def _summary(paper: Paper) -> Md | str:
    """The paper's problem, approach and result, a few words each (else its TL;DR): escaped here."""
    lines = paper.brief.lines()
    if not lines:
        return one_line(paper.tldr)
    return Md("\n\n".join(f"**{label}:** {md_text(one_line(line, CARD_WORDS))}" for label, line in lines))


def cards(papers: Sequence[Paper], notes: Notes | None = None) -> list[dict[str, Any]]:
    """The cards of ``papers``, newest first: versions of one system share the newest one's card,
    and its reading status badge (``notes``: each note's front matter by slug)."""
    shown = []
    for group in version_sets(newest_first(list(papers))):
        one = card(group[0]) if len(group) == 1 else group_card(group)
        one["status"] = badge(group_status(group, notes or {}))
        shown.append(one)
    return shown


def group_card(group: Sequence[Paper]) -> dict[str, Any]:
    """``group`` newest first: the first paper's card, listing the other versions by year."""
    shown = card(group[0])
    shown["versions"] = Md(f"Other versions: {version_links(group[1:])}")
    return shown


def version_labels(papers: Sequence[Paper]) -> list[str]:
    """Each paper's year (``undated`` without one), with a few words of its title when two share it."""
    years = [str(p.work.year) if p.work.year else UNDATED for p in papers]
    return [
        y if years.count(y) == 1 else f"{y}, {one_line(display_title(p), 6)}"
        for y, p in zip(years, papers, strict=True)
    ]


def version_links(papers: Sequence[Paper]) -> str:
    labels = version_labels(papers)
    return ", ".join(f"[{md_text(label)}]({paper_url(p)})" for label, p in zip(labels, papers, strict=True))
