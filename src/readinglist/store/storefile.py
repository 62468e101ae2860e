"""Opening refs.bib: a regular file only, of a bounded size, its descriptor kept while it is used.

``O_NONBLOCK`` makes the open of a FIFO return at once (a plain open waits for a writer forever);
the ``fstat`` of the opened descriptor, not of the name, decides what was opened. The descriptor
stays open while the import merges, so the import can see, after its rename, whether the file it
replaced was written meanwhile (:mod:`.importer`).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import Code, ReadingListError
from ..lock import Snapshot
from ..sources.text import MAX_BYTES, kind, too_large


@dataclass
class Opened:
    """refs.bib as read: its descriptor, its bytes, and what ``fstat`` said before the read."""

    path: Path
    fd: int
    data: bytes
    info: os.stat_result

    @property
    def snapshot(self) -> Snapshot:
        return Snapshot(len(self.data), self.info.st_mtime_ns, hashlib.sha256(self.data).hexdigest())

    def now(self) -> bytes:
        """The bytes the opened file holds now (it may have been written since, or replaced by name)."""
        return _read_all(self.fd, self.path)

    def close(self) -> None:
        os.close(self.fd)


def open_store(path: Path) -> Opened | None:
    """Open and read ``path``; None if it does not exist. Anything else that fails is one line."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise unreadable(path, exc) from None
    try:
        info = os.fstat(fd)
        _refuse_special(path, info)
        return Opened(path, fd, _read_all(fd, path), info)
    except BaseException:
        os.close(fd)
        raise


def snapshot_of(path: Path) -> tuple[int, int, Snapshot] | None:
    """The file's (device, inode) and snapshot now; None if it does not exist."""
    opened = open_store(path)
    if opened is None:
        return None
    try:
        return opened.info.st_dev, opened.info.st_ino, opened.snapshot
    finally:
        opened.close()


def unreadable(path: Path, exc: OSError) -> ReadingListError:
    """The one-line error for a refs.bib that exists but cannot be read (a folder, no permission)."""
    return ReadingListError(f"cannot read: {exc.strerror or exc}", path, code=Code.UNREADABLE)


def _refuse_special(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise ReadingListError("cannot read: Is a directory", path, code=Code.UNREADABLE)
    if not stat.S_ISREG(info.st_mode):
        raise ReadingListError(f"not a regular file ({kind(info.st_mode)}): cannot read it", path, code=Code.UNREADABLE)
    if info.st_size > MAX_BYTES:
        raise too_large(path, info.st_size)


def _read_all(fd: int, path: Path) -> bytes:
    """Every byte from the start; past :data:`MAX_BYTES` (the file grew after the fstat) is too large."""
    parts: list[bytes] = []
    total = 0
    while total <= MAX_BYTES:
        try:
            part = os.pread(fd, min(MAX_BYTES + 1 - total, 1 << 20), total)
        except OSError as exc:
            raise unreadable(path, exc) from None
        if not part:
            break
        parts.append(part)
        total += len(part)
    if total > MAX_BYTES:
        raise too_large(path, total)
    return b"".join(parts)
