"""The one input policy of every output: a work's year, links and source files, as any output may show them.

refs.bib is typed by people, so any field may hold anything: ``year = {²⁰²⁰}``, a Mendeley
``year = {6}``, ``url = {javascript:…}``, an absolute ``provenance`` path. Pages, Cite formats,
feeds, charts, downloads and records.json read such fields here, and nowhere else:

- a **year** is :func:`year_of` (``years.plausible_year``: 1400 to next year, else unknown); a
  citation prints :func:`year_text` (also "2020a" or "forthcoming" as written, never "6");
- **links** are :func:`safe_links` (only plainly safe addresses, from ``Work`` or its extras);
- a **source file** is :func:`public_file` (a path inside the project, else its name: no
  ``/home/<user>/…`` is ever published), and a reference manager's ``file`` or ``owner`` field
  is never published (:func:`is_private_field`).

Names go through ``enrich.credit`` (``page_authors``, ``work_credit``) and text through
``escape`` (``clean``, ``md_text``) and ``latex.to_text``. Every renderer is given an ``Inputs``
whose library is already :func:`normalised`, so a new page kind sees only plausible years
without asking; the hostile-input tests run every registered output over hostile entries.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..model import Library, Paper, Work
from ..years import plausible_year

SAFE_URL = re.compile(r"^https?://[A-Za-z0-9.\-]+(?::\d+)?(?:/[A-Za-z0-9._~%!$&'()*+,;=:@/?#\-]*)?$")
SAFE_DOI = re.compile(r"^10\.\d{4,9}/[A-Za-z0-9._;()/:\-]+$")
SAFE_EPRINT = re.compile(r"^(?:\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.I)
# A path that says where on someone's machine a file is: absolute, home-relative, a Windows
# drive or share, or one that climbs out of the project.
_PRIVATE_PATH = re.compile(r"^(?:[/\\~]|[A-Za-z]:)|(?:^|[/\\])\.\.(?:[/\\]|$)")


# Reference managers' bookkeeping that a hand-written refs.bib may still hold: a PDF's place on the
# user's disk (JabRef and Mendeley ``file``, BibDesk ``bdsk-file-1``, ``local-url``) and the user
# name (JabRef ``owner``). Never part of a citation, never published (the store drops them on import).
_PRIVATE_FIELD = re.compile(r"file|owner|local-url|mendeley-groups|bdsk-file-\d+")


def is_private_field(name: str) -> bool:
    return _PRIVATE_FIELD.fullmatch(name.strip().lower()) is not None


def extra_of(work: Work, name: str) -> str:
    """The stored field ``name`` (lower case) that ``Work`` keeps among its extras, stripped."""
    return next((v.strip() for k, v in work.extra if k.lower() == name), "")


def year_of(work: Work) -> int | None:
    """The work's year if it is plausible, else None: a chart, a range or a date never sees 6 or 99999."""
    return plausible_year(work.year)


def year_text(written: str) -> str:
    """A year as a citation prints it: a plausible year; words a person wrote ("2020a",
    "forthcoming", "MMXX") as written; "" for a number that is no plausible year ("6", "99999",
    "²⁰²⁰", which ``int`` would read as 2020 but no one types as a year)."""
    text = written.strip()
    year = plausible_year(text)
    if year is not None:
        return str(year)
    return "" if "".join(text.split()).isnumeric() else text


def doi_of(work: Work) -> str:
    """The bare DOI (``10.1145/x``), from ``doi:`` or a doi.org URL too."""
    return _DOI_PREFIX.sub("", (work.doi or extra_of(work, "doi")).strip())


def url_of(work: Work) -> str:
    return (work.url or extra_of(work, "url")).strip()


def safe_links(work: Work) -> dict[str, str]:
    """``eprint``, ``doi`` and ``url`` where each is plainly safe, "" where it is not: what a page links."""
    eprint, doi, url = work.eprint.strip(), doi_of(work), url_of(work)
    return {
        "eprint": eprint if SAFE_EPRINT.match(eprint) else "",
        "doi": doi if SAFE_DOI.match(doi) else "",
        "url": url if SAFE_URL.match(url) else "",
    }


def public_file(path: str) -> str:
    """A source file as outputs name it: a path relative to the project as stored; any other
    (``/home/ann/lib.bib``, ``C:\\Users\\ann\\lib.bib``, ``~/lib.bib``, ``../lib.bib``) by its name alone."""
    if not _PRIVATE_PATH.search(path):
        return path
    return re.split(r"[/\\]", path.rstrip("/\\"))[-1]


def normalised(library: Library) -> Library:
    """``library`` with every year plausible or None: what every renderer is given (``Inputs``).
    The same object when no year changes (the usual case), so caches keyed on it still hold."""
    papers = tuple(_normal(p) for p in library.papers)
    if all(new is old for new, old in zip(papers, library.papers, strict=True)):
        return library
    return replace(library, papers=papers)


def _normal(paper: Paper) -> Paper:
    year = year_of(paper.work)
    return paper if year == paper.work.year else replace(paper, work=replace(paper.work, year=year))
