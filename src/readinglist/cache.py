"""The generator's one cache: results kept from one generate to the next, in one file, under
keys derived from the inputs they were made from.

``Store.cached(kind, make, *inputs)`` returns ``make(*inputs)``, or the result the last generate
kept for the same kind under the same key. The key is :func:`key_of` the inputs actually
passed: a path stands for its bytes, a frozen record for its fields, anything else for its
repr, and the code's own digest is in every key. So a function given a record of exactly what
it reads (``site/assemble.EnrichInputs``) cannot be served a result of other inputs; a setting
added to the record is in the key without anyone writing it there.

Each kind holds one result, the last made (a kind is one step of the generate: the library, the
per-work results, the rendered files' memo). All of them live in the generator's one state file,
``docs/.readinglist-state``: a magic line; a JSON line of the state the generator trusts
(:attr:`Store.header`: the files it owns, ``site/manifest.py``, and the stamp of the inputs it last
generated from, ``site/changes.py``); a JSON line indexing the results (``[kind, key, SHA-256,
length]`` each); then each result pickled, one after the other.

The two parts are trusted differently. The header is kept as it was read and checked by its
readers: a file whose header line is unreadable has ``header`` None (``site/manifest.py`` makes
that an error, never "owns nothing"). The results are a shortcut, never trusted: an index or
length that does not hold, or a key, digest or type that does not match, is a miss, and the
result is made again. The header is read on its own (a no-op generate reads nothing else); the
results are read when first asked for. A result is checked against its digest and unpickled
only when asked for, with the collector paused; a result not asked for, or every result when only the header changed,
is written back as the bytes it was read as, unread and uncopied. The file is written atomically
and flushed to disk (``readinglist.writer``: the header is trusted) by the generate that holds
the build lock, so a killed or concurrent build leaves the last complete file. Unpickling runs no
code a person could not already run: docs/conf.py is Python too.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import pickle
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from .errors import Code, ReadingListError
from .memory import allocating
from .oserrors import FULL
from .store import storefile
from .writer import write_bytes_if_changed

T = TypeVar("T")
Entry = tuple[str, str, bytes | memoryview]  # a result's key, the SHA-256 of its pickled bytes, those bytes
Header = dict[str, Any]  # the trusted part: JSON of the files owned and the inputs' stamp
FILE = ".readinglist-state"  # relative to docs/: the generator's one state file
MAGIC = b"readinglist-state 1\n"  # the format; another one is an unreadable header
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
    """The state file of one docs/ folder: read once, written back once per change (:meth:`save`).

    ``header``: the trusted part ({} when there is no file, None when its header is unreadable).
    """

    def __init__(self, path: Path, header: Header | None, line: bytes = b"") -> None:
        self.path, self.header, self.line = path, header, line  # line: the header as read
        self.header_read = copy.deepcopy(header)  # a caller may change a list in place
        self._entries: dict[str, Entry] | None = None if line else {}
        self.read: dict[str, Entry] = {}

    @classmethod
    def open(cls, docs: Path) -> Store:
        """The header only: the results are read when first asked for (a no-op generate never does)."""
        header, line = _header(docs / FILE)
        return cls(docs / FILE, header, line)

    @property
    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            self._entries = _entries(self.path, self.line)
            self.read = dict(self._entries)
        return self._entries

    def get(self, kind: str, key: str, expected: type[T]) -> T | None:
        """The result kept for ``kind`` under ``key`` if it is an ``expected``, else None."""
        found = self.entries.get(kind)
        if found is None or found[0] != key or hashlib.sha256(found[2]).hexdigest() != found[1]:
            return None  # another key, or bytes altered
        try:
            with allocating():  # the loaded objects go to the oldest generation, not walked by the next collections
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
        """Write the file if a result or the header changed (an unreadable header is never
        written over: its reader refuses to go on)."""
        unchanged = self._entries is None or self._entries == self.read  # results never read are unchanged
        if self.header is None or (unchanged and self.header == self.header_read):
            return
        index = [[kind, key, sha, len(data)] for kind, (key, sha, data) in self.entries.items()]
        lines = [json.dumps(part).encode() + b"\n" for part in (self.header, index)]
        parts = [MAGIC, *lines, *(data for _, _, data in self.entries.values())]
        try:  # not compared with the file first: something changed (12 MB read for nothing at 1,000 works)
            write_bytes_if_changed(self.path, b"".join(parts), durable=True, compare=False)
        except OSError as exc:  # a read-only docs/ folder, a full disk: the error names the file, not a temporary
            raise _unwritten(exc, self.path) from None
        self.read, self.header_read = dict(self.entries), copy.deepcopy(self.header)
        self.line = lines[0]


def _unwritten(exc: OSError, path: Path) -> ReadingListError:
    if exc.errno in FULL:
        return ReadingListError("no space left on the device", path, code=Code.DISK_FULL)
    return ReadingListError(f"cannot write: {exc.strerror or exc}", path, code=Code.UNWRITABLE)


def _header(path: Path) -> tuple[Header | None, bytes]:
    """The header ({} with no file, None if unreadable) and its line as read."""
    try:
        with path.open("rb") as file:
            magic, line = file.read(len(MAGIC)), file.readline()
    except FileNotFoundError:
        return {}, b""
    except OSError:
        return None, b""
    if magic != MAGIC or not line.endswith(b"\n"):
        return None, b""  # another format, or no whole header
    try:
        header = json.loads(line)
    except ValueError:
        return None, b""
    return (header, line) if isinstance(header, dict) else (None, b"")


def _entries(path: Path, line: bytes) -> dict[str, Entry]:
    """Each result's key, digest and bytes, as slices of the file read once (not copied)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    start = len(MAGIC) + len(line)
    end = raw.find(b"\n", start)  # the index: a line of JSON
    if not raw.startswith(MAGIC + line) or end < 0:
        return {}  # written over since its header was read (never under the build lock), or no index
    try:
        index = json.loads(raw[start:end])
    except ValueError:
        return {}
    data = memoryview(raw)
    at, found = end + 1, dict[str, Entry]()
    for row in index if isinstance(index, list) else [None]:
        if not _row(row):
            return {}
        kind, key, sha, size = row
        found[kind] = (key, sha, data[at : at + size])
        at += size
    return found if at == len(data) else {}  # a truncated or lengthened file: no result trusted


def _row(row: object) -> TypeGuard[list[Any]]:
    if not isinstance(row, list) or len(row) != 4:
        return False
    return all(isinstance(v, t) for v, t in zip(row, (str, str, str, int), strict=True)) and row[3] >= 0
