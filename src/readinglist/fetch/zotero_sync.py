"""``readinglist sync zotero``: bring a Zotero library's changes into refs.bib, as an import does.

One request asks what changed since the version the last sync reached (``since=`` and
``If-Modified-Since-Version``): an unchanged library answers 304 and nothing is written. Otherwise
every changed item is fetched, 100 a page, with the items deleted meanwhile (``zotero_fetch``);
works become records (``sources/zotero_items.py``) and go through the importer like a file's
(merges, versions, skips, hand edits in refs.bib winning). Notes and highlights are kept in
``conf/zotero-notes.json``, which the paper pages are rendered from (``render/zotero.py``).
Deleted items, and items moved out of the collection, are reported and kept unless ``prune``.
Every request is made before anything is written: an error leaves refs.bib as it was.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..bibsyntax import Chunk, closing, split_chunks
from ..config import Config
from ..model import SourceRef, Work
from ..slugs import slugs
from ..sources.zotero_items import item_key_of, source_file
from ..store import bibfile, importer
from ..store.identity import load_rules
from ..store.provenance import parse_provenance
from ..store.remove import Removal, remove_entries
from . import zotero_api, zotero_changes, zotero_state
from .zotero_api import Client
from .zotero_fetch import Fetched, fetch
from .zotero_summary import Summary

OLD_FOLDER = "_zotero"  # under docs/: where syncs before this version wrote each item's section
_PROVENANCE = re.compile(r"[,{(]\s*provenance\s*=\s*\{", re.I)  # store/bibfile.py writes it braced
_ITEM_FILE = re.compile(r"zotero/(?:users|groups)/[0-9]+/items/[A-Za-z0-9]+")  # sources/zotero_items.source_file

KEY_VARIABLE = "ZOTERO_API_KEY"


@dataclass(frozen=True)
class Options:
    library: str  # users/123 or groups/456
    collection: str = ""
    api_url: str = zotero_api.PUBLIC
    prune: bool = False
    dry_run: bool = False
    sleep: Callable[[float], None] | None = None  # the API's waits (tests pass their own); None: time.sleep


@dataclass
class _Sync:
    """One sync: its settings, the state read, and the notes before and after the fetched changes."""

    config: Config
    options: Options
    state: zotero_state.State
    before: zotero_state.Children
    after: zotero_state.Children
    summary: Summary


def run(config: Config, options: Options) -> Summary:
    """Sync, or with ``dry_run`` say what a sync would do; the summary is the pull request's body."""
    state, children = zotero_state.load_state(config.root), zotero_state.load_children(config.root)
    sync = _Sync(config, options, state, children, copy.deepcopy(children), Summary(options.library))
    sync.summary.dry_run = options.dry_run
    since = state.version if (state.library, state.collection) == (options.library, options.collection) else 0
    client = Client(options.api_url, options.library, os.environ.get(KEY_VARIABLE, ""))
    client.sleep = options.sleep or client.sleep
    fetched = fetch(client, since, options.collection)
    if fetched is not None:  # None: 304, nothing changed upstream
        _sync(sync, fetched)
    sync.summary.requests_made = client.requests
    return sync.summary


def _sync(sync: _Sync, fetched: Fetched) -> None:
    """Import the records; then, unless dry or failed, prune and write the state and the notes."""
    config, state, summary = sync.config, sync.state, sync.summary
    changes = zotero_changes.sort(fetched, state, sync.after, sync.options.library)
    records = changes.records
    items = [item_key_of(r.source.file) for r in records]
    wanted = {state.keys[i] for i in (*items, *changes.removed) if i in state.keys}
    chunks = _chunks(config.bib_path)  # refs.bib before the import
    stored = {w.key: w for w in _works_where(config.bib_path, chunks, lambda chunk: chunk.key in wanted)}
    before = {chunk.key for chunk in chunks if chunk.key}
    summary.note_changes(records, state.keys, stored)  # refs.bib's values and titles, for the summary
    rules = load_rules(config.identity_path)
    dry = sync.options.dry_run
    report = importer.run_records(records, config.bib_path, rules, dry_run=dry, skipped=tuple(changes.skipped))
    summary.note_import(report, {r.source.file: r for r in records})
    summary.note_children(sync.before.items, sync.after.items, state.keys)
    if dry or report.failed:
        summary.note_removed(changes.removed, state.keys, stored, "would be removed" if sync.options.prune else None)
        return
    _learn_keys(config.bib_path, state, {r.source.file for r in records}, before)
    removal = _prune(sync, changes.removed) if sync.options.prune else None
    summary.note_removed(changes.removed, state.keys, stored, removal)
    old = set(state.keys.values())  # before pruning forgets any: their sections of old are the tool's too
    for item in changes.removed if removal is not None else ():  # pruned: forgotten, whatever the store kept
        state.keys.pop(item)
        state.merged.discard(item)
    state.library, state.collection, state.version = sync.options.library, sync.options.collection, fetched.version
    written = zotero_state.save(config.root, state, sync.after)
    summary.written = written + _remove_old_sections(config.docs_path, old)


