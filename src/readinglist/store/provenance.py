"""The ``provenance`` field: where each record of a work came from, and why it was merged.

``file:line {kind} (owner) [why]`` for each source, joined by ``;``. The kind is left out for
author profiles, so every value written before kinds existed reads the same and stays byte for byte.
"""

from __future__ import annotations

import re

from ..model import SOURCE_KINDS, SourceRef

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
            kind = match["kind"] if match["kind"] in SOURCE_KINDS else "profile"
            refs.append(SourceRef(match["file"], int(match["line"]), match["owner"] or "", match["why"] or "", kind))
    return tuple(refs)
