"""Reading the user's notes (``docs/notes/<key>.md``): front matter and where the body starts.

The front matter's rules (no aliases, a schema for the keys the site reads) are in ``frontmatter.py``.
A note, or the notes folder, that is a link out of the project is refused unread: git stores
links, so a pull request's ``notes/x.md -> /etc/passwd`` would otherwise publish that file on
its preview site. A link within the project is a note like any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..chars import strip_unsafe
from ..errors import Code, ReadingListError, not_utf8
from ..model import Note
from ..sources.text import read_regular
from . import frontmatter


def load_notes(folder: Path, root: Path | None = None) -> dict[str, Note]:
    """Notes by citation key (the file stem), each within the project ``root`` if given (the
    generator gives it; a test reading a fixture's notes need not). Read only: notes are never
    written here."""
    if not folder.is_dir():
        return {}
    if root is not None:
        within(folder, root)
    return {path.stem: read_note(path, root) for path in sorted(folder.glob("*.md"))}


def within(path: Path, root: Path) -> None:
    """Refuse ``path`` if what it names (through any link) is outside the project ``root``."""
    if outside([path], root) is not None:
        message = "is a link out of the project; only files inside it are read (copy the file in)"
        raise ReadingListError(message, path, code=Code.OUTSIDE_PROJECT)


def outside(paths: Iterable[Path], root: Path) -> Path | None:
    """The first of ``paths`` whose target (through any link) is outside ``root``, or None.

    Each folder is resolved once, and a file only when it is a link itself: a file that is no
    link, in a folder whose target is inside, is inside. Resolving every page would walk every
    component of every path, on each build, for a site's thousands of pages."""
    real_root = root.resolve()
    folders: dict[Path, bool] = {}
    for path in paths:
        inside = folders.get(path.parent)
        if inside is None:
            inside = folders[path.parent] = path.parent.resolve().is_relative_to(real_root)
        if (not inside or path.is_symlink()) and not path.resolve().is_relative_to(real_root):
            return path
    return None


def read_note(path: Path, root: Path | None = None) -> Note:
    if root is not None:
        within(path, root)
    data = read_regular(path, path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, path, "the notes file") from None
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return Note(path, 0, {}, bool(text.strip()))
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() in ("---", "...")), None)
    if end is None:
        raise ReadingListError("front matter opened with '---' is never closed", path, 1, code=Code.BAD_FRONT_MATTER)
    # Characters the pipeline never keeps go before YAML sees them (PyYAML refuses some).
    meta = frontmatter.parse(strip_unsafe("\n".join(lines[1:end])), path, 2)
    return Note(path, end + 1, meta, any(line.strip() for line in lines[end + 1 :]))
