"""Removing entries from refs.bib, as the import writes into it: under the store's lock, and only
over the bytes that were read.

A person's editor takes no lock: a hand edit saved while the removal runs must not be lost. So
the file is read once, the new text is every other chunk's bytes as they were, and the write
goes ahead only if refs.bib still holds what was read (checked just before the rename, and after
it through the descriptor kept open, as ``importer._replace`` does); if it changed, the removal
starts again from the new bytes. An entry is removed only where it came from the sources named
and from nothing else (its ``provenance``): an entry a person wrote, or one another import
merged into, is kept and said so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import lock
from ..errors import Code, ReadingListError
from ..writer import write_bytes_if_changed, write_if_changed
from . import bibfile, busy, storefile

ATTEMPTS = 5  # reads of a refs.bib that keeps changing under the removal, before giving up


@dataclass(frozen=True)
class Removal:
    removed: tuple[str, ...] = ()  # the keys whose entries are gone
    kept: tuple[str, ...] = ()  # the keys whose entries hold another source too (a person's, another import's)


class _Changed(Exception):
    """refs.bib no longer holds the bytes the removal started from (someone saved it meanwhile)."""


def remove_entries(bib_path: Path, wanted: Mapping[str, str], what: str = "removal") -> Removal:
    """Remove each entry ``key`` of ``wanted`` (key -> the source ``file`` it came from) whose
    sources are that file's alone; a key refs.bib no longer holds is neither removed nor kept.
    ``what`` names the holder of the lock in messages."""
    if not wanted or not bib_path.exists():
        return Removal()
    with lock.exclusive(bib_path, what):
        for _ in range(ATTEMPTS):
            try:
                return _remove_once(bib_path, wanted)
            except _Changed:
                continue
    raise ReadingListError(
        f"changed {ATTEMPTS} times while entries were removed from it; nothing removed, run again",
        bib_path,
        code=Code.STORE_CHANGED,
    )


def _remove_once(bib_path: Path, wanted: Mapping[str, str]) -> Removal:
    waited = busy.wait_closed(bib_path)
    if waited.held:
        raise busy.busy_error(bib_path, waited.held)
    opened = storefile.open_store(bib_path)
    if opened is None:
        return Removal()
    try:
        store = bibfile.parse(bib_path, opened.data)
        removal = _decide(store, wanted)
        if removal.removed:
            text = "".join(chunk.text for chunk in store.chunks if chunk.key not in removal.removed)
            _replace(bib_path, store.on_disk(text), opened)
        return removal
    finally:
        opened.close()


def _decide(store: bibfile.BibFile, wanted: Mapping[str, str]) -> Removal:
    works = {work.key: work for work in store.works() if work.key in wanted}
    removed = [key for key, work in works.items() if work.sources and {s.file for s in work.sources} == {wanted[key]}]
    return Removal(tuple(sorted(removed)), tuple(sorted(set(works) - set(removed))))


def _replace(path: Path, text: str, opened: storefile.Opened) -> None:
    """Write ``text`` over ``path`` if it still holds what was read; a writer that still wrote
    into the replaced file after the check has its bytes put back, and the removal runs again."""
    was = (opened.info.st_dev, opened.info.st_ino, opened.snapshot)
    write_if_changed(path, text, check=lambda: _unchanged(path, was), keep_owner=True)
    busy.wait_closed(Path(f"/proc/self/fd/{opened.fd}"), name=path.name)
    replaced = opened.now()
    if replaced != opened.data:
        write_bytes_if_changed(path, replaced, keep_owner=True)
        raise _Changed


def _unchanged(path: Path, was: object) -> None:
    """Raise unless ``path`` is the file read, with the bytes read, and no one is writing it."""
    waited = busy.wait_closed(path)
    if waited.held:
        raise busy.busy_error(path, waited.held)
    if waited.waited or storefile.snapshot_of(path) != was:
        raise _Changed
