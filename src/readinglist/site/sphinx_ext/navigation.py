"""One navigation tree per folder for the pages outside every toctree.

Themes render the global toctree into every page (furo: a sixth of a build). For a page in no
toctree (every paper and author page) nothing in it is marked current, so it is the same for
all such pages of one folder: computed once, not once per paper.
"""

from __future__ import annotations

import posixpath
from typing import Any

from sphinx.application import Sphinx

from .state import state


def share(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    toctree = context.get("toctree")
    if toctree is None or pagename == app.config.root_doc or pagename in _in_toctrees(app):
        return
    cache, folder = state(app).navigation, posixpath.dirname(pagename)

    def shared(**kwargs: Any) -> Any:
        key = (folder, tuple(sorted(kwargs.items())))
        if key not in cache:
            cache[key] = toctree(**kwargs)
        return cache[key]

    context["toctree"] = shared


def _in_toctrees(app: Sphinx) -> set[str]:
    return {doc for children in app.env.toctree_includes.values() for doc in children}


def _forget(app: Sphinx) -> None:
    state(app).navigation.clear()  # a second build of one app may have other toctrees


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _forget)
    app.connect("html-page-context", share, priority=400)  # before the theme's (500)