def _learn_keys(bib_path: Path, state: zotero_state.State, files: set[str], before: set[str]) -> None:
    """Each imported item's citation key, read from the store: the entry whose provenance names the
    item's source. An item merged into an entry that refs.bib held before, and that no sync had
    brought, joined the owner's entry: it is marked so, and ``--prune`` leaves that entry."""

    def names_one(chunk: Chunk) -> bool:
        return chunk.key is not None and not files.isdisjoint(_ITEM_FILE.findall(chunk.text))

    for key, sources in _sources_where(bib_path, names_one):
        for item in (item_key_of(s.file) for s in sources if s.file in files):
            if item not in state.keys and key in before:
                state.merged.add(item)
            state.keys[item] = key


def _sources_where(bib_path: Path, pick: Callable[[Chunk], bool]) -> list[tuple[str, tuple[SourceRef, ...]]]:
    """Each chosen entry's key and sources, read from its braced ``provenance`` field alone, as
    the store writes it (a full parse of the 10,000 entries of a first sync doubled its time);
    an entry whose field is written otherwise (by hand) is parsed whole."""
    found, odd, chunks = [], [], _chunks(bib_path)
    for chunk in chunks:
        if chunk.key is not None and pick(chunk):
            start = _PROVENANCE.search(chunk.text)
            end = closing(chunk.text, start.end(), "{") if start else None
            if start and end:
                found.append((chunk.key, parse_provenance(chunk.text[start.end() : end - 1])))
            else:
                odd.append(chunk.key)
    found += [(w.key, w.sources) for w in _works_where(bib_path, chunks, lambda chunk: chunk.key in odd)] if odd else []
    return found


def _prune(sync: _Sync, removed: list[str]) -> Removal:
    """The removed items' entries out of refs.bib, through the store (``store/remove.py``: under
    its lock, over the bytes read, an entry that holds another source too kept); an entry that
    was the owner's before a sync merged an item into it is kept too."""
    keys, merged = sync.state.keys, sync.state.merged
    wanted = {keys[i]: source_file(sync.options.library, i) for i in removed if i in keys and i not in merged}
    removal = remove_entries(sync.config.bib_path, wanted, "sync")
    owners = tuple(keys[i] for i in removed if i in keys and i in merged)
    return replace(removal, kept=removal.kept + owners)


def _remove_old_sections(docs: Path, keys: set[str]) -> list[str]:
    """The files ``docs/_zotero/<slug>.txt`` that syncs before this version wrote, one per synced
    work, removed: the pages now show the notes from conf/zotero-notes.json. Only the names the
    tool gave its own works' files (a slug is its key's alone), then the folder if that emptied it."""
    folder = docs / OLD_FOLDER
    if not folder.is_dir():
        return []
    removed = []
    for slug in sorted(slugs(sorted(keys)).values()):
        path = folder / f"{slug}.txt"
        if path.is_file():
            path.unlink()
            removed.append(f"{docs.name}/{OLD_FOLDER}/{path.name}")
    if not any(folder.iterdir()):
        folder.rmdir()
    return removed


def _works_where(bib_path: Path, chunks: list[Chunk], pick: Callable[[Chunk], bool]) -> list[Work]:
    """The works of the chunks ``pick`` chooses, parsed alone (with the file's @string and
    @preamble): a full parse of a store of 10,000 entries cost more than the rest of an
    incremental sync."""
    chosen = [chunk for chunk in chunks if chunk.key is not None and pick(chunk)]
    if not chosen:
        return []
    text = "".join(chunk.text for chunk in chunks if chunk.key is None) + "".join(c.text for c in chosen)
    return bibfile.parse(bib_path, text.encode("utf-8"), tolerant=True).works()


def _chunks(bib_path: Path) -> list[Chunk]:
    """refs.bib's entries and the text between them, unparsed (none if there is no refs.bib)."""
    if not bib_path.exists():
        return []
    return split_chunks(bib_path.read_bytes().decode("utf-8", errors="replace"))


__all__ = ["KEY_VARIABLE", "Options", "run"]
