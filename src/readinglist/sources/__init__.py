"""Source dumps: detect the shape from the content and parse it into raw records.

One module per input shape, as papis does with its importers.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from ..errors import ReadingListError
from ..model import RawRecord
from . import arxiv_listing, author_pairs
from .text import read_lines

SHAPES: tuple[ModuleType, ...] = (arxiv_listing, author_pairs)


def read_dump(path: Path, label: str | None = None) -> list[RawRecord]:
    """Parse one profile dump; ``label`` (default: the path) is how records cite their file."""
    label = label or str(path)
    lines = read_lines(path, label)
    for shape in SHAPES:
        if shape.looks_like(lines):
            records: list[RawRecord] = shape.parse(lines, label)
            return records
    raise ReadingListError(
        "unrecognized dump: expected an arXiv listing ('arXiv<YEAR>' lines) "
        "or an owner line followed by author/abstract pairs",
        label,
        lines[0].number,
    )


__all__ = ["read_dump"]
