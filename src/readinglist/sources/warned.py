"""A warning about an entry that was read: reported like a skip, but the entry is kept.

BibTeX itself warns and goes on for an undefined ``@string`` macro or an unknown entry type;
so does the import. A ``Warned`` rides in ``ReadResult.skipped`` with the skips (so every
reader, ``bounded`` and the importer pass it on unchanged) and the report tells them apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..model import Skip


@dataclass(frozen=True)
class Warned(Skip):
    """``file:line: key: reason`` of an entry that was imported all the same."""


def split(skips: Iterable[Skip]) -> tuple[tuple[Skip, ...], tuple[Skip, ...]]:
    """The entries skipped, and the warnings about entries kept."""
    skips = tuple(skips)
    return tuple(s for s in skips if not isinstance(s, Warned)), tuple(s for s in skips if isinstance(s, Warned))
