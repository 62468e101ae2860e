"""Listing pages: one page per topic (paper cards) and the By year page."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..enrich.pipeline import Library, work_credit
from ..model import Paper
from .environment import render
from .escape import Md
from .links import TOPICS, display_title, link_list, newest_first, one_line, paper_url, plural


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
        "summary": one_line(paper.tldr),
    }


def topic_pages(library: Library) -> dict[str, str]:
    pages = {}
    for topic in library.topics:
        members = newest_first([p for p in library.papers if topic.id in p.topics])
        pages[f"{TOPICS}/{topic.id}.md"] = render(
            "topic.md.j2",
            label=Md(f"topic-{topic.id}"),
            title=topic.title,
            description=topic.description,
            count=f"{plural(len(members), 'paper')}, newest first.",
            cards=[card(p) for p in members],
        )
    pages[f"{TOPICS}/index.md"] = render("topics_index.md.j2", topics=[Md(t.id) for t in library.topics])
    return pages


def years_page(library: Library) -> str:
    groups: dict[int | None, list[Paper]] = defaultdict(list)
    for paper in library.papers:
        groups[paper.work.year].append(paper)
    order = sorted(groups, key=lambda y: (y is None, -(y or 0)))
    sections = [
        {
            "heading": str(year) if year else "Year unknown",
            "items": link_list([(p, "") for p in sorted(groups[year], key=lambda p: p.key)], years=False),
        }
        for year in order
    ]
    return render(
        "listing.md.j2",
        orphan=False,
        label=Md("years"),
        title="By year",
        intro="Papers by year of publication, newest first. Records whose source gives no year come last.",
        sections=sections,
    )
