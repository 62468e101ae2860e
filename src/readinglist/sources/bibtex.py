"""BibTeX and BibLaTeX files: pybtex's scanner reads them, BibLaTeX's data model is mapped on top.

Each entry becomes a ``RawRecord`` with its text fields as the entry gives them (LaTeX, braces
kept); an entry that cannot be read becomes a ``Skip`` with its line and reason. ``@string``
macros (the month macros too) and ``crossref``/``xdata`` inheritance are expanded first.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

from .. import arxiv_categories
from ..model import RawRecord, ReadResult, Skip, SourceRef
from ..years import EARLIEST, latest, plausible_year
from . import biblatex
from .bibkeys import Keys
from .bibnames import names, names_warning
from .bibscan import RawEntry, Scanner
from .exporters import EXPORTER_TYPES, NOT_WORKS, UNKNOWN_AS
from .fields import (
    BIBLIOGRAPHIC,
    arxiv_eprint,
    normalize_doi,
    public_url,
    split_keywords,
    to_bibtex,
)
from .text import read_text
from .warned import Warned

KIND = "bibtex"
MAX_INHERITANCE = 8  # crossref/xdata levels followed (biblatex needs two; a hostile chain must not recurse deep)
_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*[A-Za-z][\w-]*[ \t]*[{(]", re.M)  # @web_page{ too
_ARXIV_IN_TEXT = re.compile(r"\barXiv:(\d{4}\.\d{4,5}(?:v\d+)?)\b", re.I)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:\.pdf)?$", re.I)


def looks_like(head: str, path: Path) -> bool:
    """An ``@type{`` or ``@type(`` at the start of a line: BibTeX, whatever the file is called."""
    return bool(_ENTRY_START.search(head))


def read(path: Path, label: str) -> ReadResult:
    return read_string(read_text(path, label), label)


def read_string(text: str, label: str) -> ReadResult:
    scanner = Scanner(text)
    entries = list(scanner.entries())
    skips = [(Warned if p.warning else Skip)(label, p.line, p.key, p.reason) for p in scanner.problems]
    entries, more = _checked(entries, label)
    skips += more
    records = []
    for entry, fields in _resolved(entries):
        try:
            record = _record(entry, fields, label)
        except ValueError as exc:
            skips.append(Skip(label, entry.line, entry.key, str(exc)))
            continue
        records.append(record)
        skips += _year_warning(record, fields) + _url_warning(record, fields) + names_warning(record, fields)
    skips.sort(key=lambda s: s.line)
    return ReadResult(tuple(records), tuple(skips))


def standard_type(written: str) -> str:
    """The BibTeX/BibLaTeX type an entry type is read as: its alias's, its exporter's, else ``misc``."""
    lower = written.lower()
    return biblatex.ENTRY_TYPES.get(lower) or EXPORTER_TYPES.get(lower) or UNKNOWN_AS


def _checked(entries: list[RawEntry], label: str) -> tuple[list[RawEntry], list[Skip]]:
    """Entries of every type but style settings, each under a key of its own, each field once.

    As BibTeX does, an unknown type is read as ``@misc`` and a repeated field keeps its first
    value, each with a warning; a key another entry of the file has is renamed.
    """
    kept: list[RawEntry] = []
    skips: list[Skip] = []
    keys = Keys(entries)
    for entry in entries:
        entry_type = entry.type.lower()
        if entry_type in NOT_WORKS:
            continue
        if not _known(entry_type):
            why = f"unknown entry type @{entry.type}: imported as @{UNKNOWN_AS}"
            skips.append(Warned(label, entry.line, entry.key, why))
        entry, more = _first_fields(entry, label)
        renamed, why = keys.own(entry)
        skips += more + ([Warned(label, entry.line, entry.key, why)] if why else [])
        kept.append(replace(entry, key=renamed))
    return kept, skips


def _known(entry_type: str) -> bool:
    return entry_type in biblatex.ENTRY_TYPES or entry_type in EXPORTER_TYPES or entry_type in biblatex.DATA_ONLY


def _first_fields(entry: RawEntry, label: str) -> tuple[RawEntry, list[Skip]]:
    """``entry`` with each field once: the first value, as BibTeX keeps it, and a warning per repeat."""
    seen: dict[str, str] = {}
    for name, value in entry.fields:
        seen.setdefault(name.lower(), value)
    if len(seen) == len(entry.fields):
        return entry, []
    counts = Counter(name.lower() for name, _ in entry.fields)
    repeated = [name for name, n in counts.items() if n > 1]
    why = "the field {!r} is given twice: the first is kept"
    warnings: list[Skip] = [Warned(label, entry.line, entry.key, why.format(n)) for n in repeated]
    return replace(entry, fields=list(seen.items())), warnings


def _resolved(entries: list[RawEntry]) -> list[tuple[RawEntry, dict[str, str]]]:
    """Each paper entry with its xdata and crossref fields filled in; containers and data entries left out."""
    own = {e.key.lower(): (e, {n.lower(): v for n, v in e.fields}) for e in entries if e.key}
    targets = {fields["crossref"].strip().lower() for _, fields in own.values() if "crossref" in fields}
    implicit = _file_header(own)
    targets |= {implicit} if implicit else set()
    out = []
    for entry in entries:
        entry_type = standard_type(entry.type)
        fields = own[entry.key.lower()][1] if entry.key else {n.lower(): v for n, v in entry.fields}
        if entry.type.lower() in biblatex.DATA_ONLY or _header(entry, entry_type, fields, targets):
            continue
        if implicit and entry_type == "inproceedings" and not {"crossref", "booktitle"} & fields.keys():
            fields = {**fields, "crossref": implicit}
        out.append((entry, _inherited(fields, entry_type, own, set())))
    return out


def _file_header(own: dict[str, tuple[RawEntry, dict[str, str]]]) -> str:
    """The key of a file's one title-less ``@Proceedings`` header, else empty.

    PMLR's volume files (``@Proceedings{CoRL-2019, booktitle = ..., year = ...}`` and then
    ``@InProceedings`` papers with no booktitle, year or crossref) leave the header to apply to
    every paper: a paper with neither booktitle nor crossref takes it as its crossref.
    """
    headers = [key for key, (entry, fields) in own.items()
               if standard_type(entry.type) in biblatex.CONTAINERS and not fields.get("title", "").strip()]  # fmt: skip
    return headers[0] if len(headers) == 1 else ""


def _header(entry: RawEntry, entry_type: str, fields: dict[str, str], targets: set[str]) -> bool:
    """A proceedings that its papers' crossref names (or the file's one title-less header, PMLR's
    ``@Proceedings{CoRL-2019, booktitle = ...}``), or a title-less collection they name: the
    papers' venue, not a paper. Any other entry without a title is skipped as one."""
    untitled = not fields.get("title", "").strip()
    return entry.key.lower() in targets and (entry_type in biblatex.CONTAINERS or untitled)


