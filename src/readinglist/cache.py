"""The generator's one cache: results kept from one generate to the next, in one file, under
keys derived from the inputs they were made from.

``Store.cached(kind, make, *inputs)`` returns ``make(*inputs)``, or the result the last generate
kept for the same kind under the same key. The key is :func:`key_of` the inputs actually
passed: a path stands for its bytes, a frozen record for its fields, anything else for its
repr, and the code's own digest is in every key. So a function given a record of exactly what
it reads (``site/assemble.EnrichInputs``) cannot be served a result of other inputs; a setting
added to the record is in the key without anyone writing it there.

Each kind holds one result, the last made (a kind is one step of the generate: the library, the
per-work results, the rendered files' memo). All of them live in ``docs/.readinglist-cache.pickle``:
a magic line, a JSON line indexing the results (``[kind, key, SHA-256, length]`` each), then
each result pickled, one after the other. A result is checked against its digest and unpickled
only when asked for, with the collector paused; a result not asked for is written back as the
bytes it was read as, unread and uncopied. The file is a shortcut, never trusted: a file whose
index or length does not hold, or a key, digest or type that does not match, is a miss, and the
result is made again. It is written atomically (``readinglist.writer``) by
the generate that holds the build lock, so a killed or concurrent build leaves the last
complete file. Unpickling runs no code a person could not already run: docs/conf.py is Python too.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from .memory import collector_paused
from .store import storefile
from .writer import write_bytes_if_changed

T = TypeVar("T")
Entry = tuple[str, str, bytes | memoryview]  # a result's key, the SHA-256 of its pickled bytes, those bytes
FILE = ".readinglist-cache.pickle"  # relative to docs/
MAGIC = b"readinglist-cache 2\n"  # the format; a new one makes every older file a miss
PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the tool's own files: a new version may enrich or render differently."""
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.rglob("*")):
        if source.suffix in {".py", ".j2", ".toml", ".csl"}:  # .csl: the Cite menu's ACL style
            digest.update(source.read_bytes())
    return digest.hexdigest()


def read_input(path: Path) -> bytes:
    """The bytes of an input, ``-`` if it does not exist (the stage that reads it says if that is wrong)."""
    # A regular file of bounded size only (a FIFO refs.bib blocked generate forever), one line otherwise.
    opened = storefile.open_store(path)
    if opened is None:
        return b"-"
    opened.close()
    return opened.data


def key_of(*inputs: object) -> str:
    """A digest of ``inputs`` and the code: a path by its bytes, a frozen record by its fields."""
    digest = hashlib.sha256(code_digest().encode())
    for part in inputs:
        _feed(digest, part)
    return digest.hexdigest()


def _feed(digest: Any, value: object) -> None:
    if isinstance(value, Path):
        digest.update(b"path\0" + hashlib.sha256(read_input(value)).digest())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(f"record {type(value).__qualname__}\0".encode())
        for field in dataclasses.fields(value):
            digest.update(f"{field.name}\0".encode())
            _feed(digest, getattr(value, field.name))
    else:
        digest.update(repr(value).encode("utf-8", "surrogatepass") + b"\0")


class Store:
    """The cache file of one docs/ folder: read once, written back once (:meth:`save`)."""

    def __init__(self, path: Path, entries: dict[str, Entry]) -> None:
        self.path, self.entries, self.read = path, entries, dict(entries)

    @classmethod
    def open(cls, docs: Path) -> Store:
        return cls(docs / FILE, _entries(docs / FILE))

    def get(self, kind: str, key: str, expected: type[T]) -> T | None:
        """The result kept for ``kind`` under ``key`` if it is an ``expected``, else None."""
        found = self.entries.get(kind)
        if found is None or found[0] != key or hashlib.sha256(found[2]).hexdigest() != found[1]:
            return None  # another key, or bytes altered or torn (not flushed to disk: see save)
        try:
            with collector_paused():
                value = pickle.loads(found[2])
        except Exception:  # a file that passed its digest but was made by other code: made again, never fatal
            return None
        return value if isinstance(value, expected) else None

    def put(self, kind: str, key: str, value: object) -> None:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        self.entries[kind] = (key, hashlib.sha256(data).hexdigest(), data)

    def drop(self, kind: str) -> None:
        self.entries.pop(kind, None)

    def cached(self, kind: str, expected: type[T], make: Callable[..., T], *inputs: object) -> tuple[T, str, bool]:
        """``make(*inputs)`` or the kept result: (it, its key, whether it was made)."""
        key = key_of(kind, *inputs)
        found = self.get(kind, key, expected)
        if found is not None:
            return found, key, False
        made = make(*inputs)
        self.put(kind, key, made)
        return made, key, True

    def save(self) -> None:
        """Write the file if a result changed; not flushed to disk: a torn file fails its digest."""
        if self.entries == self.read:
            return
        index = [[kind, key, sha, len(data)] for kind, (key, sha, data) in self.entries.items()]
        parts = [MAGIC, json.dumps(index).encode() + b"\n", *(data for _, _, data in self.entries.values())]
        # Not compared with the file first: a result changed (12 MB read for nothing at 1,000 works).
        write_bytes_if_changed(self.path, b"".join(parts), durable=False, compare=False)
        self.read = dict(self.entries)


def _entries(path: Path) -> dict[str, Entry]:
    """Each result's key, digest and bytes, as slices of the file read once (not copied)."""
    try:
        data = memoryview(path.read_bytes())
    except OSError:
        return {}
    end = bytes(data[len(MAGIC) : len(MAGIC) + 65536]).find(b"\n")  # the index: a line of JSON
    if bytes(data[: len(MAGIC)]) != MAGIC or end < 0:
        return {}  # another format, or no index
    try:
        index = json.loads(bytes(data[len(MAGIC) : len(MAGIC) + end]))
    except ValueError:
        return {}
    at, found = len(MAGIC) + end + 1, dict[str, Entry]()
    for row in index if isinstance(index, list) else [None]:
        if not _row(row):
            return {}
        kind, key, sha, size = row
        found[kind] = (key, sha, data[at : at + size])
        at += size
    return found if at == len(data) else {}  # a truncated or lengthened file: nothing trusted


def _row(row: object) -> TypeGuard[list[Any]]:
    if not isinstance(row, list) or len(row) != 4:
        return False
    return all(isinstance(v, t) for v, t in zip(row, (str, str, str, int), strict=True)) and row[3] >= 0
