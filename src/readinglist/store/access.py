"""May this import replace refs.bib? Asked before the merge, so a refusal costs nothing.

The import replaces refs.bib by renaming a new file over it, which needs only the folder's write
bit: without these checks a read-only refs.bib was replaced anyway, and a shared ``alice:team``
file became the importer's own, locking its owner out.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import Code, ReadingListError
from ..writer import owner_name, user_name


def check_replaceable(path: Path) -> None:
    """Refuse, in one line, a refs.bib we may not write, or whose owner a new copy could not keep."""
    try:
        info = os.stat(path)
    except OSError:
        return  # no file yet (or one the read will report)
    me = os.geteuid()
    # Root may write anything: a file without any write bit is the sign it is meant read-only.
    writable = bool(info.st_mode & 0o222) if me == 0 else os.access(path, os.W_OK)
    if not writable:
        raise ReadingListError(
            f"is read-only (mode {stat.S_IMODE(info.st_mode):04o}); nothing written, make it writable to import",
            path,
            code=Code.UNWRITABLE,
        )
    if me not in (0, info.st_uid):  # only root can give the new copy to its owner
        raise ReadingListError(
            f"is owned by {owner_name(info.st_uid, info.st_gid)}; an import by {user_name(me)} would make "
            f"it {user_name(me)}'s; nothing written, run the import as its owner",
            path,
            code=Code.UNWRITABLE,
        )
