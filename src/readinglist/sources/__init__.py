"""Source files: detect the format from the content and read it into raw records.

One module per format, registered in ``READERS`` (papis style): each has ``KIND``,
``looks_like(head, path)`` (the decoded start of the file; never the file name) and
``read(path, label) -> ReadResult``, and ``read_string(text, label)`` for a text already decoded
(``text.read_text``). The first reader whose ``looks_like`` is true reads the file.

Record text is as the file states it: LaTeX for the kinds in ``LATEX_KINDS`` (a BibTeX entry
as written, braces kept; CSL-JSON made LaTeX by its reader), plain scraped text for profile
dumps. A BibTeX name is in BibTeX's form (``von Last, Jr, First`` or ``First von Last``), one
name per item, so it must not be braced whole again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Protocol

from ..errors import Code, ReadingListError
from ..model import RawRecord, ReadResult
from ..years import EARLIEST, latest, plausible_year
from . import arxiv_listing, author_pairs, bibtex, csljson, warned
from .bounds import bounded
from .text import binary_data, read_text_and_nul

HEAD = 65536  # characters of the file that detection looks at
LATEX_KINDS = frozenset({bibtex.KIND, csljson.KIND})


class Reader(Protocol):
    KIND: str

    def looks_like(self, head: str, path: Path) -> bool: ...

    def read(self, path: Path, label: str) -> ReadResult: ...

    def read_string(self, text: str, label: str) -> ReadResult: ...


# Order matters only where two formats could both claim a file: the structured formats first.
READERS: tuple[Reader, ...] = (csljson, bibtex, arxiv_listing, author_pairs)


def read_source(path: Path, label: str | None = None) -> ReadResult:
    """Read one source file of any known format; ``label`` (default: the path) names it in records and errors."""
    return _read(path, label or str(path))[1]


def _read(path: Path, label: str) -> tuple[Reader, ReadResult]:
    text, nul = read_text_and_nul(path, label)
    if not text.strip():
        raise ReadingListError("the file is empty", label, 1, code=Code.EMPTY_FILE)
    head = text[:HEAD]
    for reader in READERS:
        if reader.looks_like(head, path):
            if nul is not None and reader.KIND not in LATEX_KINDS:
                raise binary_data(label, nul)  # in a text dump a NUL means a binary file; in a .bib, one bad byte
            return reader, plausible_years(bounded(reader.read_string(text, label)))
    line = next((n for n, text in enumerate(head.split("\n"), 1) if text.strip()), 1)
    raise ReadingListError(
        "not a bibliography file: expected BibTeX/BibLaTeX ('@type{key, ...}' entries), CSL-JSON (a JSON list), "
        "an arXiv listing ('arXiv<YEAR>' lines) or an owner line followed by author/abstract pairs",
        label,
        line,
        code=Code.UNKNOWN_FORMAT,
    )


def plausible_years(result: ReadResult) -> ReadResult:
    """``result`` with each year outside 1400..next year unknown, and a warning with its line.

    The BibTeX and CSL-JSON readers say so themselves (they know the year as written); this
    catches every other reader's, so no record leaves ``sources`` with an implausible year.
    """
    bad = [r for r in result.records if r.year is not None and plausible_year(r.year) is None]
    if not bad:
        return result
    why = "the year {} is not between {} and {}: read as unknown"
    notes = [warned.Warned(r.source.file, r.source.line, r.key, why.format(r.year, EARLIEST, latest())) for r in bad]
    ids = {id(r) for r in bad}
    records = tuple(replace(r, year=None) if id(r) in ids else r for r in result.records)
    return ReadResult(records, tuple(sorted((*result.skipped, *notes), key=lambda s: s.line)))


def read_dump(path: Path, label: str | None = None) -> list[RawRecord]:
    """The records of ``read_source`` (compatibility: the profile dumps' former entry point).

    As that entry point did, a profile dump's first skipped record is an error; ``read_source``,
    which the import uses, skips it and reads the rest.
    """
    reader, result = _read(path, label or str(path))
    skipped = warned.split(result.skipped)[0]
    if reader.KIND not in LATEX_KINDS and skipped:
        first = skipped[0]
        raise ReadingListError(first.reason, first.file, first.line, code=Code.BAD_DUMP)
    return list(result.records)


__all__ = ["LATEX_KINDS", "READERS", "Reader", "read_dump", "read_source"]
