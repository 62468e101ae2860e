"""refs.bib reader and writer, mirrors of each other around the ``Work`` model.

pybtex parses; ``chunks`` keeps every entry's original bytes so that only entries the
tool changes are re-serialized, and hand edits elsewhere survive byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pybtex.errors
from pybtex.database import BibliographyData, BibliographyDataError, Entry, Person
from pybtex.database.input.bibtex import DuplicateField, Parser
from pybtex.exceptions import PybtexError
from pybtex.scanner import PybtexSyntaxError

from ..errors import ReadingListError
from ..latex import dump_to_latex, protect_title, to_text
from ..model import SourceRef, Work
from .chunks import Chunk, field_lines, split_chunks, stray_line, unclosed_entry_line

FIELD_ORDER = (
    "title", "inferredtitle", "author", "year", "abstract", "keywords",
    "archiveprefix", "primaryclass", "eprint", "provenance",
)  # fmt: skip
ENTRY_TYPES = frozenset(
    "article book booklet conference inbook incollection inproceedings manual mastersthesis "
    "misc phdthesis proceedings techreport unpublished online report thesis software dataset".split()
)
_PROVENANCE = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?:\s+\((?P<owner>[^)]*)\))?(?:\s+\[(?P<why>[^\]]*)\])?$")


@dataclass
class BibFile:
    """A parsed refs.bib: its text split into chunks, and pybtex's entries by key."""

    path: Path
    text: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    entries: dict[str, Entry] = field(default_factory=dict)

    def works(self) -> list[Work]:
        return [entry_to_work(key, entry) for key, entry in self.entries.items()]

    def render(self, replaced: dict[str, Entry], added: list[tuple[str, Entry]]) -> str:
        # A chunk ends at its closing brace; format_entry adds the newline that already follows it.
        parts = [
            format_entry(c.key, replaced[c.key]).rstrip("\n") if c.key in replaced else c.text for c in self.chunks
        ]
        text = "".join(parts).rstrip("\n")
        new = [format_entry(key, entry) for key, entry in added]
        text = "\n\n".join(([text] if text.strip() else []) + [entry.rstrip("\n") for entry in new])
        return text + "\n"


def load(path: Path) -> BibFile:
    """Parse ``path``; a missing file is an empty store."""
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return BibFile(path)
    except UnicodeDecodeError as exc:
        raise ReadingListError("refs.bib is not valid UTF-8", label, exc.object[: exc.start].count(b"\n") + 1) from None
    except OSError as exc:
        raise unreadable(path, exc) from None
    chunks = split_chunks(text)
    data = _parse(text, label, chunks)
    for chunk in chunks:
        if chunk.key is None:
            continue
        if chunk.key not in data.entries:
            raise ReadingListError(f"malformed entry (cannot read its key {chunk.key!r})", label, chunk.line)
        if data.entries[chunk.key].type.lower() not in ENTRY_TYPES:
            raise ReadingListError(f"unknown entry type @{data.entries[chunk.key].type}", label, chunk.line)
    if len(data.entries) != sum(c.key is not None for c in chunks):
        raise ReadingListError("malformed entries: cannot tell where each entry starts and ends", label)
    _check_stray_text(chunks, label)
    return BibFile(path, text, chunks, dict(data.entries))


def unreadable(path: Path, exc: OSError) -> ReadingListError:
    """The one-line error for a refs.bib that exists but cannot be read (a folder, no permission)."""
    return ReadingListError(f"cannot read: {exc.strerror or exc}", path)


def _check_stray_text(chunks: list[Chunk], label: str) -> None:
    """Refuse fields or a "}" between entries: BibTeX would drop them, and hand edits there with them."""
    for before, chunk in zip([None, *chunks], chunks, strict=False):
        line = stray_line(chunk)
        if line is None:
            continue
        if before is not None and before.key is not None:
            end = before.line + before.text.count("\n")
            message = f"entry {before.key!r} ends here, but text after it (line {line}) looks like part of it"
            raise ReadingListError(message + " (an extra '}'?)", label, end)
        raise ReadingListError("text outside any entry looks like a field or a stray '}'", label, line)


def _parse(text: str, label: str, chunks: list[Chunk]) -> BibliographyData:
    pybtex.errors.set_strict_mode(True)
    try:
        return Parser().parse_string(text)
    except PybtexSyntaxError as exc:
        message = getattr(exc, "message", None) or str(exc)
        line = getattr(exc, "lineno", None)
        unclosed = unclosed_entry_line(text)
        if unclosed is not None and (line is None or unclosed < line):
            message, line = "entry is never closed (unbalanced braces)", unclosed
        raise ReadingListError(f"BibTeX syntax error: {message}", label, line) from None
    except DuplicateField as exc:
        raise _duplicate_field(str(exc), label, chunks) from None
    except BibliographyDataError as exc:
        key = str(exc).rsplit(":", 1)[-1].strip()
        lines = [c.line for c in chunks if c.key is not None and c.key.lower() == key.lower()]
        raise ReadingListError(f"duplicate citation key {key!r}", label, lines[-1] if lines else None) from None
    except PybtexError as exc:
        raise ReadingListError(f"BibTeX error: {exc}", label) from None


