"""Every page usable by keyboard, screen reader and phone: fixes to the theme's markup.

axe-core finds the same faults on every page of a furo site: sidebar captions with
``role=heading`` but no level, the bibliography's ``role=list`` holding ``doc-biblioentry``
items, code blocks that scroll but cannot take focus, two unnamed ``<aside>`` landmarks, a
table of contents that repeats the ids of the headings it links to, and paper cards with no
heading. ``page.html`` passes the rendered body through :func:`accessible`, which rewrites
exactly that markup (the patterns are upstream contracts: ``compat.MARKUP_FIXES``). Each
pattern starts at a ``<`` of a tag Sphinx, docutils or furo write; record text cannot produce
one, because the HTML writer escapes every ``<`` of text (a code block, such as a paper's
BibTeX, keeps its ``"`` as they are, so no pattern may start at one).
The CSS and JavaScript in ``static/`` do the rest (phone menu by keyboard, focus styles, contrast).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from markupsafe import Markup
from sphinx.application import Sphinx
from sphinx.config import Config

from ...compat import CARD_TITLE, DRAWER_LABEL, MARKUP_FIXES
from ...render.links import AUTHORS
from . import citemeta

STATIC = Path(__file__).resolve().parent.parent / "static"
CSS, JS, FAVICON = "readinglist-a11y.css", "readinglist-a11y.js", "readinglist-favicon.svg"

# furo's drawer labels (compat.DRAWER_LABEL) become buttons, which readinglist-a11y.js makes toggle
# the same hidden checkboxes.
DRAWER_NAMES = {"__navigation": "Site navigation", "__toc": "Contents of this page"}
HEADING = re.compile(r"<h([1-6])[\s>]")
LETTER = re.compile(r'<a class="reference internal" (href="(?:[a-z]|other)\.html">(?:[A-Z]|Other)</a>)')


def accessible(pagename: str, html: str) -> Markup:
    """The page's body with the theme's markup made accessible (see the module's docstring)."""
    for pattern, replacement in MARKUP_FIXES:
        html = pattern.sub(replacement, html)
    html = DRAWER_LABEL.sub(_drawer_button, html)
    html = _card_headings(html)
    if pagename == f"{AUTHORS}/index":  # the letters A-Z: targets big enough for a finger
        html = LETTER.sub(r'<a class="reference internal readinglist-letter" \1', html)
    return Markup(html)


def _drawer_button(match: re.Match[str]) -> str:
    classes, toggle, icon = match.groups()
    return (
        f'<button type="button" class="{classes}" data-readinglist-toggle="{toggle}" '
        f'aria-label="{DRAWER_NAMES[toggle]}" aria-expanded="false">{icon}</button>'
    )


def _card_headings(html: str) -> str:
    """A card's first line (its bold title) becomes a heading one level below the section's."""
    if "sd-card-body" not in html:
        return html
    starts = [(m.start(), int(m.group(1))) for m in HEADING.finditer(html)]
    positions = [start for start, _ in starts]

    def heading(match: re.Match[str]) -> str:
        before = bisect.bisect_left(positions, match.start()) - 1
        level = min(starts[before][1] + 1, 6) if before >= 0 else 2
        return f'{match.group(1)} role="heading" aria-level="{level}"{match.group(2)}'

    return CARD_TITLE.sub(heading, html)


def _configure(app: Sphinx, config: Config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC)]
    if not config.html_favicon:  # every browser asks for one: without it, a 404 on every page
        config.html_favicon = str(STATIC / FAVICON)


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    fix: Callable[[str], Markup] = partial(accessible, pagename)
    context["readinglist_accessible"] = fix
    citemeta.add(app, pagename, context)


def setup(app: Sphinx) -> None:
    app.connect("config-inited", _configure)
    app.connect("html-page-context", _page_context)
    app.add_css_file(CSS)
    app.add_js_file(JS, loading_method="defer")
