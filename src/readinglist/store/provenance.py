"""The ``provenance`` field: where each record of a work came from, and why it was merged.

``file:line {kind} (owner) [why]`` for each source, joined by ``;``. The kind is left out for
author profiles, so every value written before kinds existed reads the same and stays byte for byte.

The file is named relative to the project, or by its name alone when it lies outside: an absolute
path names the user's folders (``/home/ann/...``), and provenance is published in records.json.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..model import SourceRef, Work
from ..sources import kinds

_PROVENANCE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+)(?:\s+\{(?P<kind>[a-z-]+)\})?(?:\s+\((?P<owner>[^)]*)\))?"
    r"(?:\s+\[(?P<why>[^\]]*)\])?$"
)


def format_provenance(sources: tuple[SourceRef, ...]) -> str:
    return "; ".join(_one(s) for s in sources)


def _one(s: SourceRef) -> str:
    kind = f" {{{s.kind}}}" if s.kind != "profile" else ""
    return f"{s.file}:{s.line}{kind}" + (f" ({s.owner})" if s.owner else "") + (f" [{s.why}]" if s.why else "")


def parse_provenance(value: str) -> tuple[SourceRef, ...]:
    refs = []
    for part in value.split(";"):
        match = _PROVENANCE.match(" ".join(part.split()))
        if match:
            kind = match["kind"] if match["kind"] in kinds() else "profile"
            refs.append(SourceRef(match["file"], int(match["line"]), match["owner"] or "", match["why"] or "", kind))
    return tuple(refs)


def source_label(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` when inside it, else its file name only."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def private_free(work: Work, root: Path) -> Work:
    """``work`` with every source path that is absolute (or climbs out with ``..``) made private-free,
    as ``source_label`` would have named it; the same ``work`` when there is none."""
    # Two paths that name one file name (~/a/lib.bib:5, ~/b/lib.bib:5) are one source now: kept once.
    sources = tuple(dict.fromkeys(replace(s, file=_stored_label(s.file, root)) for s in work.sources))
    return work if sources == work.sources else replace(work, sources=sources)


def _stored_label(file: str, root: Path) -> str:
    windows = PureWindowsPath(file)
    if windows.drive or file.startswith("\\\\"):  # C:\Users\ann\lib.bib, \\server\share\lib.bib
        return windows.name
    posix = PurePosixPath(file)
    if posix.is_absolute():
        try:
            return posix.relative_to(PurePosixPath(root.as_posix())).as_posix()
        except ValueError:
            return posix.name
    return posix.name if file.startswith("~") or ".." in posix.parts else file
