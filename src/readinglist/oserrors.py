"""The OS's refusals a user can cause (a full disk, a read-only file system) as one-line errors.

A failed ``write`` (not ``open``) names no file: the caller then names the place it was writing
into (the project for a command, the site for Sphinx).
"""

from __future__ import annotations

import errno
from pathlib import Path

from .errors import Code, ReadingListError

FULL = frozenset({errno.ENOSPC, errno.EDQUOT})  # no space left, or the user's quota used up
REFUSED = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


def os_error(exc: OSError, where: Path) -> ReadingListError | None:
    """The one-line error for a full disk or a refused write; None for any other OS error.

    A refusal that names its file (``open`` of an unreadable note) is left to the caller's own
    wording, except a read-only file system, whose fix is the same wherever it is met."""
    place = exc.filename if exc.filename is not None else where
    if exc.errno in FULL:
        return ReadingListError("no space left on the device", place, code=Code.DISK_FULL)
    if exc.errno == errno.EROFS or (exc.errno in REFUSED and exc.filename is None):
        return ReadingListError(f"cannot write: {exc.strerror or exc}", place, code=Code.UNWRITABLE)
    return None
