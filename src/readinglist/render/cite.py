"""The Cite menu of a paper page: one tab per format, each a code block with a copy button.

``FORMATS`` is the menu, one row per format: its tab label, its code block's lexer and the
function that makes its text from a :class:`Citation`. BibLaTeX, RIS, CSL-JSON and the ACL style
come from ``export.py`` (the CSL item is made from the same derived entry). Plain text and
Markdown are pybtex's own ``plain`` style, the style the
bibliography page uses, rendered by pybtex's text and Markdown backends: the entry is the
bibliography's derived one (``bibliography.derive``), so the tabs and the bibliography name
the same authors, and a type pybtex cannot format is never a warning. Formatting is slow, so
the results are kept between generates (``citecache``).

The menu is data, not Markdown: one ``{readinglist-cite}`` directive holding a JSON object per
tab (``label``, ``lexer``, ``text``), which the Sphinx extension keeps as one node and writes
as sphinx-design's tab set (``site/sphinx_ext/citetabs.py``). As a ``{tab-set}`` of seven
``{tab-item}`` code blocks it was a sixth of a paper page's build. ASCII-only JSON keeps every
line break of a text escaped, so no record text can end the block or open another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pybtex.backends.markdown import Backend as MarkdownBackend
from pybtex.backends.plaintext import Backend as TextBackend
from pybtex.database import Entry, Person
from pybtex.exceptions import PybtexError
from pybtex.style.formatting.plain import Style

from ..chars import strip_unsafe
from ..model import Work
from .authors import shown_names
from .bibliography import derive
from .citecache import CACHE
from .escape import Md, clean, data_block
from .export import acl, biblatex, csl_item, csl_json, ris


@dataclass(frozen=True)
class Citation:
    """What the formats are made from: the work, the page's BibTeX block, pybtex's reference."""

    work: Work
    bibtex: str
    plain: str  # pybtex's plain style as text; "" when pybtex could not format the entry
    markdown: str  # the same in Markdown: pybtex links the URL, arXiv id and DOI
    csl: dict[str, Any] = field(default_factory=dict)  # the CSL-JSON item (export.csl_item)
    acl: str = ""  # the ACL proceedings style (citeproc-py); "" when it could not format the item
    biblatex: str = ""  # the BibTeX block in BibLaTeX's terms


@dataclass(frozen=True)
class CiteFormat:
    label: str  # the tab's label
    lexer: str  # the code block's language, for highlighting
    make: Callable[[Citation], str]  # the text to copy; "" leaves the tab out


FORMATS: tuple[CiteFormat, ...] = (
    CiteFormat("BibTeX", "bibtex", lambda c: c.bibtex),
    CiteFormat("BibLaTeX", "bib", lambda c: c.biblatex),  # Pygments' other name for BibTeX: its own CSS class
    CiteFormat("RIS", "text", lambda c: ris(c.csl) if c.csl else ""),
    CiteFormat("CSL-JSON", "json", lambda c: csl_json([c.csl]) if c.csl else ""),
    CiteFormat("ACL", "text", lambda c: c.acl),
    CiteFormat("Plain text", "text", lambda c: c.plain),
    CiteFormat("Markdown", "markdown", lambda c: c.markdown),
)


def citation(work: Work, parents: dict[str, Work], bibtex: str) -> Citation:
    """``parents``: the works a ``crossref`` may name, by key (only the one it names is needed)."""
    derived = derive(work, parents)
    item = csl_item(work.key, derived)
    styled = _styled(derived.persons)
    key = json.dumps([derived.kind, derived.fields, styled], sort_keys=True)
    found = CACHE.get(key)
    if found is None or len(found) != 3:
        entry = Entry(derived.kind, fields=derived.fields, persons=_persons(styled))
        found = [*_format(entry), acl(_acl_item(item))]
        CACHE.put(key, found)
    return Citation(work, bibtex, found[0], found[1], item, found[2], biblatex(bibtex) if bibtex else "")


def _styled(persons: dict[str, list[str]]) -> dict[str, list[str]]:
    """The names the plain-text and Markdown references list: a long author list as the paper's
    page shows it, its first few and "others" (pybtex's "et al."). Formatting 5,000 names took
    most of a generate of collaboration papers; the BibTeX, RIS and CSL-JSON tabs keep them all."""
    shown, left = shown_names(persons.get("author", []))
    return {**persons, "author": [*shown, "others"]} if left else persons


ACL_NAMES = 20  # acl.csl names 19 of 20 or more authors, then "et al.": 20 give the same reference


def _acl_item(item: dict[str, Any]) -> dict[str, Any]:
    authors = item.get("author")
    return {**item, "author": authors[:ACL_NAMES]} if isinstance(authors, list) else item


def _persons(persons: dict[str, list[str]]) -> dict[str, list[Person]]:
    return {role: [Person(name) for name in names] for role, names in persons.items()}


def _format(entry: Entry) -> tuple[str, str]:
    try:
        text = _style().format_entry("", entry).text
    except PybtexError:  # derive() fills every required field; a menu without two tabs beats no page
        return "", ""
    return clean(text.render(TextBackend())), clean(text.render(MarkdownBackend()))


@lru_cache(maxsize=1)
def _style() -> Style:
    return Style()


def cite_menu(citation: Citation) -> Md:
    """The ``{readinglist-cite}`` block: one JSON line per format that has a text; empty when none has."""
    # Unsafe characters go before the JSON escapes them out of the fence's sight.
    texts = ((f, strip_unsafe(f.make(citation)).strip()) for f in FORMATS)
    tabs = [{"label": f.label, "lexer": f.lexer, "text": text} for f, text in texts if text]
    return data_block("readinglist-cite", tabs)