def _inherited(
    fields: dict[str, str], entry_type: str, own: dict[str, tuple[RawEntry, dict[str, str]]], seen: set[str]
) -> dict[str, str]:
    """``fields`` with xdata's fields, then crossref's (recursively; a cycle stops), filled in."""
    for name in ("xdata", "crossref"):
        for key in (k.strip().lower() for k in fields.get(name, "").split(",") if k.strip()):
            if key in seen or key not in own or len(seen) >= MAX_INHERITANCE:
                continue
            parent, parent_fields = own[key]
            parent_type = standard_type(parent.type)
            resolved = _inherited(parent_fields, parent_type, own, seen | {key})
            fields = biblatex.inherit(fields, resolved, entry_type, parent_type)
    return fields


def _record(entry: RawEntry, raw: dict[str, str], label: str) -> RawRecord:
    entry_type = standard_type(entry.type)
    fields = to_bibtex({n: fold_spaces(v) for n, v in raw.items()}, entry_type)
    if entry_type != entry.type.lower() and entry.type.lower() not in biblatex.ENTRY_TYPES:
        fields.setdefault("entrysubtype", entry.type.lower())  # Mendeley's @web_page stays visible
        if entry_type in ("incollection", "inproceedings") and fields.get("journal") and not fields.get("booktitle"):
            fields["booktitle"] = fields.pop("journal")  # Mendeley's @book_section names its book "journal"
    title = fields.get("title", "")
    authors, et_al = names(fields.get("author", ""))
    if not title:
        raise ValueError("the entry has no title")
    categories, keywords = _tags(fields)
    return RawRecord(
        source=SourceRef(label, entry.line, kind=KIND),
        title=title,
        authors=authors,
        et_al=et_al,
        year=_year(fields.get("year", "")),
        abstract=fields.get("abstract", ""),
        categories=categories,
        key=entry.key,
        entry_type=entry_type,
        doi=normalize_doi(fields.get("doi", "")),
        eprint=_eprint(fields),
        url=public_url(_url(fields)),
        keywords=keywords,
        fields=_kept(fields),
    )


