"""Ownership of generated files: the generator writes and deletes only what its manifest lists.

A file that exists but is not in the manifest was written by a person; it is never touched.
The manifest is widened before new files are written and narrowed after stale ones are
deleted, so an interrupted run leaves a state the next run repairs; the temporary files of
writes a kill interrupted are removed when the next run starts (:func:`remove_interrupted_writes`).

The manifest is the ``files`` of the state file's trusted header (readinglist.cache), written
atomically and flushed to disk with it. Unlike the cached results beside it, it is trusted, so
an unreadable header is an error (:data:`Code.BAD_MANIFEST`), never "owns nothing". Projects
generated before issue 29 kept it in ``.readinglist-manifest.json``: :func:`open_state` reads that
file once into the state file; the generator then removes it (``generate.REPLACED``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection
from pathlib import Path

from ..cache import Store
from ..errors import Code, ReadingListError
from ..render.registry import PROTECTED, may_write
from ..writer import remove_temp_files, write_if_changed

OLD_MANIFEST = ".readinglist-manifest.json"  # before issue 29: the manifest's own file
OLD_STAMP = ".readinglist-inputs"  # before issue 29: the inputs' stamp's own file (site/changes.py)
RECORDS = "records.json"  # the list as data; the Sphinx extension copies it to the site root


def _corrupt(path: Path) -> ReadingListError:
    return ReadingListError(
        "generator manifest is corrupt; delete it and the generated folders", path, code=Code.BAD_MANIFEST
    )


def open_state(docs: Path) -> Store:
    """The state file, its header checked; with none yet, the files of an older version's manifest."""
    store = Store.open(docs)
    read_manifest(store)
    if not store.path.exists() and (docs / OLD_MANIFEST).exists():
        _migrate(store, docs)
    return store


def _migrate(store: Store, docs: Path) -> None:
    """Copy the old manifest, and its stamp if it was the old manifest's, into ``store.header``."""
    raw = (docs / OLD_MANIFEST).read_bytes()
    try:
        files = json.loads(raw)["files"]
    except (ValueError, TypeError, KeyError):
        raise _corrupt(docs / OLD_MANIFEST) from None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise _corrupt(docs / OLD_MANIFEST)
    store.header = {"files": sorted(files)}
    try:  # the old stamp: "<fingerprint> <SHA-256 of the manifest's bytes>"
        fingerprint, mark = (docs / OLD_STAMP).read_text(encoding="utf-8").split()
    except (OSError, ValueError):
        return
    if mark == hashlib.sha256(raw).hexdigest():
        store.header["inputs"] = stamp_of(fingerprint, store)


def stamp_of(fingerprint: str, store: Store) -> str:
    """The inputs' fingerprint and the manifest's own, so an edited manifest is noticed too."""
    files = json.dumps(store.header.get("files", []) if store.header else []).encode()
    return f"{fingerprint} {hashlib.sha256(files).hexdigest()}"


def read_manifest(store: Store) -> set[str]:
    files = store.header.get("files", []) if store.header is not None else None
    if not isinstance(files, list):
        raise _corrupt(store.path)
    return {p for p in files if isinstance(p, str) and is_owned_path(p)}


def write_manifest(store: Store, files: set[str]) -> None:
    """Written at once (with the cached results) if the files changed, else left for the next save."""
    assert store.header is not None  # read_manifest refused an unreadable one
    store.header["files"] = sorted(files)
    if store.header_read is None or store.header["files"] != store.header_read.get("files"):
        store.save()


def is_owned_path(rel: str) -> bool:
    """Only plain relative paths where a kind of generated file lives (render/registry.py) can
    ever belong to the generator: never a protected folder, never outside docs/."""
    parts = rel.split("/")
    # a plain relative path: no empty, "." or ".." part (none that a path would normalise away)
    plain = all(part not in ("", ".", "..") for part in parts)
    return plain and parts[0] not in PROTECTED and may_write(rel)


def sync(docs: Path, pages: dict[str, str], kept: Collection[str] = (), store: Store | None = None) -> tuple[int, int]:
    """Make docs/ hold ``pages`` and the generator's files ``kept`` as they are (a partial render:
    site/pagestate.py); return (files written, stale files deleted). ``store``: the generate's
    state file, if it has opened it (two open copies would each write the other's over)."""
    store = open_state(docs) if store is None else store
    owned = read_manifest(store)
    if not set(kept) <= owned:
        raise ReadingListError("refusing to keep files the generator did not write", docs, code=Code.NOT_OWNED)
    for rel in pages:
        if not is_owned_path(rel):
            raise ReadingListError(
                f"refusing to generate {rel!r}: outside the generated folders", docs, code=Code.NOT_OWNED
            )
        if rel not in owned and (docs / rel).exists():
            raise ReadingListError(
                f"{rel} exists but was not written by readinglist; move it away to let the generator own it",
                docs,
                code=Code.NOT_OWNED,
            )
    write_manifest(store, owned | set(pages))
    written = sum(_write(docs / rel, text) for rel, text in sorted(pages.items()))
    stale = sorted(owned - set(pages) - set(kept))
    for rel in stale:
        (docs / rel).unlink(missing_ok=True)
    write_manifest(store, set(pages) | set(kept))
    return written, len(stale)


def _write(path: Path, text: str) -> bool:
    try:
        return write_if_changed(path, text, durable=False)
    except OSError as exc:  # a read-only docs/ folder, a full disk: the error names the file, not a temporary
        raise ReadingListError(f"cannot write: {exc.strerror or exc}", path, code=Code.UNWRITABLE) from None


def remove_interrupted_writes(docs: Path, files: set[str]) -> int:
    """Delete the temporary files interrupted writes of ``files`` (paths under ``docs``) left.

    Only while holding the build lock: a live write's temporary file looks like a dead one's.
    """
    return sum(remove_temp_files(docs / folder, names) for folder, names in _by_folder(files).items())


def all_exist(docs: Path, files: Collection[str]) -> bool:
    """True if every one of ``files`` (paths under ``docs``) is there: each folder listed once,
    not each file looked up (a list of 10,000 works has 20,000 generated files)."""
    return all(names <= _names(docs / folder) for folder, names in _by_folder(files).items())


def _by_folder(files: Collection[str]) -> dict[str, set[str]]:
    """The files' names by their folder (POSIX paths, as the manifest holds them)."""
    folders: dict[str, set[str]] = {}
    for rel in files:
        folder, _, name = rel.rpartition("/")
        folders.setdefault(folder, set()).add(name)
    return folders


def _names(folder: Path) -> set[str]:
    """The files in ``folder`` (a link counts as its target: a dangling one is no file)."""
    try:
        with os.scandir(folder) as entries:
            return {entry.name for entry in entries if entry.is_file()}
    except (FileNotFoundError, NotADirectoryError):
        return set()
