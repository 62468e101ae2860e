"""refs.bib reader and writer, mirrors of each other around the ``Work`` model.

pybtex parses; ``chunks`` keeps every entry's original bytes so that only entries the
tool changes are re-serialized, and hand edits elsewhere survive byte for byte.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pybtex.database import BibliographyData, BibliographyDataError, Entry, Person
from pybtex.database.input.bibtex import DuplicateField
from pybtex.exceptions import PybtexError
from pybtex.scanner import PybtexSyntaxError

from ..bibsyntax import Chunk, append_fields, field_lines, split_chunks, stray_line, unclosed_entry_line
from ..compat import pybtex_strict
from ..errors import Code, ReadingListError, not_utf8
from ..model import Skip, Work
from ..sources import biblatex
from ..sources.bounds import TooLarge
from ..sources.fields import to_bibtex
from . import busy, fields, storefile
from .names import StoreParser, display_name, is_others, stored_name
from .pasted import split_pasted, standard

# Every entry type of BibTeX and BibLaTeX (the readers' table, with its aliases). ``set`` and
# ``xdata`` hold data for other entries and are no works.
ENTRY_TYPES = frozenset(biblatex.ENTRY_TYPES) | biblatex.DATA_ONLY
# A proceedings' DOI or URL is not its papers': inherited, it would make them all one work.
_OWN_IDENTIFIERS = frozenset({"doi", "url", "eprint", "isbn", "provenance", "inferredtitle", "abstract"})
FIELD_ORDER = fields.FIELD_ORDER
PRIVATE_FIELDS = fields.PRIVATE_FIELDS


@dataclass
class BibFile:
    """A parsed refs.bib: its text split into chunks, and pybtex's entries by key."""

    path: Path
    text: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    entries: dict[str, Entry] = field(default_factory=dict)
    skipped: list[Skip] = field(default_factory=list)  # entries a tolerant load left out
    # The file's line ending: the text is read with "\n" only, and written back with the file's own
    # ("\r\n" from Windows editors), so entries the tool did not touch keep their bytes.
    newline: str = "\n"

    def on_disk(self, text: str) -> str:
        """``text`` (as ``render`` makes it) with this file's line endings."""
        return text if self.newline == "\n" else text.replace("\n", self.newline)

    def works(self) -> list[Work]:
        """Every entry that is a work (not ``@xdata``/``@set``), with crossref and xdata fields inherited."""
        return [
            entry_to_work(key, entry, self._inherited(entry))
            for key, entry in self.entries.items()
            if entry.type.lower() not in biblatex.DATA_ONLY
        ]

    def _inherited(self, entry: Entry) -> dict[str, str]:
        values = lowered_fields(entry)
        for name in ("xdata", "crossref"):
            for parent_key in (k.strip() for k in values.get(name, "").split(",") if k.strip()):
                parent = self.entries.get(parent_key)
                if parent is not None and parent is not entry:
                    shared = {k: v for k, v in lowered_fields(parent).items() if k not in _OWN_IDENTIFIERS}
                    values = biblatex.inherit(values, shared, entry.type.lower(), parent.type.lower())
        return values

    def to_bibtex(
        self,
        replaced: dict[str, Entry],
        added: list[tuple[str, Entry | Work]],
        grown: dict[str, list[tuple[str, str]]] | None = None,
    ) -> str:
        """The file with ``replaced`` entries re-serialized in place, ``grown`` ones given new fields
        at their end (their own text kept) and ``added`` ones appended."""
        grown = grown or {}
        # A chunk ends at its closing brace; format_entry adds the newline that already follows it.
        parts = [
            format_entry(c.key, replaced[c.key]).rstrip("\n")
            if c.key in replaced
            else append_fields(c.text, grown[c.key])
            if c.key in grown
            else c.text
            for c in self.chunks
        ]
        text = "".join(parts).rstrip("\n")
        new = [format_entry(key, item) if isinstance(item, Entry) else format_work(key, item) for key, item in added]
        text = "\n\n".join(([text] if text.strip() else []) + [entry.rstrip("\n") for entry in new])
        return text + "\n"


READS = 5  # reads of a refs.bib that is being saved, before its error is the user's


def load(path: Path, *, tolerant: bool = False) -> BibFile:
    """Parse ``path``; a missing file is an empty store.

    Strict (the import, which rewrites the file): any problem is a one-line ``refs.bib:LINE`` error.
    Tolerant (generate): an entry that cannot be read is left out and listed in ``skipped``, so one
    pasted entry never fails the site.
    A file another process is writing is read once that process closes it (up to ``busy.WAIT``);
    one that changed while it was read is read again, so a half-saved file is not blamed on the user.
    """
    gave_up = False  # a writer outlasted the wait: read what is there, once
    for attempt in range(1, READS + 1):
        gave_up = gave_up or bool(busy.wait_closed(path).held)
        opened = storefile.open_store(path)
        if opened is None:
            return BibFile(path)
        last = attempt == READS or gave_up
        try:
            store = parse(path, opened.data, tolerant=tolerant)
        except ReadingListError:
            if last or _settled(opened):
                raise
            continue
        finally:
            opened.close()
        if last or _settled(opened):
            return store
    raise AssertionError("unreachable")


