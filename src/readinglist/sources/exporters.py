"""Reference managers' own entry types, read as the closest BibTeX/BibLaTeX type.

Mendeley Desktop writes its document types as entry types (``@web_page``, ``@generic``,
``@book_section``, ...); EndNote, JabRef and IEEEtran users have a few of their own. Each maps
here to a standard type, and the record keeps the original in ``entrysubtype`` (BibLaTeX's field
for a finer kind), so it stays visible in refs.bib. A type in neither table is read as ``@misc``
with a warning, as BibTeX does, rather than lost.
"""

from __future__ import annotations

from collections.abc import Mapping

# Mendeley Desktop's document types (its BibTeX export with "Mendeley types"), then others'.
EXPORTER_TYPES: Mapping[str, str] = {
    "web_page": "online",
    "generic": "misc",
    "book_section": "incollection",  # a chapter of an edited book: its booktitle is the book
    "conference_proceedings": "inproceedings",  # a paper in proceedings, not the volume
    "journal_article": "article",
    "magazine_article": "article",
    "newspaper_article": "article",
    "encyclopedia_article": "inreference",
    "working_paper": "report",
    "computer_program": "software",
    "film": "movie",
    "television_broadcast": "video",
    "statute": "legislation",
    "bill": "legislation",
    "case": "jurisdiction",
    "hearing": "jurisdiction",
    # EndNote, JabRef and IEEEtran spellings of a web page; EndNote's "journal" is an article.
    "webpage": "online",
    "url": "online",
    "journal": "article",
    "presentation": "misc",
}

# Entries that hold a style's settings, never a work: read as nothing, reported as nothing.
NOT_WORKS = frozenset({"ieeetranbstctl"})

UNKNOWN_AS = "misc"  # BibTeX's own fallback for a type its style does not define
