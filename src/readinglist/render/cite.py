"""The Cite menu of a paper page: one tab per format, each a code block with a copy button.

``FORMATS`` is the menu, one row per format: its tab label, its code block's lexer and the
function that makes its text from a :class:`Citation`. A new format (BibLaTeX, RIS, CSL-JSON,
…) is one more row. Plain text and Markdown are pybtex's own ``plain`` style, the style the
bibliography page uses, rendered by pybtex's text and Markdown backends: the entry is the
bibliography's derived one (``bibliography.derive``), so the three tabs and the bibliography
name the same authors, and a type pybtex cannot format is never a warning.

Record text is data: each text is a fenced code block (``escape.fence``) inside directives whose
fences are longer still (``escape.directive``), so no text can close a block or open one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from pybtex.backends.markdown import Backend as MarkdownBackend
from pybtex.backends.plaintext import Backend as TextBackend
from pybtex.database import Entry, Person
from pybtex.exceptions import PybtexError
from pybtex.richtext import BaseText
from pybtex.style.formatting.plain import Style

from ..model import Work
from .bibliography import derive
from .escape import Md, clean, directive, fence


@dataclass(frozen=True)
class Citation:
    """What the formats are made from: the page's BibTeX block and pybtex's formatted entry."""

    bibtex: str
    reference: BaseText | None  # None when pybtex could not format the entry


@dataclass(frozen=True)
class CiteFormat:
    label: str  # the tab's label
    lexer: str  # the code block's language, for highlighting
    make: Callable[[Citation], str]  # the text to copy; "" leaves the tab out


def _bibtex(citation: Citation) -> str:
    return citation.bibtex


def _plain(citation: Citation) -> str:
    return clean(citation.reference.render(TextBackend())) if citation.reference else ""


def _markdown(citation: Citation) -> str:
    """The reference in Markdown: pybtex links its URL, arXiv id and DOI; one line to paste."""
    return clean(citation.reference.render(MarkdownBackend())) if citation.reference else ""


FORMATS: tuple[CiteFormat, ...] = (
    CiteFormat("BibTeX", "bibtex", _bibtex),
    CiteFormat("Plain text", "text", _plain),
    CiteFormat("Markdown", "markdown", _markdown),
)


def citation(work: Work, parents: dict[str, Work], bibtex: str) -> Citation:
    """``parents``: the works a ``crossref`` may name, by key (only the one it names is needed)."""
    return Citation(bibtex, reference(work, parents))


def reference(work: Work, parents: dict[str, Work]) -> BaseText | None:
    """The entry as pybtex's plain style formats it (without its label)."""
    derived = derive(work, parents)
    persons = {role: [Person(name) for name in names] for role, names in derived.persons.items()}
    try:
        return _style().format_entry("", Entry(derived.kind, fields=derived.fields, persons=persons)).text
    except PybtexError:  # derive() fills every required field; a menu without two tabs beats no page
        return None


@lru_cache(maxsize=1)
def _style() -> Style:
    return Style()


def cite_menu(citation: Citation) -> Md:
    """A tab set with one code block per format that has a text; empty when none has."""
    items = [(f, text) for f in FORMATS if (text := f.make(citation).strip())]
    tabs = [directive("tab-item", f.label, fence(text, f.lexer)) for f, text in items]
    return directive("tab-set", "", "\n\n".join(tabs), ":class: readinglist-cite") if tabs else Md("")
