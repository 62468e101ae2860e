"""The Sphinx settings generated pages need, set when the configuration is read.

A reading list's conf.py names the extension and nothing else (``extensions =
["readinglist.site.sphinx_ext"]``): the other extensions are loaded by ``setup()``, and this
handler fills in the rest. Two kinds of settings:

- what the generated pages rely on is always set, added to whatever conf.py says (MyST's
  syntax, the ``rl:`` link scheme, the derived bibliography and the citation ids paper pages
  link to, MathML, the notes folder left out of the build, no typographic rewriting of record
  text);
- the site's look and names are defaults from ``conf/readinglist.toml``, which a conf.py that
  sets them overrides (theme, title, author, base URL, source links).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from ...compat import user_set
from ...config import load_config
from ...errors import ReadingListError
from ...render import links, registry
from .. import search

MYST_EXTENSIONS = ("colon_fence", "dollarmath", "attrs_inline")
BIBLIOGRAPHY = "bibliography.bib"  # the sanitized copy of refs.bib the generator writes (render/bibliography.py)
# Notes are read into paper pages, not built alone. The generator's folders of data (feeds,
# charts, downloads: no page among them) are left out of Sphinx's search for sources, which
# otherwise tests each of their files against every pattern on every build: 6,500 files at
# 10,000 works, a sixth of Sphinx's time before it reads a page. Pages find them by reference.
DATA_FOLDERS = tuple(kind.folder for kind in registry.KINDS if kind.folder and ".md" not in kind.suffixes)
EXCLUDED = ("_build", "notes/**", *DATA_FOLDERS, "Thumbs.db", ".DS_Store")
REQUIRED: dict[str, Any] = {
    "smartquotes": False,  # record text is shown as the record has it
    "bibtex_default_style": "plain",
    "bibtex_reference_style": "label",
    "bibtex_cite_id": "cite-{key}",  # paper pages link to bibliography.html#cite-<page name>
    "bibtex_tooltips": False,  # they would format every entry a second time on every build
    "html_math_renderer": "mathml",  # sphinx_ext/mathml.py: at build time, no JavaScript
}
DEFAULTS: dict[str, Any] = {
    "html_theme": "furo",
    "html_theme_options": {"navigation_with_keys": True, "top_of_page_buttons": ["view"]},
    "html_show_sourcelink": False,  # a generated page's source is no reader's business
    "html_copy_source": False,
    "copyright": "the reading list's authors",
}


def root(app: Sphinx) -> Path:
    """The reading list's project folder (``readinglist_root``, relative to conf.py)."""
    return (Path(app.confdir) / str(app.config.readinglist_root)).resolve()


def configure(app: Sphinx, config: Config) -> None:
    _required(config)
    for name, value in {**DEFAULTS, **_site_names(app)}.items():
        if not user_set(config, name):
            setattr(config, name, value)


def _required(config: Config) -> None:
    config.myst_enable_extensions = _with(config.myst_enable_extensions, MYST_EXTENSIONS)
    schemes = config.myst_url_schemes
    if isinstance(schemes, dict):
        config.myst_url_schemes = {**schemes, links.SCHEME: None}
    else:
        config.myst_url_schemes = _with(schemes, (links.SCHEME,))
    config.bibtex_bibfiles = _with(config.bibtex_bibfiles, (BIBLIOGRAPHY,))
    config.exclude_patterns = _with(config.exclude_patterns, EXCLUDED)
    # After the project's own templates, so any conf.py gets the Pagefind search page and body marker.
    config.templates_path = _with(config.templates_path, (str(search.TEMPLATES),))
    for name, value in REQUIRED.items():
        setattr(config, name, value)


def _site_names(app: Sphinx) -> dict[str, Any]:
    """Title, author and base URL from conf/readinglist.toml (its errors are the generator's to report)."""
    try:
        site = load_config(root(app))
    except ReadingListError:
        return {}
    return {"project": site.title, "html_title": site.title, "author": site.author or "readinglist",
            "html_baseurl": site.base_url}  # fmt: skip


def _with(values: Any, needed: tuple[str, ...]) -> list[str]:
    """``values`` (a list or a set, or None when unset) and then ``needed``, once each."""
    listed = list(values or ())
    return [*listed, *(value for value in needed if value not in listed)]


def setup(app: Sphinx) -> None:
    # Before Sphinx turns source_suffix into its own form and checks the rest (priority 800).
    app.connect("config-inited", configure, priority=300)
