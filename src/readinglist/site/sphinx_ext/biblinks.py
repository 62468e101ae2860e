"""The bibliography's style: pybtex's plain style, with each entry's title linking to its paper page.

The derived bibliography is keyed by page slug (``render/bibliography.py``), so an entry's key
names its page. The title becomes the link (``rl:papers/<key>``, resolved like every other
generated link by ``sphinx_ext.links``): one reference node per entry, around text already there, and
a link that names its paper, not thirty links that all read "page". No Sphinx imports here.
"""

from __future__ import annotations

from typing import Any

from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.template import Node, href, sentence

from ...compat import register_pybtex_plugin
from ...render.bibsets import STYLE
from ...render.links import PAPERS, url
from . import bibcache


class LinkedStyle(PlainStyle):  # type: ignore[misc]  # pybtex has no type hints
    """Plain, with the entry's own title (never a booktitle) a link to the entry's paper page."""

    def format_title(self, e: Any, which_field: str, as_sentence: bool = True) -> Node:
        title = super().format_title(e, which_field, as_sentence=False)
        return self._linked(e, which_field, title, as_sentence)

    def format_btitle(self, e: Any, which_field: str, as_sentence: bool = True) -> Node:
        title = super().format_btitle(e, which_field, as_sentence=False)
        return self._linked(e, which_field, title, as_sentence)

    @staticmethod
    def _linked(e: Any, which_field: str, title: Node, as_sentence: bool) -> Node:
        if which_field == "title":
            title = href(url(f"{PAPERS}/{e.key}"))[title]
        return sentence[title] if as_sentence else title


def register(cache: bibcache.Cache) -> None:
    """Make the style findable by name, cached between builds (in ``cache``) as the default style is."""
    register_pybtex_plugin(bibcache.GROUP, STYLE, bibcache.caching(LinkedStyle, cache))
