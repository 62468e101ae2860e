"""Which paper pages a generate renders again: what the last generate rendered them from.

With the enrichment served from the cache (readinglist.cache), a paper page depends on the
library, the settings, the hand-written pages' list and its own note's front matter, and on
nothing else: ``render/pages.site_pages`` hands ``paper_page`` its own note only. So each
generate records, in the cache (kind ``pages``), a key of all but the notes and each note's
state. The next generate, under the same key, renders only the paper pages whose note
changed, appeared or went, and every listing that shows notes (the queue, tags, topics,
authors, feeds, downloads and the landing page); the other paper pages stay as they are on
disk, their bytes already what a full render would write (the Cite menus' references they
use stay in the cache), and the pages no note shows on come from the enrichment.

Like the enrichment, the record is a shortcut: unreadable, another key, or any file it
relies on changed or gone, and every page is rendered. It is dropped from the cache file
before a full render and kept after every render, so a run killed halfway leaves no record of
pages it never finished.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from ..cache import Store, key_of
from ..config import Config
from ..model import Note
from ..render.registry import PAPERS, data_name
from .changes import note_state, settings, synced
from .manifest import all_exist

PAGES = "pages"  # the record's kind in the cache


@dataclass(frozen=True)
class PageState:
    context: str  # the enrichment's key, the settings and the hand-written pages
    notes: dict[str, str]  # each note's state (changes.note_state) by slug

    @classmethod
    def of(cls, context: str, notes: dict[str, Note]) -> PageState:
        return cls(context, {slug: note_state(note) for slug, note in notes.items()})


def context_key(config: Config, enrichment: str, about: list[str]) -> str:
    """Everything a paper page depends on but its note: ``enrichment`` is the enrichment's cache key."""
    return key_of("context", enrichment, settings(config), *synced(config), tuple(about))


def to_render(store: Store, docs: Path, now: PageState, slugs: Collection[str], owned: set[str]) -> set[str] | None:
    """The slugs of the paper pages to render again, or None when every page must be.

    ``slugs``: the library's papers; ``owned``: the manifest's files, as the last generate left it.
    """
    last = store.get(PAGES, key_of(PAGES), PageState)
    if last is None or last.context != now.context:
        return None
    changed = {slug for slug in slugs if last.notes.get(slug) != now.notes.get(slug)}
    kept = kept_files(slugs, changed)
    if not kept <= owned or not all_exist(docs, kept):
        return None  # a page deleted by hand, or the manifest changed: render it all
    return changed


def kept_files(slugs: Collection[str], rendered: Collection[str]) -> set[str]:
    """The files a partial render leaves as they are: the other paper pages and their data files."""
    left = [slug for slug in slugs if slug not in rendered]
    return {f"{PAPERS}/{slug}.md" for slug in left} | {data_name(slug) for slug in left}


def forget(store: Store) -> None:
    """Before a full render: no record of pages it may not finish (a killed full render is not a partial one)."""
    if PAGES in store.entries:
        store.drop(PAGES)
        store.save()


def remember(store: Store, state: PageState) -> None:
    """After a render: kept when the generate saves its cache."""
    store.put(PAGES, key_of(PAGES), state)
