"""The site's search: Pagefind instead of Sphinx's own index (``site/search.py`` runs Pagefind).

Sphinx's searchindex.js (19 MB at 10,000 papers) would be dead weight, so the HTML builders
make none; the search page is the Pagefind one of ``site/templates/search.html``. The index is
marked stale before the first page of a build is written and made once the build has succeeded,
for the shards whose pages changed (``site/shards.py``). A deleted document's page is removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.errors import ExtensionError
from sphinx.util import logging

from ...compat import no_sphinx_search_index
from ...errors import ReadingListError
from .. import search
from .generation import unlock_build
from .state import state

logger = logging.getLogger(__name__)
SEARCH_BUILDERS = ("html", "dirhtml")  # not epub or singlehtml, whose format is html too


def _no_sphinx_index(app: Sphinx) -> None:
    if app.builder.name in SEARCH_BUILDERS:
        no_sphinx_search_index(app.builder)


def _search_page(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    if app.builder.name in SEARCH_BUILDERS:  # Sphinx writes search.html only with its own index
        yield "search", {}, "search.html"


# What the theme and the extensions load on every page but the search page never uses (issue 27:
# its load on a phone): code highlighting, sphinx-design's cards and tabs, copy buttons on code
# blocks, furo's styles for those extensions, the graph's styles, and the highlighting of a search
# term on the page opened from Sphinx's own results. 120 KB of the page's 600 KB, 9 requests.
SEARCH_PAGE_UNUSED = frozenset({
    "pygments.css", "sphinx-design.min.css", "copybutton.css", "furo-extensions.css", "readinglist-graph.css",
    "clipboard.min.js", "copybutton.js", "design-tabs.js", "sphinx_highlight.js",
})  # fmt: skip


def _lean_search_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """The search page without the files of :data:`SEARCH_PAGE_UNUSED` (new lists: the builder's
    own are every other page's)."""
    if templatename != "search.html" or app.builder.name not in SEARCH_BUILDERS:
        return
    for key in ("css_files", "script_files"):
        kept = [f for f in context.get(key, ()) if Path(str(getattr(f, "filename", ""))).name not in SEARCH_PAGE_UNUSED]
        context[key] = kept


def _start_count(app: Sphinx, env: Any, docnames: Any) -> None:
    state(app).written = 0  # per build: an app can build more than once


def _count_written(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    kept = state(app)
    if kept.written == 0 and app.builder.name in SEARCH_BUILDERS:  # before the first page is written
        search.mark_stale(Path(app.outdir))  # whether or not this build indexes (--no-search)
    kept.written += 1


def _remove_deleted(app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """Sphinx leaves the HTML of a deleted document behind, where search would still find it."""
    builder = app.builder
    if builder.name not in SEARCH_BUILDERS or not isinstance(builder, StandaloneHTMLBuilder):
        return []
    pages = [Path(builder.get_outfilename(name)) for name in removed]
    if any(page.is_file() for page in pages):
        search.mark_stale(Path(app.outdir))  # before the page goes: its shard no longer matches the index
    for page in pages:
        page.unlink(missing_ok=True)
    return []


def _index(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in SEARCH_BUILDERS or not app.config.readinglist_search:
        return
    site = Path(app.outdir)
    if not search.needed(site, state(app).written, Path(app.doctreedir)):
        search.merge_again(site, Path(app.doctreedir))  # an upgrade's ranking, though no page changed
        logger.info("[readinglist] search: no page changed, Pagefind index kept")
        return
    if app.config.readinglist_search_later:  # ``readinglist build`` indexes once Sphinx's memory is freed
        search.mark_stale(site)
        return
    try:
        search.index(site, Path(app.doctreedir))  # and removes the stale mark
    except ReadingListError as exc:  # an error, not a warning: a site without its index is broken
        unlock_build(app, exc)  # the handlers after this one do not run
        raise ExtensionError(str(exc)) from None
    logger.info("[readinglist] search: Pagefind index written to %s", site / search.BUNDLE)


def setup(app: Sphinx) -> None:
    app.add_config_value("readinglist_search", True, "", types=[bool])  # False: keep the last index
    app.add_config_value("readinglist_search_later", False, "", types=[bool])
    app.connect("builder-inited", _no_sphinx_index)
    app.connect("html-collect-pages", _search_page)
    app.connect("html-page-context", _lean_search_page)
    app.connect("env-get-outdated", _remove_deleted)
    app.connect("env-before-read-docs", _start_count)
    app.connect("doctree-resolved", _count_written)
    app.connect("build-finished", _index)
