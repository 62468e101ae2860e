"""Advisory locks: one writer of refs.bib at a time, one build of a project at a time.

filelock takes an OS lock (``flock`` on POSIX) on a small sidecar file. The OS drops the lock
when its holder dies, so a killed import or build never leaves a stale lock behind; the sidecar
file itself is kept (deleting a lock file while another process waits on it is a known race).

A person's editor takes no lock, so a writer of refs.bib also checks, just before it replaces
the file, that the bytes it read are still there (:class:`Snapshot`, taken by
``store.storefile``) and that no other process holds it open for writing (``store.busy``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from .errors import Code, ReadingListError

WAIT_NOTICE = 0.5  # seconds to wait quietly before saying what the command is waiting for
DEFAULT_TIMEOUT = 600.0  # a build of 10,000 papers takes about five minutes


def lock_path(path: Path) -> Path:
    """The sidecar lock of ``path``: ``.refs.bib.lock`` beside ``refs.bib``."""
    return path.parent / f".{path.name}.lock"


@contextmanager
def exclusive(path: Path, what: str, timeout: float = DEFAULT_TIMEOUT) -> Iterator[None]:
    """Hold the lock of ``path`` (created if needed); ``what`` names the holder in messages.

    Waits for another holder, saying so after a moment; gives up after ``timeout`` seconds
    with an error that names the lock file.
    """
    lock = FileLock(lock_path(path), preserve_lock_file=True)
    try:
        try:
            lock.acquire(timeout=WAIT_NOTICE)
        except Timeout:
            print(f"readinglist: waiting for another {what} to finish ({lock_path(path)})", file=sys.stderr)
            lock.acquire(timeout=max(timeout - WAIT_NOTICE, 0))
    except Timeout:
        raise ReadingListError(
            f"another {what} still holds the lock after {timeout:.0f} s", lock_path(path), code=Code.LOCK_HELD
        ) from None
    except OSError as exc:
        raise ReadingListError(
            f"cannot lock for the {what}: {exc.strerror}", lock_path(path), code=Code.UNWRITABLE
        ) from None
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class Snapshot:
    """What a file held when it was read: size, modification time and a hash of its bytes."""

    size: int
    mtime_ns: int
    digest: str
