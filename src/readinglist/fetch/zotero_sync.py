"""``readinglist sync zotero``: bring a Zotero library's changes into refs.bib, as an import does.

One request asks what changed since the version the last sync reached (``since=`` and
``If-Modified-Since-Version``): an unchanged library answers 304 and nothing is written. Otherwise
every changed item is fetched, 100 a page, with the items deleted meanwhile (``zotero_fetch``);
works become records (``sources/zotero_items.py``) and go through the importer like a file's
(merges, versions, skips, hand edits in refs.bib winning). Notes and highlights are kept in
``conf/zotero-notes.json`` and shown through ``docs/_zotero/`` (``render/zotero.py``).
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

from ..bibsyntax import Chunk, split_chunks
from ..config import Config
from ..model import Work
from ..slugs import slugs
from ..sources.zotero_items import item_key_of, source_file
from ..store import bibfile, importer
from ..store.identity import load_rules
from ..store.remove import Removal, remove_entries
from ..writer import write_if_changed
from . import zotero_api, zotero_changes, zotero_state
from .zotero_api import Client
from .zotero_fetch import Fetched, fetch
from .zotero_summary import Summary

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
        _sync(sync, fetched, full=not since)
    sync.summary.requests_made = client.requests
    return sync.summary


def _sync(sync: _Sync, fetched: Fetched, full: bool) -> None:
    """Import the records; then, unless dry or failed, prune, write the sections and the state."""
    config, state, summary = sync.config, sync.state, sync.summary
    changes = zotero_changes.sort(fetched, state, sync.after, sync.options.library)
    records = changes.records
    items = [item_key_of(r.source.file) for r in records]
    wanted = {state.keys[i] for i in (*items, *changes.removed) if i in state.keys}
    stored = {w.key: w for w in _works_where(config.bib_path, lambda chunk: chunk.key in wanted)}
    before = _entry_keys(config.bib_path)
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
    for item in changes.removed if removal is not None else ():  # pruned: forgotten, whatever the store kept
        state.keys.pop(item)
    # The sections to write: all after a full sync or a change of [highlights], else those of the
    # items this sync brought and of those whose notes or highlights changed.
    colours = zotero_state.highlight_fields(config.root)
    touched = set(items) | zotero_changes.changed(
        zotero_changes.snapshot(sync.before), zotero_changes.snapshot(sync.after)
    )
    everything = full or state.settings != zotero_state.digest(colours)
    state.library, state.collection, state.version = sync.options.library, sync.options.collection, fetched.version
    state.settings = zotero_state.digest(colours)
    written = _write_sections(config.docs_path, state, sync.after, colours, None if everything else touched)
    summary.written = written + zotero_state.save(config.root, state, sync.after)


def _learn_keys(bib_path: Path, state: zotero_state.State, files: set[str], before: set[str]) -> None:
    """Each imported item's citation key, read from the store: the entry whose provenance names the
    item's source. An item merged into an entry that refs.bib held before, and that no sync had
    brought, joined the owner's entry: it is marked so, and ``--prune`` leaves that entry."""

    def names_one(chunk: Chunk) -> bool:
        return chunk.key is not None and not files.isdisjoint(_ITEM_FILE.findall(chunk.text))

    for work in _works_where(bib_path, names_one):
        for source in work.sources:
            item = item_key_of(source.file) if source.file in files else ""
            if item and item not in state.keys and work.key in before:
                state.merged.add(item)
            state.keys.update({item: work.key} if item else {})


def _prune(sync: _Sync, removed: list[str]) -> Removal:
    """The removed items' entries out of refs.bib, through the store (``store/remove.py``: under
    its lock, over the bytes read, an entry that holds another source too kept); an entry that
    was the owner's before a sync merged an item into it is kept too."""
    keys, merged = sync.state.keys, sync.state.merged
    wanted = {keys[i]: source_file(sync.options.library, i) for i in removed if i in keys and i not in merged}
    removal = remove_entries(sync.config.bib_path, wanted, "sync")
    owners = tuple(keys[i] for i in removed if i in keys and i in merged)
    return replace(removal, kept=removal.kept + owners)


def _write_sections(
    docs: Path,
    state: zotero_state.State,
    children: zotero_state.Children,
    colours: dict[str, str],
    touched: set[str] | None,
) -> list[str]:
    """docs/_zotero/<slug>.txt for every work from Zotero (empty if the item has no notes), of the
    ``touched`` items (None: all): the page includes it. Files of works no longer synced are
    removed (the folder is the tool's). A slug is its key's alone (``slugs``: a hash for an unsafe
    key), so each is made on its own."""
    from ..render.zotero import FOLDER, file_name, section

    wanted = {item: file_name(slugs([key])[key]) for item, key in sorted(state.keys.items())}
    written = [
        rel
        for item, rel in wanted.items()
        if (touched is None or item in touched) and _write(docs / rel, section(children.items.get(item, {}), colours))
    ]
    names = set(wanted.values())
    folder = docs / FOLDER
    for stale in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        if f"{FOLDER}/{stale.name}" not in names:
            stale.unlink()
            written.append(f"{FOLDER}/{stale.name}")
    return [f"{docs.name}/{rel}" for rel in written]


def _write(path: Path, text: str) -> bool:
    """A section written atomically where it changed. Most items have no notes: their empty file
    is created whole by ``open`` (nothing can be half-written), not through a temporary file
    and a rename, which cost three times as much on a first sync of 10,000 items."""
    if text or path.exists():
        return write_if_changed(path, text, durable=False)  # reads first: unchanged bytes are not written
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.open("x", encoding="utf-8").close()
    except FileExistsError:
        return False
    return True


def _works_where(bib_path: Path, pick: Callable[[Chunk], bool]) -> list[Work]:
    """The works of the chunks ``pick`` chooses, parsed alone (with the file's @string and
    @preamble): a full parse of a store of 10,000 entries cost more than the rest of an
    incremental sync."""
    if not bib_path.exists():
        return []
    chunks = split_chunks(bib_path.read_bytes().decode("utf-8", errors="replace"))
    chosen = [chunk for chunk in chunks if chunk.key is not None and pick(chunk)]
    if not chosen:
        return []
    text = "".join(chunk.text for chunk in chunks if chunk.key is None) + "".join(c.text for c in chosen)
    return bibfile.parse(bib_path, text.encode("utf-8"), tolerant=True).works()


def _entry_keys(bib_path: Path) -> set[str]:
    """The keys refs.bib holds, unparsed."""
    if not bib_path.exists():
        return set()
    return {c.key for c in split_chunks(bib_path.read_bytes().decode("utf-8", errors="replace")) if c.key}


__all__ = ["KEY_VARIABLE", "Options", "run"]
