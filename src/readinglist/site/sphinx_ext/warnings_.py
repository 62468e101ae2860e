"""The extension's Sphinx warnings, each with a stable code (MyST-Parser's ``warnings_.py`` is the model).

Every warning is logged with ``type="readinglist"`` and ``subtype=<code>``, so a conf.py can
silence one kind (``suppress_warnings = ["readinglist.missing-page"]``) and tests assert on
the code, not on the wording. A warning always has a location: the page and, where the
generated Markdown has one, the line.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from sphinx.util import logging

from ...errors import TYPE  # the errors' codes show as readinglist.<code> too (errors.Code)

logger = logging.getLogger(__name__)


class Warn(Enum):
    """The codes. Generated pages never cause one; hand-edited or stale Markdown can."""

    MISSING_PAGE = "missing-page"  # an rl: link, a related link or a graph node to a page that does not exist
    BAD_LINK_LINE = "bad-link-line"  # a {readinglist-links} line that is not a link's JSON
    BAD_GRAPH = "bad-graph"  # a {readinglist-graph} body that is not the generator's graph
    BAD_CITE_LINE = "bad-cite-line"  # a {readinglist-cite} line that is not a tab's JSON
    BAD_CARD_LINE = "bad-card-line"  # a {readinglist-cards} line that is not a card's JSON
    BAD_PROGRESS_LINE = "bad-progress-line"  # a {readinglist-progress} line that is not a group's JSON
    BAD_PAGE_DATA = "bad-page-data"  # a paper page's data file missing, or not what its blocks name

    def log(self, message: str, *args: Any, location: Any) -> None:
        logger.warning(message, *args, location=location, type=TYPE, subtype=self.value)
