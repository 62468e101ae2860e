"""No file outside the project is read into the site: a page or an included file that is a link out of it.

Git stores links, so a pull request can add ``docs/leak.md -> /etc/passwd`` (or a folder that
links out) and its preview build would publish the file. The generator refuses notes that are
such links (``render/notes.py``); here Sphinx refuses the pages it found in docs/ before it reads
any (``env-before-read-docs``), and any file an ``include`` directive read (``include-read``, before
its text is parsed). Both are errors, one line under ``readinglist build`` (``command.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ...errors import ReadingListError
from ...render.notes import outside, within
from .settings import root


def _refuse_outside(app: Sphinx, path: Path) -> None:
    try:
        within(path, root(app))
    except ReadingListError as exc:
        raise ExtensionError(str(exc)) from exc


def _pages_inside(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """Every page Sphinx found, not only those it reads now: a link's target may change, not the link."""
    found = outside((Path(env.doc2path(docname)) for docname in sorted(env.found_docs)), root(app))
    if found is not None:
        _refuse_outside(app, found)


def _include_inside(app: Sphinx, relative_path: Path, parent_docname: str, content: list[str]) -> None:
    path = Path(app.srcdir) / relative_path
    try:
        within(path, root(app))
    except ReadingListError as exc:
        content[0] = ""  # never parsed, whatever happens to the error
        raise ExtensionError(str(exc)) from exc


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", _pages_inside, priority=100)
    app.connect("include-read", _include_inside)
