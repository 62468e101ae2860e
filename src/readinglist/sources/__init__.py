"""Source files: detect the format from the content and read it into raw records.

One module per format, each a row of ``FORMATS`` (papis style), the one table that names the
formats: the detection order, the command line's help, the file types a new list imports from
``conf/sources/`` (``readinglist init`` writes them from here), the "About this record" words and
the error on a file no reader claims all come from it. A reader module has ``KIND``,
``looks_like(head, path)`` (the decoded start of the file; never the file name),
``read(path, label) -> ReadResult`` and ``read_string(text, label)`` for a text already decoded
(``text.read_text``); it is imported when a file is read, so the table costs the command line
nothing. The first reader whose ``looks_like`` is true reads the file.

Record text is as the file states it: LaTeX for the kinds in ``LATEX_KINDS`` (a BibTeX entry
as written, braces kept; CSL-JSON made LaTeX by its reader), plain scraped text for profile
dumps. A BibTeX name is in BibTeX's form (``von Last, Jr, First`` or ``First von Last``), one
name per item, so it must not be braced whole again.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, cast

from ..errors import Code, ReadingListError
from ..model import SOURCE_KINDS, RawRecord, ReadResult
from ..years import EARLIEST, latest, plausible_year
from . import warned

HEAD = 65536  # characters of the file that detection looks at


class Reader(Protocol):
    KIND: str

    def looks_like(self, head: str, path: Path) -> bool: ...

    def read(self, path: Path, label: str) -> ReadResult: ...

    def read_string(self, text: str, label: str) -> ReadResult: ...


@dataclass(frozen=True)
class Format:
    """One import format: its reader and everything the tool says about it.

    ``module``: the reader under sources/; ``kind``: its ``KIND``, the ``SourceRef.kind`` of its
    records; ``name``: how a page names that kind ("BibTeX: mine.bib:12"); ``files``: how the help
    and a new list's READMEs name its files; ``shape``: what such a file looks like, for the error
    on a file no reader claims; ``suffixes``: the file types a new list imports from
    ``conf/sources/``; ``latex``: its record text is LaTeX; ``about``: the "About this record"
    words (default: "<name> import").
    """

    module: str
    kind: str
    name: str
    files: str
    shape: str
    suffixes: tuple[str, ...]
    latex: bool = False
    about: str = ""

    @property
    def reader(self) -> Reader:
        return _reader(self.module)

    @property
    def words(self) -> str:
        return self.about or f"{self.name} import"


# Order matters only where two formats could both claim a file: the structured formats first.
FORMATS = (
    Format("csljson", "csl-json", "CSL-JSON", "CSL-JSON", "a JSON list", (".json",), latex=True),
    Format("bibtex", "bibtex", "BibTeX", "BibTeX/BibLaTeX", "'@type{key, ...}' entries", (".bib",), latex=True),
    Format(
        "arxiv_listing", "profile", "author profile", "arXiv listing", "'arXiv<YEAR>' lines", (".txt",),
        about="author profile",
    ),
    Format(
        "author_pairs", "profile", "author profile", "profile dump", "an owner line, then author/abstract pairs",
        (".txt",), about="author profile",
    ),
)  # fmt: skip
LATEX_KINDS = frozenset(f.kind for f in FORMATS if f.latex)


@functools.cache
def _reader(module: str) -> Reader:
    return cast(Reader, importlib.import_module(f"{__name__}.{module}"))


def __getattr__(name: str) -> tuple[Reader, ...]:
    """``READERS``, the readers in detection order: imported on first use, not with the table."""
    if name == "READERS":
        return tuple(f.reader for f in FORMATS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def listed(word: str = "and") -> str:
    """The formats' files in words: "CSL-JSON, BibTeX/BibLaTeX, arXiv listing and profile dump"."""
    names = list(dict.fromkeys(f.files for f in FORMATS))
    return f"{', '.join(names[:-1])} {word} {names[-1]}" if len(names) > 1 else names[0]


def source_globs(folder: str = "conf/sources") -> list[str]:
    """The globs of ``folder`` that a new list imports: one per file type a format reads."""
    return [f"{folder}/*{suffix}" for suffix in dict.fromkeys(s for f in FORMATS for s in f.suffixes)]


def kinds() -> frozenset[str]:
    """Every source kind a record may carry: the formats' and model.SOURCE_KINDS's (what refs.bib's
    provenance may name, ``{csl-json}``)."""
    return frozenset(SOURCE_KINDS) | {f.kind for f in FORMATS}


def kind_name(kind: str) -> str:
    """How a page names a source kind: a format's name, else model.SOURCE_KINDS's ("arXiv API")."""
    return next((f.name for f in FORMATS if f.kind == kind), None) or SOURCE_KINDS.get(kind, kind)


def about_words(kind: str) -> str:
    """What "About this record" calls a record of ``kind``: "BibTeX import", "arXiv API"."""
    return next((f.words for f in FORMATS if f.kind == kind), None) or SOURCE_KINDS.get(kind, kind)


def read_source(path: Path, label: str | None = None) -> ReadResult:
    """Read one source file of any known format; ``label`` (default: the path) names it in records and errors."""
    return _read(path, label or str(path))[1]


def _read(path: Path, label: str) -> tuple[Reader, ReadResult]:
    from .bounds import bounded  # with pybtex: only when a file is read
    from .text import binary_data, read_text_and_nul

    text, nul = read_text_and_nul(path, label)
    if not text.strip():
        raise ReadingListError("the file is empty", label, 1, code=Code.EMPTY_FILE)
    head = text[:HEAD]
    for form in FORMATS:
        if form.reader.looks_like(head, path):
            if nul is not None and not form.latex:
                raise binary_data(label, nul)  # in a text dump a NUL means a binary file; in a .bib, one bad byte
            return form.reader, plausible_years(bounded(form.reader.read_string(text, label)))
    line = next((n for n, text in enumerate(head.split("\n"), 1) if text.strip()), 1)
    shapes = [f"{f.files} ({f.shape})" for f in FORMATS]
    expected = f"{', '.join(shapes[:-1])} or {shapes[-1]}"
    raise ReadingListError(f"not a bibliography file: expected {expected}", label, line, code=Code.UNKNOWN_FORMAT)


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


__all__ = [
    "FORMATS",
    "LATEX_KINDS",
    "Format",
    "Reader",
    "about_words",
    "kind_name",
    "listed",
    "read_dump",
    "read_source",
]