def _settled(opened: storefile.Opened) -> bool:
    """True if the file is as it was read: the same file, size and time, and no one writing it."""
    try:
        now = os.stat(opened.path)
    except OSError:
        return False
    same = (now.st_ino, now.st_size, now.st_mtime_ns) == (opened.info.st_ino, len(opened.data), opened.info.st_mtime_ns)
    if not same:
        time.sleep(busy.POLL)  # the writer is mid-save: give it a moment
    return same and not busy.writers(opened.path)


def parse(path: Path, data: bytes, *, tolerant: bool = False) -> BibFile:
    """The store in ``data``, the bytes of ``path`` (as :func:`load`, once)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, path, path.name) from None
    # Read as open() reads text: universal newlines, written back with the file's own (``newline``).
    store = _load(path, text.replace("\r\n", "\n").replace("\r", "\n"), tolerant)
    store.newline = "\r\n" if data.split(b"\n", 1)[0].endswith(b"\r") and b"\n" in data else "\n"
    return store


def _load(path: Path, text: str, tolerant: bool) -> BibFile:
    chunks = split_pasted(split_chunks(text))  # a pasted @web_page{...} is an entry, not text after one
    try:
        return _load_strict(path, text, chunks)
    except ReadingListError as exc:
        if not tolerant and exc.line is not None:
            raise
        from .tolerant import load_tolerant  # only a file with a problem pays for the entry-by-entry parse

        store = load_tolerant(path, text)
        if tolerant:
            return store
        if store.skipped:  # the strict error had no line: name the entry the tolerant parse found
            first = store.skipped[0]
            raise ReadingListError(
                f"{first.key or '(no key)'}: {first.reason}", str(path), first.line, code=Code.BAD_BIBTEX
            ) from None
        raise


def unreadable(path: Path, exc: OSError) -> ReadingListError:
    """The one-line error for a refs.bib that exists but cannot be read (a folder, no permission)."""
    return storefile.unreadable(path, exc)


def _load_strict(path: Path, text: str, chunks: list[Chunk]) -> BibFile:
    label = str(path)
    data = _parse(text, label, chunks)
    for chunk in chunks:
        if chunk.key is None:
            continue
        if chunk.key not in data.entries:
            raise ReadingListError(
                f"malformed entry (cannot read its key {chunk.key!r})", label, chunk.line, code=Code.BAD_BIBTEX
            )
        if (pasted := standard(data.entries[chunk.key])) is not None:
            data.entries[chunk.key] = pasted
        elif data.entries[chunk.key].type.lower() not in ENTRY_TYPES:
            raise ReadingListError(
                f"unknown entry type @{data.entries[chunk.key].type}", label, chunk.line, code=Code.BAD_BIBTEX
            )
    if len(data.entries) != sum(c.key is not None for c in chunks):
        raise ReadingListError(
            "malformed entries: cannot tell where each entry starts and ends", label, code=Code.BAD_BIBTEX
        )
    _check_stray_text(chunks, label)
    return BibFile(path, text, chunks, dict(data.entries))


def _check_stray_text(chunks: list[Chunk], label: str) -> None:
    """Refuse fields or a "}" between entries: BibTeX would drop them, and hand edits there with them."""
    for before, chunk in zip([None, *chunks], chunks, strict=False):
        line = stray_line(chunk)
        if line is None:
            continue
        if before is not None and before.key is not None:
            end = before.line + before.text.count("\n")
            message = f"entry {before.key!r} ends here, but text after it (line {line}) looks like part of it"
            raise ReadingListError(message + " (an extra '}'?)", label, end, code=Code.BAD_BIBTEX)
        raise ReadingListError(
            "text outside any entry looks like a field or a stray '}'", label, line, code=Code.BAD_BIBTEX
        )


def _parse(text: str, label: str, chunks: list[Chunk]) -> BibliographyData:
    try:
        with pybtex_strict():
            return StoreParser().parse_string(text)
    except TooLarge as exc:  # a macro bomb, or a value past the bounds: not a syntax error of the user's
        message = getattr(exc, "message", None) or str(exc)
        raise ReadingListError(message, label, getattr(exc, "lineno", None), code=Code.TOO_LARGE) from None
    except PybtexSyntaxError as exc:
        message = getattr(exc, "message", None) or str(exc)
        line = getattr(exc, "lineno", None)
        unclosed = unclosed_entry_line(text)
        if unclosed is not None and (line is None or unclosed < line):
            message, line = "entry is never closed (unbalanced braces)", unclosed
        raise ReadingListError(f"BibTeX syntax error: {message}", label, line, code=Code.BAD_BIBTEX) from None
    except DuplicateField as exc:
        raise _duplicate_field(str(exc), label, chunks) from None
    except BibliographyDataError as exc:
        key = str(exc).rsplit(":", 1)[-1].strip()
        lines = [c.line for c in chunks if c.key is not None and c.key.lower() == key.lower()]
        raise ReadingListError(
            f"duplicate citation key {key!r}", label, lines[-1] if lines else None, code=Code.DUPLICATE_KEY
        ) from None
    except PybtexError as exc:
        raise ReadingListError(f"BibTeX error: {exc}", label, code=Code.BAD_BIBTEX) from None


_DUPLICATE_FIELD = re.compile(r"entry with key (?P<key>.*) has a duplicate (?P<field>\S+) field")


def _duplicate_field(message: str, label: str, chunks: list[Chunk]) -> ReadingListError:
    """pybtex names the entry and field but not the line: find the field's second occurrence."""
    match = _DUPLICATE_FIELD.fullmatch(message)
    if match is None:
        return ReadingListError(f"BibTeX error: {message}", label, code=Code.BAD_BIBTEX)
    key, name = match["key"], match["field"].lower()
    for chunk in chunks:
        if chunk.key == key:
            lines = [line for field_name, line in field_lines(chunk) if field_name == name]
            line = lines[1] if len(lines) > 1 else chunk.line
            return ReadingListError(f"entry {key!r} has a duplicate {name!r} field", label, line, code=Code.BAD_BIBTEX)
    return ReadingListError(f"entry {key!r} has a duplicate {name!r} field", label, code=Code.BAD_BIBTEX)


