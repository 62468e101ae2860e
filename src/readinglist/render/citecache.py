"""The Cite menu's formatted references, kept from one ``generate`` to the next.

pybtex's plain style takes about 2 ms an entry (its templates and LaTeX decoding), though an
import changes only a few entries. So each derived entry's plain text and Markdown are kept,
keyed by the entry itself: ``kept`` serves the last generate's and collects the ones used,
which the generator keeps in its cache (site/assemble.py, readinglist.cache) under a key of
:func:`versions` and the code. Only the entries a generate used are kept, so none pile up.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version

import pybtex


class Cache:
    """Active only inside ``kept``: a page rendered outside it (a test) is formatted afresh."""

    def __init__(self) -> None:
        self.active = False
        self.known: dict[str, list[str]] = {}
        self.used: dict[str, list[str]] = {}

    def get(self, key: str) -> list[str] | None:
        if not self.active:
            return None
        found = self.used.get(key) or self.known.get(key)
        if found is not None:
            self.used[key] = found
        return found

    def put(self, key: str, value: list[str]) -> None:
        if self.active:
            self.used[key] = value


CACHE = Cache()


@contextmanager
def kept(known: dict[str, list[str]]) -> Iterator[Cache]:
    """Serve references from ``known`` (the last generate's ``used``) and collect the ones used."""
    CACHE.active, CACHE.known, CACHE.used = True, known, {}
    try:
        yield CACHE
    finally:
        CACHE.active, CACHE.known, CACHE.used = False, {}, {}


def versions() -> tuple[str, str]:
    """What formats the references besides this package's code (in every cache key): a new
    pybtex or citeproc-py makes the kept references foreign."""
    return pybtex.__version__, version("citeproc-py")
