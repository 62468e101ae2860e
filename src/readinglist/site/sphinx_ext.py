"""The Sphinx adapter: with ``linklist`` (its directive), the only module that imports Sphinx.

``setup()`` only registers. When a build starts, the generator brings docs/ up to date
(so a plain ``sphinx-build docs OUT``, as Read the Docs runs it, builds the whole list);
when an HTML build ends, ``records.json`` is copied to the site root and Pagefind indexes the
site for its search page. Generated pages link to each other with ``rl:`` URLs, resolved here.
"""

from __future__ import annotations

import gc
import posixpath
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pybtex.plugin
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.writers.html5 import HTML5Translator

from .. import __version__
from ..config import Config as SiteConfig
from ..config import load_config
from ..errors import ReadingListError
from ..latex import to_text
from ..render import links
from ..render.mathml import fallback, to_mathml
from ..writer import remove_temp_files, write_if_changed
from . import a11y, bibcache, biblinks, build, child, facets, feedlinks, graphnode, linklist, search
from .manifest import RECORDS

logger = logging.getLogger(__name__)
_written: WeakKeyDictionary[Sphinx, int] = WeakKeyDictionary()  # documents written by this build
_navigation: WeakKeyDictionary[Sphinx, dict[tuple[str, tuple[tuple[str, Any], ...]], Any]] = WeakKeyDictionary()


def _root(app: Sphinx) -> Path:
    return (Path(app.confdir) / str(app.config.readinglist_root)).resolve()


def _generate(app: Sphinx) -> None:
    if not app.config.readinglist_generate:  # ``readinglist build`` has just generated (and holds the lock)
        return
    from . import generate  # deferred: scikit-learn and friends take a second to import

    try:
        config = load_config(_root(app))
        _lock_build(app, config)
        remove_temp_files(Path(app.outdir), build.OUT_TEMPS)
        report = generate.run(config, allow_empty=app.config.readinglist_allow_empty)
    except (ReadingListError, OSError) as exc:
        _unlock_build(app, exc)
        message = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.filename else str(exc)
        raise ExtensionError(message) from None
    for line in report.lines():
        logger.info("[readinglist] %s", line)


# The build lock (see ``build.locked``), held from generating until the build has finished. Apps
# of one process share one hold: a test or sphinx-autobuild's second app never waits for the first.
_lock_holders: WeakKeyDictionary[Sphinx, Path] = WeakKeyDictionary()
_held: dict[Path, ExitStack] = {}


def _lock_build(app: Sphinx, config: SiteConfig) -> None:
    if config.docs_path not in _held:
        with ExitStack() as stack:
            stack.enter_context(build.locked(config))
            _held[config.docs_path] = stack.pop_all()
    _lock_holders[app] = config.docs_path


def _unlock_build(app: Sphinx, exception: BaseException | None) -> None:
    path = _lock_holders.pop(app, None)
    if path is not None and path not in _lock_holders.values():
        _held.pop(path).close()


# In the output folder while Sphinx writes: Sphinx saves its environment before it writes the pages,
# so after a build killed while writing it would write only the pages whose sources are newer than
# their HTML, not those that only depend on changed pages (toctrees, titles). Found by the next
# build, the mark has it write every page again.
WRITING = ".readinglist-writing"
_interrupted: WeakKeyDictionary[Sphinx, bool] = WeakKeyDictionary()


def _check_interrupted(app: Sphinx) -> None:
    _interrupted[app] = (Path(app.outdir) / WRITING).is_file()


def _write_all_if_interrupted(app: Sphinx, env: Any) -> list[str]:
    Path(app.outdir).mkdir(parents=True, exist_ok=True)
    (Path(app.outdir) / WRITING).write_text("a build is writing this folder\n", encoding="utf-8")
    if not _interrupted.pop(app, False):
        return []
    logger.info("[readinglist] the last build was interrupted: every page is written again")
    return sorted(env.found_docs)


