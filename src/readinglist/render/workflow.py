"""The reading workflow from notes' front matter: status badges, progress counts, recent additions.

A note's ``status`` (``frontmatter.STATUSES``; ``skimmed`` counts as ``read``) shows as a badge:
one sphinx-design role, a single inline node whose text says the status (the colour only
repeats it). Versions of one system are one entry (``starthere.version_sets``): the system's
status is the furthest any of its versions got, in ``PROGRESS`` order, so a system read in one
version is neither counted nor queued again for another.

Nothing here reads a clock or a file's time: the pages change only when the notes' front matter
does (which the fingerprint hashes), so an unchanged list regenerates to the same bytes.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..enrich.starthere import priority_rank, version_sets
from ..model import Note, Paper
from .escape import Md, data_block, md_text
from .frontmatter import status_of
from .links import PAPERS, link_list

Notes = Mapping[str, Mapping[str, Any]]  # each note's front matter, by page slug

LABELS = {"to-read": "To read", "reading": "Reading", "read": "Read", "skipped": "Skipped"}
# Filled badges whose text keeps 4.5:1 on both furo themes (sphinx-design's success and info
# colours do not reach it with white text).
ROLES = {"to-read": "bdg-warning", "reading": "bdg-primary", "read": "bdg-secondary", "skipped": "bdg-light"}
PROGRESS = ("read", "reading", "to-read", "skipped")  # a system's status: the first any version has
COUNTED = (("read", "read"), ("reading", "reading"), ("to-read", "to read"), ("skipped", "skipped"))
RECENT = 8  # items in the landing page's "Recently added or annotated"


def status(paper: Paper, notes: Notes) -> str | None:
    return status_of(notes.get(paper.slug, {}).get("status"))


def group_status(group: Sequence[Paper], notes: Notes) -> str | None:
    """The furthest status any version of one system reached (read before reading before to-read)."""
    return furthest(status(p, notes) for p in group)


def furthest(statuses: Iterable[str | None]) -> str | None:
    """The first of ``PROGRESS`` among ``statuses``: a system's status, whoever counts it (here, or
    the Sphinx extension as it writes a page: site/sphinx_ext/liststatus.py)."""
    found = set(statuses)
    return next((s for s in PROGRESS if s in found), None)


def counted(states: Sequence[str | None]) -> str:
    """``3 read · 5 to read``: one state per system; "" if none has one."""
    return " · ".join(f"{states.count(state)} {words}" for state, words in COUNTED if state in states)


def badge(state: str | None) -> Md:
    """The status as one inline badge; nothing for a paper without one."""
    return Md(f"{{{ROLES[state]}}}`{LABELS[state]}`") if state else Md("")


def progress(papers: Sequence[Paper], notes: Notes) -> str:
    """``3 read · 5 to read`` over ``papers``, versions of one system counted once; "" if none has a status."""
    return counted([group_status(group, notes) for group in version_sets(list(papers))])


def progress_block(papers: Sequence[Paper]) -> Md:
    """:func:`progress` as the Sphinx extension counts it when it writes the page (a
    ``{readinglist-progress}`` block of the papers' version groups: site/sphinx_ext/liststatus.py),
    so a status change leaves the page's Markdown as it was; empty for no papers."""
    groups = [{"docs": [f"{PAPERS}/{p.slug}" for p in group]} for group in version_sets(list(papers))]
    return data_block("readinglist-progress", groups) if groups else Md("")


def added_on(meta: Mapping[str, Any]) -> datetime.date | None:
    """A note's ``added`` as a date (front matter has checked it is a date or an ISO string)."""
    value = meta.get("added")
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.datetime.fromisoformat(value).date() if isinstance(value, str) else None
    except ValueError:
        return None


def recent(
    papers: Sequence[Paper], notes: Notes, has_body: Mapping[str, bool], limit: int = RECENT
) -> list[tuple[Paper, str]]:
    """The papers whose notes give the latest ``added`` dates, newest first (one per system),
    each with what the notes say: "added 2024-05-01 · to read · notes".

    Only ``added`` dates count: a file's time differs between checkouts and would change the
    landing page on every clone. ``has_body`` tells, by slug, which notes have text."""
    dated = [(added_on(notes.get(p.slug, {})), p) for p in papers]
    ordered = sorted(((d, p) for d, p in dated if d), key=lambda dp: (-dp[0].toordinal(), dp[1].key))
    chosen: list[tuple[Paper, str]] = []
    for group in version_sets([p for _, p in ordered]):
        paper = group[0]
        state = status(paper, notes)
        said = [f"added {added_on(notes[paper.slug])}", LABELS[state].lower() if state else ""]
        chosen.append((paper, " · ".join(s for s in [*said, "notes" if has_body.get(paper.slug) else ""] if s)))
    return chosen[:limit]


def reading_line(meta: Mapping[str, Any], tag_link: Callable[[str], Md]) -> Md:
    """The paper page's line under its category badges: status badge, tags (each linked to its
    page by ``tag_link(tag) -> Md``), rating, priority and date; nothing without front matter."""
    parts: list[str] = [badge(status_of(meta.get("status")))]
    tags = meta.get("tags")
    if isinstance(tags, list) and tags:
        parts.append("**Tags:** " + ", ".join(tag_link(t) for t in tags if isinstance(t, str) and t.strip()))
    if isinstance(meta.get("rating"), int) and not isinstance(meta.get("rating"), bool):
        parts.append(f"**Rating:** {meta['rating']}/5")
    if priority_rank(meta.get("priority")) is not None:
        parts.append(f"**Priority:** {md_text(str(meta['priority']))}")
    if added_on(meta):
        parts.append(f"**Added:** {added_on(meta)}")
    return Md(" · ".join(p for p in parts if p))


def recent_block(papers: Sequence[Paper], notes: Mapping[str, Note]) -> Md:
    """The landing page's "Recently added or annotated" list (``readinglist-links``); "" if no note has a date."""
    meta = {slug: note.meta for slug, note in notes.items()}
    return link_list(recent(papers, meta, {slug: note.has_body for slug, note in notes.items()}))
