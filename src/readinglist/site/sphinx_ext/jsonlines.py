"""The body of a data directive: one JSON object per line, each made into an item or warned of.

``{readinglist-links}``, ``{readinglist-cite}`` and ``{readinglist-cards}`` hold what the
generator wrote as data, so a page is one node per list instead of Markdown parsed into
dozens. A line a hand edit broke is skipped with its warning code, at its line in the page,
and an item naming a page that does not exist is left out with ``missing-page``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .warnings_ import Warn

Item = TypeVar("Item")


def items(directive: SphinxDirective, make: Callable[[dict[str, Any]], Item], warn: Warn, what: str) -> list[Item]:
    """``make`` of each line's object; a line that is not one (or that ``make`` refuses) is ``warn``."""
    made = []
    for offset, line in enumerate(directive.content):
        try:
            found = json.loads(line)
            if not isinstance(found, dict):
                raise TypeError("not a JSON object")
            made.append(make(found))
        except (ValueError, AttributeError, TypeError):
            # MyST counts content_offset from the directive, not the page: its lines follow lineno's.
            where = (directive.env.docname, directive.lineno + offset + 1)
            warn.log("not %s: %r", what, line, location=where)
    return made


def page_exists(app: Sphinx, doc: str, node: nodes.Element, what: str) -> bool:
    """True when ``doc`` is a page of the build; else a ``missing-page`` warning at ``node``."""
    if doc in app.env.all_docs:
        return True
    Warn.MISSING_PAGE.log("%s a page that does not exist: %s", what, doc, location=node)
    return False