def fold_spaces(value: str) -> str:
    """``" ".join(value.split())``, without rebuilding a value that has nothing to fold (most).

    Whitespace but " " is never printable (Zs, Zl, Zp, Cc), so a printable value with no double
    space and none at its ends is already folded; each test runs in C.
    """
    if "  " in value or value[:1].isspace() or value[-1:].isspace() or not value.isprintable():
        return " ".join(value.split())
    return value


def _tags(fields: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """arXiv categories (``primaryclass`` first) apart from the user's keywords and Mendeley's tags."""
    ids = arxiv_categories.ids()
    words = split_keywords(fields.get("keywords", "")) + split_keywords(fields.get("mendeley-tags", ""))
    primary = fields.get("primaryclass", "").strip()
    categories = dict.fromkeys(([primary] if primary in ids else []) + [w for w in words if w in ids])
    return tuple(categories), tuple(dict.fromkeys(w for w in words if w not in ids))


def _eprint(fields: dict[str, str]) -> str:
    prefix = fields.get("archiveprefix", "").strip().lower()
    if prefix in ("", "arxiv") and arxiv_eprint(fields.get("eprint", "")):
        return arxiv_eprint(fields["eprint"])
    match = _ARXIV_URL.search(fields.get("url", "").strip())
    if match:
        return arxiv_eprint(match.group(1))
    # Google Scholar and JabRef: journal = {arXiv preprint arXiv:1810.04805}.
    match = _ARXIV_IN_TEXT.search(fields.get("journal", "") + " " + fields.get("note", ""))
    return arxiv_eprint(match.group(1)) if match else ""


def _year(value: str) -> int | None:
    return plausible_year(value)


def _digits(value: str) -> bool:
    """A year of ASCII digits: a number, plausible or not (text such as "2021a" is kept as written)."""
    return bool(re.fullmatch(r"\s*[0-9]+\s*", value))


def _year_warning(record: RawRecord, fields: dict[str, str]) -> list[Skip]:
    """A year that is a number but not a plausible one (Mendeley's ``year = {6}``): unknown, and said."""
    if record.year is not None:
        return []
    value = to_bibtex(fields, record.entry_type).get("year", "")
    if not _digits(value):
        return []
    why = f"the year {value.strip()[:12]!r} is not between {EARLIEST} and {latest()}: read as unknown"
    return [Warned(record.source.file, record.source.line, record.key, why)]


def _url(fields: dict[str, str]) -> str:
    return fields.get("url", "") or fields.get("bdsk-url-1", "")


def _url_warning(record: RawRecord, fields: dict[str, str]) -> list[Skip]:
    """A URL of a file on the exporter's disk (``file:///Users/ann/...``): not kept, and said."""
    if public_url(_url(fields)) == _url(fields).strip():
        return []
    why = "the url names a file on your own disk (file:, C:\\, /home/...): not kept, so no page publishes it"
    return [Warned(record.source.file, record.source.line, record.key, why)]


def _kept(fields: dict[str, str]) -> tuple[tuple[str, str], ...]:
    kept = [(name, value) for name, value in fields.items() if name in BIBLIOGRAPHIC and value]
    kept = [(name, value) for name, value in kept if name != "year" or not _digits(value)]
    if fields.get("editor"):
        editors, et_al = names(fields["editor"])
        kept = [(n, " and ".join(editors + (("others",) if et_al else ())) if n == "editor" else v) for n, v in kept]
    return tuple(kept)