def _writing_done(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        (Path(app.outdir) / WRITING).unlink(missing_ok=True)


def _copy_records(app: Sphinx, exception: BaseException | None) -> None:
    source = Path(app.srcdir) / RECORDS
    if exception is None and app.builder.format == "html" and source.is_file():
        write_if_changed(Path(app.outdir) / RECORDS, source.read_text(encoding="utf-8"))


def _myst_settings(app: Sphinx, config: Any) -> None:
    """The MyST syntax generated pages rely on, whatever conf.py enables."""
    extensions = list(config.myst_enable_extensions)
    config.myst_enable_extensions = extensions + ["attrs_inline"] * ("attrs_inline" not in extensions)
    schemes = config.myst_url_schemes
    if isinstance(schemes, dict):
        config.myst_url_schemes = {**schemes, links.SCHEME: None}
    elif links.SCHEME not in schemes:
        config.myst_url_schemes = [*schemes, links.SCHEME]


def _resolve_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(nodes.reference)):
        target = links.target(node.get("refuri", ""))
        if target is None:
            continue
        doc, anchor = target
        if doc not in app.env.all_docs:
            logger.warning("link to a page that does not exist: %s", doc, location=node, type="readinglist")
            node.replace_self(nodes.inline("", "", *node.children))
            continue
        if node.astext() == node["refuri"]:  # a card's hidden link text: name the page instead
            node.clear()
            title = app.env.titles[doc].deepcopy()
            for math in list(title.findall(nodes.math)):  # as the page reads (λ), not its source (\lambda)
                math.replace_self(nodes.Text(to_text(f"${math.astext()}$")))
            node += nodes.Text(title.astext())
        node["refuri"] = app.builder.get_relative_uri(docname, doc) + (f"#{nodes.make_id(anchor)}" if anchor else "")
        node["internal"] = True


