"""Listing pages: one page per topic and subtopic (start here, paper cards) and the By year page."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..enrich.starthere import start_here, version_sets
from ..model import Library, Paper, Topic
from .accessors import normalised
from .bibsets import set_links, set_name
from .cards import card_list, version_items
from .charts import chart, subtopic_stack
from .environment import render
from .escape import Md, data_block, md_text
from .graph import topic_graph
from .inputs import Inputs
from .links import PAPERS, TOPICS, display_title, link_list, newest_first, plural, url
from .memo import key_of, one, papers_key
from .workflow import progress, progress_block

Notes = Mapping[str, Mapping[str, Any]]  # each note's front matter, by page slug


def topic_listings(inputs: Inputs) -> dict[str, str]:
    return topic_pages(inputs.library, inputs.meta(), inputs.graph)


def topic_pages(library: Library, notes: Notes | None = None, graph: bool = True) -> dict[str, str]:
    """``notes`` give the owner's ``rating`` and ``priority`` that "Start here" puts first;
    ``graph``: draw each page's related-work graph."""
    notes = notes or {}
    ranks = _ranks(notes)
    pages = {}
    for topic in library.topics:
        members = [p for p in library.papers if topic.id in p.topics]
        # Each page reads its topic, its papers and their notes' ranks, and nothing else (render/memo.py):
        # the statuses of its cards and its progress are filled in by Sphinx (sphinx_ext/liststatus.py).
        path, key = f"{TOPICS}/{topic.id}.md", key_of(topic, papers_key(members, ranks), graph)
        pages[path] = one(path, key, _topic_page, topic, members, ranks, graph)
        for sub in topic.subtopics:
            inside = [p for p in members if sub.id in p.subtopics]
            path, key = f"{TOPICS}/{sub.id}.md", key_of(topic, sub, papers_key(inside, ranks), graph)
            pages[path] = one(path, key, _subtopic_page, topic, sub, inside, ranks, graph)
    pages[f"{TOPICS}/index.md"] = render(
        "topics_index.md.j2", topics=[Md(t.id) for t in library.topics], progress=_progress_list(library, notes)
    )
    return pages


def _ranks(notes: Notes) -> Notes:
    """What "Start here" reads of the notes (``enrich.starthere``): each note's rating and priority."""
    fields = ("rating", "priority")
    return {
        slug: {f: meta[f] for f in fields if f in meta}
        for slug, meta in notes.items()
        if any(f in meta for f in fields)
    }


def _topic_page(topic: Topic, members: list[Paper], ranks: Notes, graph: bool) -> str:
    rest = [p for p in members if not any(s.id in p.subtopics for s in topic.subtopics)]
    subtopics = [_subtopic_card(s, members) for s in topic.subtopics]
    return render(
        "topic.md.j2",
        label=Md(f"topic-{topic.id}"),
        title=topic.title,
        description=topic.description,
        count=f"{plural(len(members), 'paper')}." if subtopics else _count(members, ", newest first."),
        downloads=set_links(set_name("topic", topic.id), "this topic", members),
        start=link_list(start_here(members, ranks, "topic")),
        chart=chart(f"{TOPICS}/{topic.id}", f"in {topic.title}", members, subtopic_stack(topic)),
        toctree=[Md(s.id) for s in topic.subtopics],
        subtopics=subtopics,
        graph=topic_graph(members) if graph else "",
        heading=("Other papers" if subtopics else "Papers") if rest else "",
        rest_count=_count(rest, " in none of the subtopics, newest first.") if subtopics and rest else "",
        cards=card_list(rest),
        progress=progress_block(members),
    )


def _subtopic_page(topic: Topic, sub: Topic, members: list[Paper], ranks: Notes, graph: bool) -> str:
    return render(
        "topic.md.j2",
        parent={"title": topic.title, "link": Md(url(f"{TOPICS}/{topic.id}"))},
        title=sub.title,
        description=sub.description,
        count=_count(members, ", newest first." if members else "."),
        downloads=set_links(set_name("topic", sub.id), "this subtopic", members),
        start=link_list(start_here(members, ranks, "subtopic")),
        chart=chart(f"{TOPICS}/{sub.id}", f"in {sub.title}", members, subtopic_stack(sub)),
        graph=topic_graph(members) if graph else "",
        heading="Papers" if members else "",
        cards=card_list(members),
        progress=progress_block(members),
    )


def _progress_list(library: Library, notes: Notes) -> list[Md]:
    """Each topic's reading progress ("3 read · 5 to read"), for the topics index; none without statuses."""
    lines = []
    for topic in library.topics:
        said = progress([p for p in library.papers if topic.id in p.topics], notes)
        lines += [Md(f"[{md_text(topic.title)}]({url(f'{TOPICS}/{topic.id}')}): {md_text(said)}")] if said else []
    return lines


def _subtopic_card(sub: Topic, members: list[Paper]) -> dict[str, Any]:
    n = sum(sub.id in p.subtopics for p in members)
    return {
        "title": sub.title,
        "link": Md(url(f"{TOPICS}/{sub.id}")),
        "summary": sub.description,
        "meta": plural(n, "paper"),
    }


def _count(members: Sequence[Paper], end: str) -> str:
    groups = len(version_sets(members))
    shared = " (versions of one system share a card)" if groups < len(members) else ""
    return f"{plural(len(members), 'paper')}{shared}{end}"


def years_page(library: Library) -> str:
    """Each version group once, under its newest version's year, with links to the other versions.
    Rendered beside the registry's renderers too (``pages.library_pages``): the library is normalised here."""
    groups: dict[int | None, list[list[Paper]]] = defaultdict(list)
    for group in version_sets(newest_first(list(normalised(library).papers))):
        groups[group[0].work.year].append(group)
    order = sorted(groups, key=lambda y: (y is None, -(y or 0)))
    sections = [
        {
            "heading": str(year) if year else "Year unknown",
            "items": _year_list(sorted(groups[year], key=lambda g: g[0].key)),
        }
        for year in order
    ]
    return render(
        "listing.md.j2",
        orphan=False,
        label=Md("years"),
        title="By year",
        intro=(
            "Papers by year of publication, newest first. Records whose source gives no year come last. "
            "A system with several versions is listed once, under its newest version, with links to the others."
        ),
        sections=sections,
    )


def _year_list(groups: list[list[Paper]]) -> Md:
    """The ``readinglist-links`` block of one year: each group's newest paper, the rest as ``versions`` links."""
    items = []
    for main, *others in groups:
        item: dict[str, Any] = {"doc": f"{PAPERS}/{main.slug}", "title": display_title(main), "year": "", "reason": ""}
        if others:
            item["versions"] = version_items(others)
        items.append(item)
    return data_block("readinglist-links", items)
