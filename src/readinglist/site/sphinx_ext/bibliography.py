"""The bibliography page: sphinxcontrib-bibtex with linked titles and entries formatted once.

The styles (``biblinks.py``, and the default one made caching by ``bibcache.py``) are
registered for each build, bound to the formatted entries that build keeps on its app and
saves beside its doctrees.
"""

from __future__ import annotations

from pathlib import Path

import pybtex.plugin
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from ...compat import citations_not_saved, register_pybtex_plugin
from . import bibcache, biblinks
from .state import state

# sphinxcontrib-bibtex looks these up once per citation, and each pybtex lookup scans every
# installed package's entry points (10 ms a lookup). Registered as runtime plugins, the same
# classes are found without the scan.
PYBTEX_PLUGINS = (
    ("pybtex.backends", "plaintext"),
    ("pybtex.style.formatting", "plain"),
    ("pybtex.style.labels", "number"),
    ("pybtex.style.names", "plain"),
    ("pybtex.style.sorting", "none"),
    ("pybtex.style.sorting", "author_year_title"),
)


def register_pybtex_plugins() -> None:
    for group, name in PYBTEX_PLUGINS:
        register_pybtex_plugin(group, name, pybtex.plugin.find_plugin(group, name))


def _install_styles(app: Sphinx, config: Config) -> None:
    cache = state(app).bibliography
    bibcache.install(config.bibtex_default_style, cache)
    biblinks.register(cache)  # the bibliography's titles link to their paper pages


def _load(app: Sphinx) -> None:
    state(app).bibliography.load(Path(app.doctreedir))


def _save(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        state(app).bibliography.save(Path(app.doctreedir))


def _citations_not_saved(app: Sphinx, env: BuildEnvironment) -> None:
    citations_not_saved(env)  # sphinxcontrib-bibtex makes them again in every build


def setup(app: Sphinx) -> None:
    register_pybtex_plugins()
    app.connect("config-inited", _install_styles, priority=600)  # after settings.py sets the style
    # Before the pages are waited for (generation.py, 90): the cache is Sphinx's own, in the
    # doctree folder, so loading it overlaps the generator. And before memory.py freezes what
    # was loaded (50), while the collector is still off: loaded after it, the first collection
    # would walk every entry.
    app.connect("builder-inited", _load, priority=40)
    app.connect("build-finished", _save)
    app.connect("env-updated", _citations_not_saved, priority=900)  # after sphinxcontrib-bibtex's (500)
