"""Ownership of generated files: the generator writes and deletes only what its manifest lists.

A file that exists but is not in the manifest was written by a person; it is never touched.
The manifest is widened before new files are written and narrowed after stale ones are
deleted, so an interrupted run leaves a state the next run repairs.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from ..errors import ReadingListError
from ..writer import write_if_changed

MANIFEST = ".readinglist-manifest.json"
PROTECTED = ("notes",)  # folders under docs/ that hold only people's files
RECORDS = "records.json"  # the list as data; the Sphinx extension copies it to the site root


def read_manifest(docs: Path) -> set[str]:
    path = docs / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    except (ValueError, UnicodeDecodeError):
        raise ReadingListError("generator manifest is corrupt; delete it and the generated folders", path) from None
    return {p for p in data.get("files", []) if isinstance(p, str) and is_owned_path(p)}


def write_manifest(docs: Path, files: set[str]) -> None:
    text = json.dumps({"generator": "readinglist", "files": sorted(files)}, indent=1) + "\n"
    write_if_changed(docs / MANIFEST, text)


def is_owned_path(rel: str) -> bool:
    """Only plain relative paths outside protected folders can ever belong to the generator."""
    path = PurePosixPath(rel)
    return (
        not path.is_absolute()
        and ".." not in path.parts
        and bool(path.parts)
        and path.parts[0] not in PROTECTED
        and path.suffix in (".md", ".bib", ".json")
    )


def sync(docs: Path, pages: dict[str, str]) -> tuple[int, int]:
    """Make docs/ hold ``pages``; return (files written, stale files deleted)."""
    owned = read_manifest(docs)
    for rel in pages:
        if not is_owned_path(rel):
            raise ReadingListError(f"refusing to generate {rel!r}: outside the generated folders", docs)
        if rel not in owned and (docs / rel).exists():
            raise ReadingListError(
                f"{rel} exists but was not written by readinglist; move it away to let the generator own it", docs
            )
    write_manifest(docs, owned | set(pages))
    _remove_interrupted_writes(docs, owned | set(pages))
    written = sum(write_if_changed(docs / rel, text, durable=False) for rel, text in sorted(pages.items()))
    stale = sorted(owned - set(pages))
    for rel in stale:
        (docs / rel).unlink(missing_ok=True)
    write_manifest(docs, set(pages))
    return written, len(stale)


def _remove_interrupted_writes(docs: Path, files: set[str]) -> None:
    """Delete temporary files an interrupted write left beside files the generator owns."""
    for folder in {(docs / rel).parent for rel in files}:
        for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
            target = tmp.name[1:].rsplit(".", 2)[0]
            if (folder / target).relative_to(docs).as_posix() in files:
                tmp.unlink(missing_ok=True)
