"""Which paper pages a generate renders again: what the last generate rendered them from.

With the enrichment served from its cache (readinglist.cache), a paper page depends on the library,
the settings, the hand-written pages' list and its own note's front matter, and on nothing else:
``render/pages.site_pages`` hands ``paper_page`` its own note only. So each generate records, in
``docs/.readinglist-pages.json``, a key of all but the notes, each note's state and a digest of
the Cite menus' cache it wrote. The next generate, under the same key, renders only the paper
pages whose note changed, appeared or went, and every listing that shows notes (the queue,
tags, topics, authors, feeds, downloads and the landing page); the other paper pages and the
Cite menus' cache stay as they are on disk, their bytes already what a full render would
write, and the pages no note shows on come from the enrichment cache.

Like the enrichment cache, the file is a shortcut: unreadable, another key, or any file it
relies on changed or gone, and every page is rendered. It is removed before a full render
and written after every render, so a run killed halfway leaves no record of pages it never
finished.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from ..cache import read_input
from ..config import CONFIG_FILE, Config
from ..model import Note
from ..render import citecache
from ..render.registry import PAPERS, data_name
from ..writer import write_if_changed
from .fingerprint import note_state

FILE = ".readinglist-pages.json"  # relative to docs/


@dataclass(frozen=True)
class PageState:
    context: str  # the enrichment's key, the settings and the hand-written pages
    notes: dict[str, str]  # each note's state (fingerprint.note_state) by slug
    citations: str  # SHA-256 of the Cite menus' cache as this generate left it

    @classmethod
    def of(cls, context: str, notes: dict[str, Note], docs: Path) -> PageState:
        return cls(context, {slug: note_state(note) for slug, note in notes.items()}, _digest(docs / citecache.FILE))


def context_key(config: Config, enrichment: str, about: list[str]) -> str:
    """Everything a paper page depends on but its note: ``enrichment`` is the enrichment's cache key."""
    settings = read_input(config.root / CONFIG_FILE)  # title, graph, base_url, ...
    return hashlib.sha256(b"\0".join([enrichment.encode(), settings, "|".join(about).encode()])).hexdigest()


def to_render(docs: Path, now: PageState, slugs: Collection[str], owned: set[str]) -> set[str] | None:
    """The slugs of the paper pages to render again, or None when every page must be.

    ``slugs``: the library's papers; ``owned``: the manifest's files, as the last generate left it.
    """
    last = read(docs / FILE)
    if last is None or last.context != now.context or last.citations != now.citations:
        return None
    changed = {slug for slug in slugs if last.notes.get(slug) != now.notes.get(slug)}
    kept = kept_files(slugs, changed)
    if not kept <= owned or not all((docs / rel).exists() for rel in kept):
        return None  # a page deleted by hand, or the manifest changed: render it all
    return changed


def kept_files(slugs: Collection[str], rendered: Collection[str]) -> set[str]:
    """The files a partial render leaves as they are: the other paper pages (and their data
    files) and the Cite cache."""
    left = [slug for slug in slugs if slug not in rendered]
    return {f"{PAPERS}/{slug}.md" for slug in left} | {data_name(slug) for slug in left} | {citecache.FILE}


def read(path: Path) -> PageState | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        state = PageState(data["context"], data["notes"], data["citations"])
    except (OSError, ValueError, TypeError, KeyError):
        return None
    valid = isinstance(state.notes, dict) and all(isinstance(v, str) for v in state.notes.values())
    return state if valid and isinstance(state.context, str) and isinstance(state.citations, str) else None


def write(path: Path, state: PageState) -> None:
    text = json.dumps({"context": state.context, "notes": state.notes, "citations": state.citations}, indent=0)
    write_if_changed(path, text + "\n", durable=False)


def _digest(path: Path) -> str:
    return hashlib.sha256(read_input(path)).hexdigest()