def lowered_fields(entry: Entry) -> dict[str, str]:
    return {name.lower(): value for name, value in entry.fields.items()}


def entry_to_work(key: str, entry: Entry, values: dict[str, str] | None = None) -> Work:
    """The work an entry holds: its fields (BibLaTeX's read as BibTeX's) through the field table.

    ``values`` are the entry's fields with what it inherits (crossref, xdata) already added.
    """
    kind = entry.type.lower()
    values = to_bibtex(values if values is not None else lowered_fields(entry), kind)
    people = entry.persons.get("author", [])
    attrs = fields.read_fields(values)
    roles = entry.persons.items()
    others = tuple((role.lower(), " and ".join(map(str, p))) for role, p in roles if role.lower() != "author")
    return Work(
        key=key,
        authors=tuple(display_name(p) for p in people if not is_others(p)),
        et_al=any(is_others(p) for p in people),
        entry_type=kind,
        **{**attrs, "extra": attrs["extra"] + others},
    )


def work_to_entry(work: Work) -> Entry:
    people = [Person(stored_name(name)) for name in work.authors] + ([Person("others")] if work.et_al else [])
    return Entry(work.entry_type, fields=fields.write_fields(work), persons={"author": people} if people else {})


def format_entry(key: str, entry: Entry) -> str:
    """One entry in the house style: known fields first in a fixed order, the rest as found."""
    values = {name.lower(): value for name, value in entry.fields.items()}
    for role, people in entry.persons.items():
        values[role] = " and ".join(str(p) for p in people)
    return _formatted(entry.type, key, values)


def format_work(key: str, work: Work) -> str:
    """``format_entry(key, work_to_entry(work))``, without building pybtex's people (an import of
    10,000 records spent a second there): each name is formatted once."""
    values = fields.write_fields(work)
    names = [name_as_stored(n) for n in work.authors] + (["others"] if work.et_al else [])
    return _formatted(work.entry_type, key, {**values, "author": " and ".join(names)} if names else values)


@lru_cache(maxsize=1 << 16)
def name_as_stored(name: str) -> str:
    """A name as refs.bib holds it ("Family, Given"), from any form BibTeX reads."""
    name = stored_name(name)  # a bare % would start a comment: the rest of the line is lost
    # Plain capitalized words, as most names are: what pybtex makes of them, without its tokenizer
    # (a tenth of an import). "Family, Given ..." stays as it is; "Given ... Family" turns round.
    family, comma, given = name.partition(", ")
    if comma and _plain(family.split(" ")) and _plain(given.split(" ")):
        return name
    words = name.split(" ")
    if not comma and len(words) > 1 and _plain(words):
        return f"{words[-1]}, {' '.join(words[:-1])}"
    return str(Person(name))


def _plain(words: list[str]) -> bool:
    return all(_PLAIN_WORD.match(word) for word in words)


# A capitalized word of letters, dots, hyphens or apostrophes: no brace, comma, LaTeX or "von".
_PLAIN_WORD = re.compile(r"[A-Z][A-Za-z.'-]*\Z")


def _formatted(entry_type: str, key: str, values: dict[str, str]) -> str:
    order = [f for f in FIELD_ORDER if f in values] + [f for f in values if f not in FIELD_ORDER and f != "provenance"]
    order += ["provenance"] if "provenance" in values else []
    lines = [f"  {name} = {{{values[name]}}}," for name in order]
    return f"@{entry_type}{{{key},\n" + "\n".join(lines) + "\n}\n"
