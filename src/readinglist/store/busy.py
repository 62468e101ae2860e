"""Who else is writing refs.bib right now: a shell redirect, an appender, an editor saving in place.

Such a writer takes no lock. While it holds the file open, what a reader sees may be half of it
(a redirect truncates first and writes later), and a rename over the file would cut its writes off
(its descriptor points at the replaced file). So readers wait for it to close the file.

Linux only: every process's open files are listed under ``/proc/PID/fd``, each with its open
flags in ``/proc/PID/fdinfo/N``. Elsewhere, and for processes of other users that the system
does not show, :func:`writers` finds nothing, and only the snapshot checks of the import remain.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import Code, ReadingListError

WAIT = 10.0  # seconds to wait for a writer to close the file (a save takes far less)
POLL = 0.05  # seconds between two looks
QUIET = 0.25  # seconds an empty file must stay untouched before it is taken as really empty (init makes one)
PROC = Path("/proc")


@dataclass(frozen=True)
class Writer:
    """A process that holds the file open for writing."""

    pid: int
    command: str

    def __str__(self) -> str:
        return f"PID {self.pid} ({self.command})"


@dataclass(frozen=True)
class Waited:
    """What :func:`wait_closed` saw: whether it had to wait, and who still writes after the wait."""

    waited: bool
    held: tuple[Writer, ...]


def writers(path: Path) -> list[Writer]:
    """The other processes that hold ``path`` (the file it names, links followed) open for writing."""
    try:
        info = os.stat(path)
        pids = [int(name) for name in os.listdir(PROC) if name.isdigit()]
    except OSError:
        return []  # no such file, or no /proc (not Linux)
    me = os.getpid()
    return [Writer(pid, _command(pid)) for pid in pids if pid != me and _writes(pid, info.st_dev, info.st_ino)]


def _writes(pid: int, dev: int, ino: int) -> bool:
    """True if process ``pid`` has a descriptor open for writing on the file (dev, ino)."""
    folder = PROC / str(pid)
    try:
        fds = os.listdir(folder / "fd")
    except OSError:
        return False  # gone, or another user's process the system does not show
    for fd in fds:
        try:
            target = os.stat(folder / "fd" / fd)
        except OSError:
            continue
        if (target.st_dev, target.st_ino) == (dev, ino) and _for_writing(folder / "fdinfo" / fd):
            return True
    return False


def _for_writing(fdinfo: Path) -> bool:
    try:
        text = fdinfo.read_text(encoding="ascii")
    except OSError:
        return False
    flags = next((int(line.split()[1], 8) for line in text.splitlines() if line.startswith("flags:")), 0)
    return flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)


def _command(pid: int) -> str:
    try:
        return (PROC / str(pid) / "comm").read_text(encoding="utf-8", errors="replace").strip() or "?"
    except OSError:
        return "?"


def wait_closed(path: Path, *, name: str | None = None) -> Waited:
    """Wait until no other process writes ``path``, up to :data:`WAIT` seconds; say so once.

    ``name``: how the notice names the file (``path`` may be ``/proc/self/fd/N``, a file replaced).
    """
    held = writers(path)
    if not held:
        return Waited(False, ())
    print(f"readinglist: waiting for {held[0]} to finish writing {name or path.name}", file=sys.stderr)
    deadline = time.monotonic() + WAIT
    while held and time.monotonic() < deadline:
        time.sleep(POLL)
        held = writers(path)
    return Waited(True, tuple(held))


def settle(path: Path) -> None:
    """Wait while ``path`` is empty and was changed within :data:`QUIET` seconds (up to :data:`WAIT`).

    An empty file that was just written is most likely truncated by a save that has not written
    its bytes yet: one :func:`writers` cannot see (another user's, or not on Linux).
    """
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            info = os.stat(path)
        except OSError:
            return
        if info.st_size or time.time() - info.st_mtime >= QUIET:
            return
        time.sleep(POLL)


def busy_error(path: Path, held: tuple[Writer, ...]) -> ReadingListError:
    """The one-line refusal when a writer still holds ``path`` after the wait."""
    return ReadingListError(
        f"is open for writing by {held[0]}; nothing written, run the import again when it is closed",
        path,
        code=Code.STORE_BUSY,
    )