_DUPLICATE_FIELD = re.compile(r"entry with key (?P<key>.*) has a duplicate (?P<field>\S+) field")


def _duplicate_field(message: str, label: str, chunks: list[Chunk]) -> ReadingListError:
    """pybtex names the entry and field but not the line: find the field's second occurrence."""
    match = _DUPLICATE_FIELD.fullmatch(message)
    if match is None:
        return ReadingListError(f"BibTeX error: {message}", label)
    key, name = match["key"], match["field"].lower()
    for chunk in chunks:
        if chunk.key == key:
            lines = [line for field_name, line in field_lines(chunk) if field_name == name]
            line = lines[1] if len(lines) > 1 else chunk.line
            return ReadingListError(f"entry {key!r} has a duplicate {name!r} field", label, line)
    return ReadingListError(f"entry {key!r} has a duplicate {name!r} field", label)


def entry_to_work(key: str, entry: Entry) -> Work:
    fields = entry.fields
    people = entry.persons.get("author", [])
    title = fields.get("title", "")
    known = {f.lower() for f in FIELD_ORDER}
    return Work(
        key=key,
        title=title,
        title_inferred=bool(title) and fields.get("inferredtitle", "") == title,
        authors=tuple(display_name(p) for p in people if str(p) != "others"),
        et_al=any(str(p) == "others" for p in people),
        year=_year(fields.get("year", "")),
        abstract=fields.get("abstract", ""),
        categories=tuple(c.strip() for c in re.split(r"[,;]", fields.get("keywords", "")) if c.strip()),
        eprint=fields.get("eprint", ""),
        sources=parse_provenance(fields.get("provenance", "")),
        entry_type=entry.type.lower(),
        extra=tuple((k, v) for k, v in fields.items() if k.lower() not in known),
    )


def _year(value: str) -> int | None:
    """A year of ASCII digits; anything else ("forthcoming", "²⁰²⁰", "n.d.") is an unknown year.

    ``str.isdigit`` also accepts superscripts, which ``int`` refuses; a 5,000-digit number is
    refused by ``int`` too.
    """
    match = re.fullmatch(r"\s*([0-9]{1,4})\s*", value)
    return int(match.group(1)) if match else None


def display_name(person: Person) -> str:
    parts = person.first_names + person.middle_names + person.prelast_names + person.last_names + person.lineage_names
    return to_text(" ".join(parts))


def work_to_entry(work: Work) -> Entry:
    fields: dict[str, str] = {"title": work.title}
    if work.title_inferred:
        fields["inferredtitle"] = work.title
    if work.year:
        fields["year"] = str(work.year)
    if work.abstract:
        fields["abstract"] = work.abstract
    if work.categories:
        fields["keywords"] = ", ".join(work.categories)
        fields["archiveprefix"] = "arXiv"
        fields["primaryclass"] = work.categories[0]
    if work.eprint:
        fields["eprint"] = work.eprint
    fields["provenance"] = format_provenance(work.sources)
    people = [Person(name) for name in work.authors] + ([Person("others")] if work.et_al else [])
    return Entry(work.entry_type, fields=fields, persons={"author": people} if people else {})


def format_provenance(sources: tuple[SourceRef, ...]) -> str:
    return "; ".join(
        f"{s.file}:{s.line}" + (f" ({s.owner})" if s.owner else "") + (f" [{s.why}]" if s.why else "") for s in sources
    )


def parse_provenance(value: str) -> tuple[SourceRef, ...]:
    refs = []
    for part in value.split(";"):
        match = _PROVENANCE.match(" ".join(part.split()))
        if match:
            refs.append(SourceRef(match["file"], int(match["line"]), match["owner"] or "", match["why"] or ""))
    return tuple(refs)


def format_entry(key: str, entry: Entry) -> str:
    """One entry in the house style: known fields first in a fixed order, the rest as found."""
    values = {name.lower(): value for name, value in entry.fields.items()}
    for role, people in entry.persons.items():
        values[role] = " and ".join(str(p) for p in people)
    order = [f for f in FIELD_ORDER if f in values] + [f for f in values if f not in FIELD_ORDER]
    lines = [f"  {name} = {{{values[name]}}}," for name in order]
    return f"@{entry.type}{{{key},\n" + "\n".join(lines) + "\n}\n"


PRIVATE_FIELDS = frozenset({"inferredtitle", "provenance", "abstract"})


def public_entry(entry: Entry) -> Entry:
    """The entry as a reader copies it: without the tool's bookkeeping fields or the abstract."""
    fields = {k: v for k, v in entry.fields.items() if k.lower() not in PRIVATE_FIELDS}
    for name in [k for k in fields if k.lower() == "title"]:
        # Plain text, re-escaped: no markup of the record's reaches the page, and it still compiles.
        fields[name] = protect_title(dump_to_latex(to_text(fields[name])))
    return Entry(entry.type, fields=fields, persons=dict(entry.persons))
