"""Ownership of generated files: the generator writes and deletes only what its manifest lists.

A file that exists but is not in the manifest was written by a person; it is never touched.
The manifest is widened before new files are written and narrowed after stale ones are
deleted, so an interrupted run leaves a state the next run repairs; the temporary files of
writes a kill interrupted are removed when the next run starts (:func:`remove_interrupted_writes`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path

from ..errors import Code, ReadingListError
from ..render.registry import PROTECTED, may_write
from ..writer import remove_temp_files, write_if_changed

MANIFEST = ".readinglist-manifest.json"
RECORDS = "records.json"  # the list as data; the Sphinx extension copies it to the site root


def read_manifest(docs: Path) -> set[str]:
    path = docs / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    except (ValueError, UnicodeDecodeError):
        raise ReadingListError(
            "generator manifest is corrupt; delete it and the generated folders", path, code=Code.BAD_MANIFEST
        ) from None
    return {p for p in data.get("files", []) if isinstance(p, str) and is_owned_path(p)}


def write_manifest(docs: Path, files: set[str]) -> None:
    text = json.dumps({"generator": "readinglist", "files": sorted(files)}, indent=1) + "\n"
    _write(docs / MANIFEST, text, durable=True)


def is_owned_path(rel: str) -> bool:
    """Only plain relative paths where a kind of generated file lives (render/registry.py) can
    ever belong to the generator: never a protected folder, never outside docs/."""
    parts = rel.split("/")
    # a plain relative path: no empty, "." or ".." part (none that a path would normalise away)
    plain = all(part not in ("", ".", "..") for part in parts)
    return plain and parts[0] not in PROTECTED and may_write(rel)


def sync(docs: Path, pages: dict[str, str], kept: Collection[str] = ()) -> tuple[int, int]:
    """Make docs/ hold ``pages`` and the generator's files ``kept`` as they are (a partial render:
    site/pagestate.py); return (files written, stale files deleted)."""
    owned = read_manifest(docs)
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
    write_manifest(docs, owned | set(pages))
    written = sum(_write(docs / rel, text) for rel, text in sorted(pages.items()))
    stale = sorted(owned - set(pages) - set(kept))
    for rel in stale:
        (docs / rel).unlink(missing_ok=True)
    write_manifest(docs, set(pages) | set(kept))
    return written, len(stale)


def _write(path: Path, text: str, durable: bool = False) -> bool:
    try:
        return write_if_changed(path, text, durable=durable)
    except OSError as exc:  # a read-only docs/ folder, a full disk: the error names the file, not a temporary
        raise ReadingListError(f"cannot write: {exc.strerror or exc}", path, code=Code.UNWRITABLE) from None


def remove_interrupted_writes(docs: Path, files: set[str]) -> int:
    """Delete the temporary files interrupted writes of ``files`` (paths under ``docs``) left.

    Only while holding the build lock: a live write's temporary file looks like a dead one's.
    """
    names: dict[Path, set[str]] = {}
    for rel in files:
        path = docs / rel
        names.setdefault(path.parent, set()).add(path.name)
    return sum(remove_temp_files(folder, group) for folder, group in names.items())
