"""The Sphinx adapter: the only module that imports Sphinx.

``setup()`` only registers. When a build starts, the generator brings docs/ up to date
(so a plain ``sphinx-build docs OUT``, as Read the Docs runs it, builds the whole list);
when an HTML build ends, ``records.json`` is written at the site root and Pagefind indexes the
site for its search page.
"""

from __future__ import annotations

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
from ..config import load_config
from ..errors import ReadingListError
from ..render.mathml import fallback, to_mathml
from ..writer import write_if_changed
from . import generate, search
from .records import records_json

logger = logging.getLogger(__name__)
_reports: WeakKeyDictionary[Sphinx, generate.GenerateReport] = WeakKeyDictionary()


def _root(app: Sphinx) -> Path:
    return (Path(app.confdir) / str(app.config.readinglist_root)).resolve()


def _generate(app: Sphinx) -> None:
    try:
        report = generate.run(load_config(_root(app)))
    except ReadingListError as exc:
        raise ExtensionError(str(exc)) from None
    for line in report.lines():
        logger.info("[readinglist] %s", line)
    _reports[app] = report


def _write_records(app: Sphinx, exception: BaseException | None) -> None:
    report = _reports.get(app)
    if exception is not None or report is None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "records.json"
    library = report.library
    if library is None and not target.exists():  # inputs unchanged, but a new output folder
        library = generate.build_library(load_config(_root(app)))[0]
    if library is not None:
        write_if_changed(target, records_json(library))


def _add_templates(app: Sphinx, config: Config) -> None:
    # After the project's own templates, so any conf.py gets the Pagefind search page and body marker.
    config.templates_path = [*config.templates_path, str(search.TEMPLATES)]


def _index_search(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in SEARCH_BUILDERS:
        return
    try:
        search.index(Path(app.outdir))
    except ReadingListError as exc:  # an error, not a warning: a site without its index is broken
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
    _register_pybtex_plugins()
    # Before sphinxcontrib-bibtex (priority 500) reads the bibliography the generator writes.
    app.connect("builder-inited", _generate, priority=100)
    app.connect("config-inited", _add_templates)
    app.connect("build-finished", _write_records)
    app.connect("build-finished", _index_search)
    # Math rendered to MathML at build time: offline, no JavaScript (html_math_renderer = "mathml").
    app.add_html_math_renderer("mathml", (_visit_math, None), (_visit_math_block, None))
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
