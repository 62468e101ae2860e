"""``readinglist sync zotero``: bring a Zotero library's changes into refs.bib, as an import does.

One request asks what changed since the version the last sync reached (``since=`` and
``If-Modified-Since-Version``): an unchanged library answers 304 and nothing is written. Otherwise
every changed item is fetched, 100 a page, with the items deleted meanwhile (``/deleted``);
items become records (``sources/zotero_items.py``) and go through the importer like a file's
(merges, versions, skips, hand edits in refs.bib winning). Notes and highlights are kept in
``conf/zotero-notes.json`` and shown through ``docs/_zotero/`` (``render/zotero.py``).
Deleted items, and items moved out of the collection, are reported and kept unless ``prune``.
Every request is made before anything is written: an error leaves refs.bib as it was.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import lock
from ..config import Config
from ..errors import Code, ReadingListError
from ..model import RawRecord, Skip
from ..slugs import slugs
from ..sources.zotero_items import is_work, item_key_of, to_record
from ..store import bibfile, importer
from ..store.identity import load_rules
from ..writer import write_if_changed
from . import zotero_api, zotero_state
from .zotero_api import PAGE, WHO, Client
from .zotero_summary import Summary, changed_fields, keys_from_report

KEY_VARIABLE = "ZOTERO_API_KEY"


@dataclass(frozen=True)
class Options:
    library: str  # users/123 or groups/456
    collection: str = ""
    api_url: str = zotero_api.PUBLIC
    prune: bool = False
    dry_run: bool = False
    sleep: Callable[[float], None] = time.sleep


@dataclass
class Fetched:
    """What the API said changed: the library version reached, items, deleted keys, collections."""

    version: int
    items: list[dict[str, Any]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    scope: frozenset[str] | None = None  # the collection and its subcollections; None: the whole library


def run(config: Config, options: Options) -> Summary:
    """Sync, or with ``dry_run`` say what a sync would do; the summary is the pull request's body."""
    root = config.root
    state, children = zotero_state.load_state(root), zotero_state.load_children(root)
    colours = zotero_state.highlight_fields(root)
    same = (state.library, state.collection) == (options.library, options.collection)
    since = state.version if same else 0
    client = Client(options.api_url, options.library, os.environ.get(KEY_VARIABLE, ""), sleep=options.sleep)
    fetched = fetch(client, since, options.collection)
    summary = Summary(library=options.library, requests_made=0, dry_run=options.dry_run)
    if fetched is None:  # 304: nothing changed upstream
        summary.requests_made = client.requests
        return summary
    old_children, old_entries = _snapshot(children), _entries(children)
    records, skipped, removed = _sort(fetched, state, children, options.library)
    # refs.bib's works, read only when an item it already has changed or left (the summary names them)
    known = any(item_key_of(r.source.file) in state.keys for r in records) or bool(removed)
    stored = _stored_works(config.bib_path) if known else {}
    summary.note_changes(records, state.keys, stored)
    report = importer.run_records(records, config.bib_path, load_rules(config.identity_path), dry_run=options.dry_run,
                                  skipped=tuple(skipped))  # fmt: skip
    summary.note_import(report, {r.source.file: r for r in records})
    summary.note_children(old_children, children, state.keys)
    summary.note_removed(removed, state.keys, stored, options.prune)
    if not options.dry_run and not report.failed:
        _learn_keys(config.bib_path, state, records, keys_from_report(report))
        # The sections to write: every one after a full sync or a change of [highlights], else
        # those of the items this sync brought and of those whose notes or highlights changed.
        touched = {item_key_of(r.source.file) for r in records} | _changed(old_entries, _entries(children))
        everything = not since or state.settings != zotero_state.digest(colours)
        _finish(
            config,
            options,
            state,
            children,
            colours,
            fetched.version,
            removed,
            summary,
            None if everything else touched,
        )
    summary.requests_made = client.requests
    return summary


def fetch(client: Client, since: int, collection: str) -> Fetched | None:
    """Everything that changed since ``since``; None when the library answers 304 (one request)."""
    url = client.url("items", since=since or None, format="json", limit=PAGE)
    items: list[dict[str, Any]] = []
    version = 0
    with _progress() as advance:
        for answer, total in client.pages(url, since_version=since or None):
            if answer.status == 304:
                return None
            version = version or answer.version
            items += [i for i in _list(answer.body) if isinstance(i, dict) and isinstance(i.get("data"), dict)]
            advance(len(items), total)
    deleted = _deleted(client, since) if since else []
    scope = _scope(client, collection) if collection else None
    return Fetched(version, items, deleted, scope)


def _deleted(client: Client, since: int) -> list[str]:
    answer = client.get(client.url("deleted", since=since))
    body = answer.body if isinstance(answer.body, dict) else {}
    return [k for k in _list(body.get("items")) if isinstance(k, str)]


def _scope(client: Client, collection: str) -> frozenset[str]:
    """The collection and every collection under it (the API lists each collection's parent)."""
    parents: dict[str, str] = {}
    for answer, _ in client.pages(client.url("collections", format="json", limit=PAGE)):
        for c in _list(answer.body):
            data = c.get("data", {}) if isinstance(c, dict) else {}
            parents[str(data.get("key", ""))] = str(data.get("parentCollection") or "")
    if collection not in parents:
        raise ReadingListError(
            f"no collection {collection} in {client.library} (--collection takes the key from its URL)",
            WHO,
            code=Code.NOT_FOUND,
        )
    scope = {collection}
    while grown := {k for k, parent in parents.items() if parent in scope and k not in scope}:
        scope |= grown
    return frozenset(scope)


