"""The Cite menu's formatted references, kept from one ``generate`` to the next.

pybtex's plain style takes about 2 ms an entry (its templates and LaTeX decoding): 20 s of
every generate at 10,000 papers, though an import changes only a few entries. So each
derived entry's plain text and Markdown go into ``docs/.readinglist-citations.json``, keyed
by the entry itself, under a stamp of pybtex's version and of ``cite.py``'s code. The
generator writes it as one of its files (the manifest's: atomic, only when changed), and
reads the previous one back. It is only a shortcut: a missing, unreadable or foreign file
is formatted again. Only the entries a generate used are written, so none pile up.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib.metadata import version
from importlib.resources import files
from pathlib import Path

import pybtex

FILE = ".readinglist-citations.json"  # relative to docs/, beside the manifest


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

    def text(self) -> str:
        """The file to write: the entries formatted or served since ``kept`` began."""
        return json.dumps({"stamp": _stamp(), "entries": self.used}, sort_keys=True, indent=0)


CACHE = Cache()


@contextmanager
def kept(previous: Path) -> Iterator[Cache]:
    """Serve references from ``previous`` (the last generate's file) and collect the ones used."""
    CACHE.active, CACHE.known, CACHE.used = True, _load(previous), {}
    try:
        yield CACHE
    finally:
        CACHE.active, CACHE.known, CACHE.used = False, {}, {}


@lru_cache(maxsize=1)
def _stamp() -> str:
    """A new pybtex or citeproc-py, or a change to how cite.py, export.py or the ACL style (the
    vendored CSL file) format, makes the kept references foreign."""
    here = files("readinglist")
    sources = [here / "render" / "cite.py", here / "render" / "export.py", here / "data" / "acl.csl"]
    code = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()[:16]
    return f"readinglist-citations pybtex {pybtex.__version__} citeproc-py {version('citeproc-py')} cite.py {code}"


def _load(path: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != _stamp() or not isinstance(data.get("entries"), dict):
        return {}
    return {k: v for k, v in data["entries"].items() if isinstance(v, list) and all(isinstance(s, str) for s in v)}
