"""The feeds in the site: copied to its ``feeds/`` folder, advertised by ``<link rel="alternate">``.

``render/feeds.py`` writes the feeds under docs/ with ``feeds/index.json``, which names the feeds
each page advertises ("*": the whole list's feed, on every page). The page's head gets one link
per feed, relative to the page, so the site works from any folder or address. The selection's
script and style (``static/readinglist-selection.*``) are added to every page here too.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from ...render.registry import FEED_INDEX, FEEDS
from ...writer import write_if_changed
from .state import state

SELECTION_JS = "readinglist-selection.js"
SELECTION_CSS = "readinglist-selection.css"


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _read_index)
    app.connect("html-page-context", _advertise)
    app.connect("build-finished", _copy_feeds)
    app.add_js_file(SELECTION_JS, loading_method="defer")
    app.add_css_file(SELECTION_CSS)


def _read_index(app: Sphinx) -> None:
    path = Path(app.srcdir) / FEED_INDEX
    try:  # read once per build
        state(app).feeds = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a site without generated feeds (a plain Sphinx project)
        state(app).feeds = {}


def links(index: dict[str, list[list[str]]], pagename: str) -> str:
    """The ``<link>`` tags of ``pagename``: the whole list's feed, then the page's own."""
    up = "../" * pagename.count("/")
    feeds = [*index.get("*", []), *index.get(pagename, [])]
    return "".join(
        f'\n<link rel="alternate" type="application/atom+xml" title="{escape(title)}" '
        f'href="{escape(up + FEEDS + "/" + name)}">'
        for title, name in feeds
    )


def _advertise(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    tags = links(state(app).feeds, pagename)
    if tags:
        context["metatags"] = context.get("metatags", "") + tags


def _copied(source: Path, target: Path) -> bool:
    """The copy is newer than its source and as long: it was made from these bytes (the generator
    writes a changed feed anew), so it need not be read (6,000 feeds at 10,000 papers)."""
    try:
        made, copy = source.stat(), target.stat()
    except FileNotFoundError:
        return False
    return copy.st_size == made.st_size and copy.st_mtime_ns > made.st_mtime_ns


def _copy_feeds(app: Sphinx, exception: BaseException | None) -> None:
    """The feed files into the site (stale ones go: the folder is the generator's)."""
    source = Path(app.srcdir) / FEEDS
    if exception is not None or app.builder.format != "html" or not source.is_dir():
        return
    target = Path(app.outdir) / FEEDS
    target.mkdir(exist_ok=True)
    names = {path.name for path in source.glob("*.xml")}
    for name in names:  # only changed bytes are written: a static host re-uploads what changed
        if not _copied(source / name, target / name):
            write_if_changed(target / name, (source / name).read_text(encoding="utf-8"))
    for stale in target.glob("*.xml"):
        if stale.name not in names:
            stale.unlink()
