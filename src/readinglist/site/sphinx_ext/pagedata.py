"""A paper page's related section, filled in from its data file when the page is written.

One new paper changes the related lists and graphs of dozens of other papers (the pages that
now list it, and every page whose graph shows two papers whose link changed). With the lists
in their Markdown, Sphinx would read all those pages again, and reading a page costs about
twice as much as writing it. So the generator writes a paper page's
versions, related papers and graph into a data file of its own (``related/<slug>.json``, in a
folder Sphinx does not search for sources; ``render/paper.related_data``), and the page's
``{readinglist-links}`` and ``{readinglist-graph}`` blocks name a key of that file (``:data:
related``) instead of holding the items:

- reading a page records the data file it shows (``env.readinglist_data_pages``);
- after reading (``env-updated``) each page whose data file changed (its size or modification
  time) since the page was last written is handed back to Sphinx to be written again, not read
  again; a page read again is written anyway, with the file as it is now;
- ``linklist.resolve`` and ``graphnode.resolve`` take the items from the file (:func:`value`)
  as the page is written, checked as the items of a block are.

As in liststatus.py, what each page was written with is kept in the environment
(``pagetables.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ...render.registry import PAPERS, data_name
from ...writer import stamp
from .pagetables import changed_since_written, keep_per_page, table
from .state import state
from .warnings_ import Warn

PAGES = "readinglist_data_pages"  # on the environment: docname -> its data file, relative to the sources
WRITTEN = "readinglist_data_written"  # on the environment: docname -> the file's (size, mtime) it was written with


def shows(env: BuildEnvironment) -> str:
    """The page being read shows items of its data file (called by the directives); its name."""
    name = data_name(env.docname.removeprefix(f"{PAPERS}/"))
    table(env, PAGES)[env.docname] = name
    return name


def value(app: Sphinx, node: nodes.Element, key: str) -> Any:
    """The data file's ``key`` for the page of ``node`` (read once a build); None, with a
    ``bad-page-data`` warning, if the file is missing, is not the generator's JSON or lacks it."""
    name = node["data_file"]
    files = state(app).page_data
    if name not in files:
        try:
            found = json.loads((Path(app.srcdir) / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            found = exc
        files[name] = found
    data = files[name]
    if data is None:  # unreadable, and said so at the page's first block
        return None
    if not isinstance(data, dict) or key not in data:
        why = f"{type(data).__name__}: {data}" if isinstance(data, Exception) else f"no {key!r} in it"
        Warn.BAD_PAGE_DATA.log("the page's data file %s: %s (run readinglist generate)", name, why, location=node)
        if not isinstance(data, dict):
            files[name] = None
        return None
    return data[key]


def _write_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The pages (read or not) whose data file changed since they were written: written again."""
    state(app).page_data = {}  # this build's files
    pages: dict[str, str] = table(env, PAGES)
    return changed_since_written(env, WRITTEN, {doc: stamp(Path(app.srcdir) / name) for doc, name in pages.items()})


def setup(app: Sphinx) -> None:
    keep_per_page(app, PAGES)
    app.connect("env-updated", _write_changed)