def _sort(
    fetched: Fetched, state: zotero_state.State, children: zotero_state.Children, library: str
) -> tuple[list[RawRecord], list[Skip], list[str]]:
    """Records of the works in scope; children filed under their items; the item keys removed."""
    records, skipped, removed = [], [], []
    by_type: dict[str, list[dict[str, Any]]] = {}
    for item in fetched.items:
        by_type.setdefault(str(item["data"].get("itemType", "")), []).append(item)
    for item in by_type.get("attachment", []):
        parent = item["data"].get("parentItem")
        if isinstance(parent, str):
            children.attachments[str(item["key"])] = parent
    for item in fetched.items:
        key = str(item.get("key", ""))
        if is_work(item):
            if fetched.scope is not None and not fetched.scope & set(_list(item["data"].get("collections"))):
                removed += [key] if key in state.keys else []  # moved out of the collection
                continue
            try:
                records.append(to_record(item, library))
            except ValueError as exc:
                skipped.append(Skip(f"zotero/{library}/items/{key}", 1, key, str(exc)))
        else:
            _file_child(item, children)
    removed += [k for k in fetched.deleted if k in state.keys]
    _forget(set(fetched.deleted), children)
    return records, skipped, removed


def _file_child(item: dict[str, Any], children: zotero_state.Children) -> None:
    data, key = item["data"], str(item["key"])
    kind, parent = data.get("itemType"), data.get("parentItem")
    if not isinstance(parent, str):
        return  # a standalone note or file: no paper to show it on
    if kind == "note":
        children.of(parent)["notes"][key] = str(data.get("note", ""))
    elif kind == "annotation" and parent in children.attachments:
        children.of(children.attachments[parent])["highlights"][key] = {
            "text": data.get("annotationText", ""),
            "comment": data.get("annotationComment", ""),
            "color": data.get("annotationColor", ""),
            "page": data.get("annotationPageLabel", ""),
            "sort": data.get("annotationSortIndex", ""),
        }


def _forget(deleted: set[str], children: zotero_state.Children) -> None:
    """Deleted notes and highlights leave the pages; a deleted attachment's item keeps the rest."""
    for entry in children.items.values():
        for kind in ("notes", "highlights"):
            for key in deleted & set(entry.get(kind, {})):
                del entry[kind][key]
    for key in deleted & set(children.attachments):
        del children.attachments[key]


def _finish(
    config: Config,
    options: Options,
    state: zotero_state.State,
    children: zotero_state.Children,
    colours: dict[str, str],
    version: int,
    removed: list[str],
    summary: Summary,
    touched: set[str] | None,
) -> None:
    """After the import: prune, write the sections (of ``touched`` items; None: all) and the state."""
    if options.prune and removed:
        _prune(config.bib_path, {state.keys[k] for k in removed if k in state.keys})
        for key in removed:
            state.keys.pop(key, None)
            children.items.pop(key, None)
    state.library, state.collection, state.version = options.library, options.collection, version
    state.settings = zotero_state.digest(colours)
    written = _write_sections(config.docs_path, state, children, colours, touched)
    summary.written = written + zotero_state.save(config.root, state, children)


def _learn_keys(bib_path: Path, state: zotero_state.State, records: list[RawRecord], said: dict[str, str]) -> None:
    """Each imported item's citation key, from the import's report; from refs.bib's provenance
    when the report does not name one (an item merged into another new work of this sync)."""
    for record in records:
        item = item_key_of(record.source.file)
        if record.source.file in said:
            state.keys[item] = said[record.source.file]
        elif item not in state.keys:
            for work in bibfile.load(bib_path).works():
                state.keys.update({item_key_of(s.file): work.key for s in work.sources if item_key_of(s.file)})
            return


def _write_sections(
    docs: Path,
    state: zotero_state.State,
    children: zotero_state.Children,
    colours: dict[str, str],
    touched: set[str] | None,
) -> list[str]:
    """docs/_zotero/<slug>.txt for every work from Zotero (empty if the item has no notes): the
    page includes it. Files of works no longer synced are removed (the folder is the tool's).
    A slug is its key's alone (``slugs``: a hash for an unsafe key), so each is made on its own."""
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
    return _created(path)


def _created(path: Path) -> bool:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.open("x", encoding="utf-8").close()
    except FileExistsError:
        return False
    return True


def _prune(bib_path: Path, keys: set[str]) -> None:
    """refs.bib without the entries of ``keys`` (each chunk's bytes kept), under the store's lock."""
    with lock.exclusive(bib_path, "sync"):
        store = bibfile.load(bib_path)
        text = "".join(chunk.text for chunk in store.chunks if chunk.key not in keys)
        write_if_changed(bib_path, store.on_disk(text), keep_owner=True)


def _stored_works(bib_path: Path) -> dict[str, Any]:
    return {w.key: w for w in bibfile.load(bib_path).works()} if bib_path.exists() else {}


def _snapshot(children: zotero_state.Children) -> dict[str, set[str]]:
    """The keys of each item's notes and highlights before the sync (``notes:ITEM``, ``highlights:ITEM``)."""
    return {f"{kind}:{item}": set(entry.get(kind, {})) for item, entry in children.items.items() for kind in entry}


def _entries(children: zotero_state.Children) -> dict[str, str]:
    """Each item's notes and highlights as one comparable text."""
    return {item: json.dumps(entry, sort_keys=True) for item, entry in children.items.items()}


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {item for item in before.keys() | after.keys() if before.get(item) != after.get(item)}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None]]:
    """``fetched 300/1,000 items`` on a terminal's stderr, page by page; nothing elsewhere."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("fetching Zotero items", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total or None)


__all__ = ["KEY_VARIABLE", "Options", "changed_fields", "run"]