def _share_navigation(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """One navigation tree per folder for the pages outside every toctree.

    Themes render the global toctree into every page (furo: a sixth of a build). For a page in
    no toctree (every paper and author page) nothing in it is marked current, so it is the same
    for all such pages of one folder: computed once, not once per paper.
    """
    toctree = context.get("toctree")
    if toctree is None or pagename == app.config.root_doc or pagename in _in_toctrees(app):
        return
    cache = _navigation.setdefault(app, {})
    folder = posixpath.dirname(pagename)

    def shared(**kwargs: Any) -> Any:
        key = (folder, tuple(sorted(kwargs.items())))
        if key not in cache:
            cache[key] = toctree(**kwargs)
        return cache[key]

    context["toctree"] = shared


def _in_toctrees(app: Sphinx) -> set[str]:
    return {doc for children in app.env.toctree_includes.values() for doc in children}


def _cache_bibliography(app: Sphinx, config: Config) -> None:
    if "sphinxcontrib.bibtex" in config.extensions:
        bibcache.install(config.bibtex_default_style)


def _load_bibliography_cache(app: Sphinx) -> None:
    bibcache.CACHE.load(Path(app.doctreedir))


def _save_bibliography_cache(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        bibcache.CACHE.save(Path(app.doctreedir))


def _add_templates(app: Sphinx, config: Config) -> None:
    # After the project's own templates, so any conf.py gets the Pagefind search page and body marker.
    config.templates_path = [*config.templates_path, str(search.TEMPLATES)]


def _no_sphinx_index(app: Sphinx) -> None:
    # Pagefind indexes the site: Sphinx's searchindex.js (19 MB at 10,000 papers) would be dead weight.
    if app.builder.name in SEARCH_BUILDERS:
        app.builder.search = False  # type: ignore[attr-defined]


def _search_page(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    if app.builder.name in SEARCH_BUILDERS:  # Sphinx writes search.html only with its own index
        yield "search", {}, "search.html"


def _collect_again(app: Sphinx) -> None:
    gc.freeze()
    gc.enable()


def _start_count(app: Sphinx, env: Any, docnames: Any) -> None:
    _written[app] = 0  # per build: an app can build more than once (sphinx-autobuild, tests)


def _count_written(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    count = _written.get(app, 0)
    if count == 0 and app.builder.name in SEARCH_BUILDERS:  # before the first page is written
        search.mark_stale(Path(app.outdir))  # whether or not this build indexes (--no-search)
    _written[app] = count + 1


def _index_search(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in SEARCH_BUILDERS or not app.config.readinglist_search:
        return
    site = Path(app.outdir)
    if not search.needed(site, _written.get(app, 0)):
        logger.info("[readinglist] search: no page changed, Pagefind index kept")
        return
    if app.config.readinglist_search_later:  # ``readinglist build`` indexes once Sphinx's memory is freed
        search.mark_stale(site)
        return
    try:
        search.index(site)  # and removes the stale mark
    except ReadingListError as exc:  # an error, not a warning: a site without its index is broken
        _unlock_build(app, exc)  # the handlers after this one do not run
        raise ExtensionError(str(exc)) from None
    logger.info("[readinglist] search: Pagefind index written to %s", Path(app.outdir) / search.BUNDLE)


def _visit_math(self: HTML5Translator, node: nodes.Element) -> None:
    latex = node.astext()
    self.body.append(to_mathml(latex) or fallback(latex))
    raise nodes.SkipNode


def _visit_math_block(self: HTML5Translator, node: nodes.Element) -> None:
    latex = node.astext()
    self.body.append(f'<div class="math">{to_mathml(latex, display=True) or fallback(latex)}</div>')
    raise nodes.SkipNode


# sphinxcontrib-bibtex looks these up once per citation, and each pybtex lookup scans every
# installed package's entry points (10 ms): at 1,000 papers that was 10 s of a build.
# Registered as runtime plugins, the same classes are found without the scan.
PYBTEX_PLUGINS = (
    ("pybtex.backends", "plaintext"),
    ("pybtex.style.formatting", "plain"),
    ("pybtex.style.labels", "number"),
    ("pybtex.style.names", "plain"),
    ("pybtex.style.sorting", "none"),
    ("pybtex.style.sorting", "author_year_title"),
)


def _register_pybtex_plugins() -> None:
    for group, name in PYBTEX_PLUGINS:
        pybtex.plugin.register_plugin(group, name, pybtex.plugin.find_plugin(group, name), force=True)


SEARCH_BUILDERS = ("html", "dirhtml")  # not epub or singlehtml, whose format is html too


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("readinglist_root", "..", "env", types=[str])
    app.add_config_value("readinglist_generate", True, "", types=[bool])
    app.add_config_value("readinglist_search", True, "", types=[bool])  # False: keep the last index
    app.add_config_value("readinglist_search_later", False, "", types=[bool])
    app.add_config_value("readinglist_allow_empty", False, "", types=[bool])  # see generate.run
    _register_pybtex_plugins()
    child.forks_die_with_parent()  # a killed sphinx-build takes its -j workers with it
    app.connect("config-inited", _myst_settings)
    linklist.setup(app)
    a11y.setup(app)  # accessible markup, favicon, citation meta tags
    facets.setup(app)  # search filters, sort keys and result metadata on paper pages
    biblinks.register()  # the bibliography's titles link to their paper pages
    graphnode.setup(app)  # related-work graphs drawn as inline SVG
    feedlinks.setup(app)  # the Atom feeds copied and advertised; the selection script
    # Fewer collections of the youngest generation: doctrees are large trees of small objects
    # that live until written, and the default threshold (700) spent a sixth of a build in GC.
    # No collection at all while Sphinx unpickles its environment (millions of objects, none
    # garbage: 5 s of a no-op rebuild at 10,000 papers); frozen once loaded, they are not scanned.
    gc.set_threshold(50_000, 50, 100)
    app.connect("config-inited", lambda app, config: gc.disable(), priority=900)  # just before the loading
    app.connect("builder-inited", _collect_again, priority=50)
    app.connect("build-finished", lambda app, exception: gc.unfreeze())  # collectable again (test runs)
    # Before sphinxcontrib-bibtex (priority 500) reads the bibliography the generator writes.
    app.connect("builder-inited", _generate, priority=100)
    app.connect("builder-inited", _check_interrupted)
    app.connect("env-updated", _write_all_if_interrupted)
    app.connect("build-finished", _writing_done, priority=400)  # the pages are written; before Pagefind
    app.connect("build-finished", _unlock_build, priority=900)  # last: after Pagefind
    app.connect("config-inited", _add_templates)
    app.connect("doctree-resolved", _resolve_links)
    app.connect("env-before-read-docs", _start_count)
    app.connect("doctree-resolved", _count_written)
    app.connect("html-page-context", _share_navigation, priority=400)  # before the theme's (500)
    app.connect("build-finished", _copy_records)
    app.connect("builder-inited", _no_sphinx_index)
    app.connect("html-collect-pages", _search_page)
    app.connect("build-finished", _index_search)
    app.connect("config-inited", _cache_bibliography)
    app.connect("builder-inited", _load_bibliography_cache)
    app.connect("build-finished", _save_bibliography_cache)
    # Math rendered to MathML at build time: offline, no JavaScript (html_math_renderer = "mathml").
    app.add_html_math_renderer("mathml", (_visit_math, None), (_visit_math_block, None))
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
