"""The reading workflow's pages: one page per tag, the tags' index and the reading queue.

Tags are the ones the notes give (``tags:`` in the front matter), the owner's own words; the
records' keywords stay on the paper pages and in the search's Tag filter. Tags are compared
without case, and a space as a hyphen ("GPU" and "gpu" share one page, as "a b" and "a-b" do);
every other tag has a page of its own
(``tag_slug``). Each list shows a system with several versions
once, under its newest listed version, with links to the others (as By year does).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..enrich.starthere import priority_rank, version_sets
from ..model import Library, Paper
from ..slugs import RESERVED, hyphenated
from .accessors import year_of
from .bibsets import set_links, set_name
from .cards import version_items
from .environment import render
from .escape import Md, clean, data_block, md_text
from .inputs import Inputs
from .links import PAPERS, TOPICS, display_title, newest_first, plural, url
from .workflow import LABELS, Notes, group_status, status

TAGS = "tags"
QUEUE = "queue"


def tag_slug(tag: str) -> str:
    """A file name for ``tag``, the same in every build, and another for every other tag.

    A tag of lower-case ASCII words joined by single spaces or hyphens is those words joined by
    hyphens ("pipeline parallelism" and "pipeline-parallelism" -> ``pipeline-parallelism``: one tag,
    as "GPU" and "gpu" are). Any other (``a/b``, ``日本``, a name Windows reserves as ``CON``,
    ``index``, one cut short) is ``tag-``, its letters and digits, ``--`` and a hash of the tag: a
    plain name never holds ``--``, so no two other tags share a page and none takes another's."""
    name = clean(tag).casefold()
    slug = hyphenated(name, 60)
    if _PLAIN_TAG.fullmatch(name) and name.replace(" ", "-") == slug and slug != "index" and slug not in RESERVED:
        return slug
    return f"{'-'.join(filter(None, ('tag', slug)))}--{hashlib.sha256(name.encode()).hexdigest()[:10]}"


_PLAIN_TAG = re.compile(r"[a-z0-9]+(?:[ -][a-z0-9]+)*")


def tag_link(tag: str) -> Md:
    return Md(f"[{md_text(tag)}]({url(f'{TAGS}/{tag_slug(tag)}')})")


def tagged(library: Library, notes: Notes) -> dict[str, tuple[str, list[Paper]]]:
    """Each tag's slug -> (its name as first written, the papers whose notes give it)."""
    found: dict[str, tuple[str, list[Paper]]] = {}
    for paper in library.papers:
        tags = notes.get(paper.slug, {}).get("tags")
        for tag in dict.fromkeys(clean(t) for t in tags if isinstance(t, str)) if isinstance(tags, list) else ():
            if tag:
                found.setdefault(tag_slug(tag), (tag, []))[1].append(paper)
    return dict(sorted(found.items(), key=lambda item: (item[1][0].casefold(), item[0])))


def reading_listings(inputs: Inputs) -> dict[str, str]:
    """The reading queue (``queue.md``), the tag pages (``tags/``) and their index."""
    return reading_pages(inputs.library, inputs.meta())


def reading_pages(library: Library, notes: Notes) -> dict[str, str]:
    """``tags/<slug>.md`` per tag, ``tags/index.md`` and ``queue.md`` (both always written: the menu lists them)."""
    tags = tagged(library, notes)
    pages = {f"{TAGS}/{slug}.md": _tag_page(name, papers, notes) for slug, (name, papers) in tags.items()}
    pages[f"{TAGS}/index.md"] = _tags_index(tags, notes)
    pages[f"{QUEUE}.md"] = queue_page(library, notes)
    return pages


def _tag_page(name: str, papers: list[Paper], notes: Notes) -> str:
    groups = version_sets(newest_first(papers))
    return render(
        "reading.md.j2",
        orphan=True,
        title=f"Tag: {name}",
        intro=f"{plural(len(groups), 'paper')} tagged “{name}” in the notes, newest first.",
        downloads=set_links(set_name("tag", tag_slug(name)), "these papers", papers),
        sections=[{"heading": "Papers", "summary": "", "items": group_links(groups, lambda g: _said(g, notes))}],
    )


def _tags_index(tags: Mapping[str, tuple[str, list[Paper]]], notes: Notes) -> str:
    items = [
        Md(f"- [{md_text(name)}]({url(f'{TAGS}/{slug}')}) ({plural(len(version_sets(papers)), 'paper')})")
        for slug, (name, papers) in tags.items()
    ]
    intro = "The tags the notes give papers, each with its papers." if items else "No notes give tags yet."
    return render(
        "reading.md.j2",
        orphan=False,
        title="Tags",
        intro=intro,
        sections=[{"heading": "All tags", "summary": "", "items": Md("\n".join(items))}] if items else [],
    )


def queue_page(library: Library, notes: Notes) -> str:
    """The papers marked to read, by topic, most urgent first (the notes' ``priority``), then newest."""
    queued = [p for p in library.papers if status(p, notes) == "to-read"]
    sections = []
    for topic_id, title in [(t.id, t.title) for t in library.topics] + [("", "Other papers")]:
        members = [p for p in queued if (topic_id in p.topics if topic_id else not p.topics)]
        groups = _queued_groups(library, members, notes)
        if groups:
            link = f"[{md_text(title)}]({url(f'{TOPICS}/{topic_id}')})" if topic_id else md_text(title)
            sections.append(
                {
                    "heading": title,
                    "summary": Md(f"{plural(len(groups), 'paper')} in {link}."),
                    "items": group_links(groups, lambda g: _priority(g, notes)),
                }
            )
    count = len(version_sets(queued))
    intro = (
        f"{plural(count, 'paper')} to read, by topic, the highest priority first, then the newest."
        if queued
        else "No paper is marked to read yet."
    )
    return render("reading.md.j2", orphan=False, title="Reading queue", intro=intro, sections=sections)


def _queued_groups(library: Library, members: Sequence[Paper], notes: Notes) -> list[list[Paper]]:
    """The systems to read among ``members``: a system read (or being read) in another version is not."""
    all_versions = {p.key: g for g in version_sets(list(library.papers)) for p in g}
    groups = [
        g for g in version_sets(newest_first(list(members))) if group_status(all_versions[g[0].key], notes) == "to-read"
    ]
    return sorted(groups, key=lambda g: (_rank(g, notes), -(year_of(g[0].work) or 0), g[0].key))


def _rank(group: Sequence[Paper], notes: Notes) -> float:
    ranks = [priority_rank(notes.get(p.slug, {}).get("priority")) for p in group]
    return min((r for r in ranks if r is not None), default=float("inf"))


def _priority(group: Sequence[Paper], notes: Notes) -> str:
    values = [notes.get(p.slug, {}).get("priority") for p in group]
    shown = next((v for v in values if priority_rank(v) is not None), None)
    return f"priority {shown}" if shown is not None else ""


def _said(group: Sequence[Paper], notes: Notes) -> str:
    state = group_status(group, notes)
    return LABELS[state].lower() if state else ""


def group_links(groups: Sequence[Sequence[Paper]], reason: Callable[[Sequence[Paper]], str]) -> Md:
    """A ``readinglist-links`` block: each group's first paper, its other versions as ``versions`` links."""
    lines = []
    for group in groups:
        main, others = group[0], group[1:]
        item: dict[str, Any] = {
            "doc": f"{PAPERS}/{main.slug}",
            "title": display_title(main),
            "year": year_of(main.work) or "",
            "reason": clean(reason(group)),
        }
        if others:
            item["versions"] = version_items(others)
        lines.append(item)
    return data_block("readinglist-links", lines)
