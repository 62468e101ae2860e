"""Atomic, change-only file writes: Sphinx rebuilds a page whenever its mtime moves.

Every temporary file is named ``.<name>.<random>.tmp`` beside its target (:data:`TEMP_GLOB`),
so whatever a kill leaves behind can be found and removed by the next run.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import Code, ReadingListError

TEMP_SUFFIX = ".tmp"


def stamp(path: Path) -> tuple[int, int]:
    """A file's size and modification time in nanoseconds, (-1, -1) if it cannot be seen: what
    the writes below change, and what the up-to-date checks compare."""
    try:
        info = path.stat()
    except OSError:
        return (-1, -1)
    return info.st_size, info.st_mtime_ns


def write_if_changed(
    path: Path, text: str, durable: bool = True, check: Callable[[], object] | None = None, *, keep_owner: bool = False
) -> bool:
    """Write ``text`` to ``path`` atomically unless it already holds exactly that; True if written.

    ``durable`` also flushes the bytes to disk before the rename: needed for refs.bib, not for
    generated pages that the next build rewrites anyway (26,000 fsyncs cost 10 s at 10,000 papers).
    The file keeps its mode; a new file gets the umask's, as ``open()`` would give it (mkstemp's
    0600 would hide the site from a web server running as another user).
    ``check`` runs just before the rename, when the new bytes are already on disk, so the window
    in which a change to ``path`` goes unnoticed is as small as it can be; it raises to cancel the
    write (the temporary file is removed, ``path`` is untouched).
    ``keep_owner`` gives the new file the old one's owner and group (a rename would make it the
    writer's); if that is not permitted, nothing is written and the error names the owner.
    """
    return write_bytes_if_changed(path, text.encode("utf-8"), durable, check, keep_owner=keep_owner)


def write_bytes_if_changed(
    path: Path,
    data: bytes,
    durable: bool = True,
    check: Callable[[], object] | None = None,
    *,
    keep_owner: bool = False,
    compare: bool = True,
) -> bool:
    """:func:`write_if_changed` for bytes (the generator's cache is a pickle, not text);
    ``compare=False``: the caller knows the bytes changed, so the file is not read first."""
    # A link's target is written, not the link replaced by a file: refs.bib may be a link into
    # a synced folder, whose copy must be the one that changes.
    path = path.resolve() if path.is_symlink() else path
    try:
        if compare and path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if keep_owner:
                _chown_like(handle.fileno(), path)
            os.fchmod(handle.fileno(), mode)  # after the chown, which may clear set-id bits
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if check is not None:
            check()
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def _chown_like(fd: int, path: Path) -> None:
    """Give the file of ``fd`` the owner and group of ``path`` (if it exists)."""
    try:
        want = os.stat(path)
    except FileNotFoundError:
        return
    have = os.fstat(fd)
    if (have.st_uid, have.st_gid) == (want.st_uid, want.st_gid):
        return
    try:
        os.fchown(fd, want.st_uid, want.st_gid)
    except PermissionError:
        raise ReadingListError(
            f"is owned by {owner_name(want.st_uid, want.st_gid)}, and a new copy written by "
            f"{user_name(os.geteuid())} could not keep that owner; nothing written",
            path,
            code=Code.UNWRITABLE,
        ) from None


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def owner_name(uid: int, gid: int) -> str:
    """``alice (group team)``, as a message names a file's owner."""
    try:
        group = grp.getgrgid(gid).gr_name
    except KeyError:
        group = str(gid)
    return f"{user_name(uid)} (group {group})"


def remove_temp_files(folder: Path, names: set[str] | None = None) -> int:
    """Delete the temporary files interrupted writes left in ``folder`` (of ``names`` only, if given).

    Call it only while holding the lock that keeps other writers of that folder away: a live
    write's temporary file looks just like a dead one's.
    """
    removed = 0
    for tmp in folder.glob(f".*{TEMP_SUFFIX}") if folder.is_dir() else ():
        target = tmp.name[1:].rsplit(".", 2)[0]
        if (names is None or target in names) and tmp.is_file():
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~umask()


def umask() -> int:
    """The process's umask."""
    # os.umask can only be read by setting it; set it straight back (a single-threaded CLI).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
