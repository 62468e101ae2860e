"""A source record as the store keeps it: ``RawRecord`` -> ``Work``, and the key a new work gets.

Profile dumps give plain text, made safe for BibTeX here; the readers of ``LATEX_KINDS``
(BibTeX, BibLaTeX, CSL-JSON) give LaTeX already, kept as the file states it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..latex import dump_to_latex, protect_title, to_text
from ..model import RawRecord, Work
from ..sources import LATEX_KINDS
from ..sources.fields import normalize_doi
from ..titles import working_title
from .keys import base_key, is_valid_key, unique_key


def to_work(record: RawRecord) -> Work:
    latex = record.source.kind in LATEX_KINDS
    abstract = abstract_of(record)
    title = record.title if latex else dump_to_latex(record.title)
    inferred = not title.strip()
    if inferred:
        # A working title is plain text (made from the abstract's): LaTeX here, as every stored title is.
        title = dump_to_latex(working_title(abstract)) or "Untitled record"
    authors = tuple(name for name in (bib_name(n, latex) for n in record.authors) if to_text(name).strip())
    et_al = record.et_al
    if not authors and record.source.owner:
        # The profile attributes the record to its owner; the rest are unknown.
        authors, et_al = (record.source.owner,), True
    return Work(
        key="",
        title=title if latex and not inferred else protect_title(title),
        title_inferred=inferred,
        authors=authors,
        et_al=et_al,
        year=record.year,
        abstract=abstract,
        categories=record.categories,
        eprint=record.eprint.strip(),
        sources=(record.source,),
        entry_type=record.entry_type.lower() or "misc",
        extra=tuple((name.lower(), value) for name, value in record.fields if value.strip()),
        doi=normalize_doi(record.doi),
        url=record.url.strip(),
        keywords=tuple(dict.fromkeys(k.strip() for k in record.keywords if k.strip())),
    )


def abstract_of(record: RawRecord) -> str:
    """The record's abstract as its work keeps it (LaTeX)."""
    return record.abstract if record.source.kind in LATEX_KINDS else dump_to_latex(record.abstract)


_BIBTEX_FORM = re.compile(r"^[^,]+(?:,[^,]*){1,2}$")  # "Last, First" or "von Last, Jr, First"


def bib_name(name: str, latex: bool = False) -> str:
    """A name as BibTeX stores it, so that it stays one name.

    A BibTeX file's ``Last, First`` is kept; in plain text a comma or a lone "and" would split
    or reorder the name, so such a name is braced whole.
    """
    text = " ".join((name if latex else dump_to_latex(name)).split())
    if latex and _BIBTEX_FORM.match(text) and not re.search(r"\band\b", text, re.I):
        return text
    if "," in text or re.search(r"\band\b", text, re.I) or not text:
        return "{" + text + "}"
    return text


def _last_name(work: Work) -> str:
    editors = [v for k, v in work.extra if k == "editor"]  # an edited book is known by its editors
    if not work.authors and not editors:
        return work.sources[0].owner if work.sources else ""
    first = work.authors[0] if work.authors else re.split(r"\s+and\s+", editors[0])[0]
    if work.sources and work.sources[0].kind in LATEX_KINDS:
        first = to_text(first)
        first = first.split(",")[0] if "," in first else first  # "Smith, John": the last name comes first
    return first.split()[-1] if first.split() else ""


def choose_key(wanted: str, work: Work, taken: set[str]) -> tuple[str, str]:
    """The key for a new work, and a note when it is not the one the source gave.

    The source's key is kept when BibTeX accepts it and no entry has it (in any case); otherwise
    a readable key is made from the first author, the year and the title (stable for the same record).
    """
    if wanted and is_valid_key(wanted) and wanted.lower() not in taken:
        return wanted, ""
    key = unique_key(base_key(_last_name(work), work.year, work.title), taken)
    if not wanted:
        return key, "" if work.sources[0].kind == "profile" else f"no key; stored as {key}"
    problem = "is taken" if is_valid_key(wanted) else "is not a valid key"
    return key, f"key {wanted!r} {problem}; stored as {key}"


def with_related(work: Work, key: str) -> Work:
    """``work`` linked to another version of itself (BibLaTeX's ``related`` field)."""
    extra = (*((k, v) for k, v in work.extra if k != "related"), ("related", key))
    return replace(work, extra=extra)
