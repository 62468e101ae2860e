"""refs.bib read entry by entry, for generate: a bad entry is left out and reported, never fatal.

Only a file the whole-file parse refused comes here. Each entry is parsed on its own, with the
``@string`` macros defined above it; an entry that is never closed ends at the next line that
starts with ``@``. What cannot be read becomes a ``Skip`` with its line, as
``refs.bib:LINE: key: reason``. An entry pasted under an exporter's own type (``@web_page``)
is read as the import reads it (``store/pasted.py``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from pybtex.database import Entry
from pybtex.database.input.bibtex import DuplicateField, month_names
from pybtex.exceptions import PybtexError
from pybtex.scanner import PybtexSyntaxError

from ..bibsyntax import Chunk, split_chunks, stray_line
from ..compat import pybtex_strict
from ..model import Skip
from .bibfile import ENTRY_TYPES, BibFile
from .names import StoreParser
from .pasted import split_pasted, standard

_ENTRY_START = re.compile(r"@\s*([A-Za-z][\w-]*)\s*[{(]\s*([^,\s{}()]*)")
# @article{title = ...} or @web_page{, ...}: Mendeley, EndNote
_KEYLESS = re.compile(r"\s*@\s*[A-Za-z][\w-]*\s*[{(]\s*(?:,|[A-Za-z][\w-]*\s*=)")


NO_KEY = "the entry has no key (give it one, or let `readinglist import FILE` make one)"


def load_tolerant(path: Path, text: str) -> BibFile:
    label = str(path)
    chunks, skipped = _resynced_chunks(text, label)
    chunks = split_pasted(chunks)
    broken = {s.line for s in skipped}  # chunks of entries never closed: already reported
    macros = dict(month_names)
    entries: dict[str, Entry] = {}
    first_line: dict[str, int] = {}
    kept: Chunk | None = None  # the entry chunk just before, if it was kept
    for chunk in chunks:
        if chunk.key is None:
            if not broken.intersection(range(chunk.line, chunk.line + chunk.text.count("\n") + 1)):
                _after_entry(chunk, kept, entries, skipped, label)
            _define_strings(chunk, macros)
            kept = None
            continue
        entry, reason = _parse_entry(chunk, macros)
        if entry is not None and chunk.key.lower() in first_line:
            reason = f"duplicate citation key (first at line {first_line[chunk.key.lower()]})"
        kept = chunk if entry is not None and not reason else None
        if kept is None:
            skipped.append(Skip(label, chunk.line, _shown_key(chunk), reason))
            continue
        entries[chunk.key] = entry
        first_line[chunk.key.lower()] = chunk.line
    skipped.sort(key=lambda s: s.line)
    return BibFile(path, text, chunks, entries, skipped)


def _resynced_chunks(text: str, label: str) -> tuple[list[Chunk], list[Skip]]:
    """The file's chunks; an entry that is never closed is skipped up to the next line starting with ``@``."""
    chunks: list[Chunk] = []
    skipped: list[Skip] = []
    pos, line = 0, 1
    while pos < len(text):
        part = [replace(c, line=c.line + line - 1) for c in split_chunks(text[pos:])]
        tail = part[-1] if part and part[-1].key is None else None
        start = _ENTRY_START.search(tail.text) if tail is not None else None
        if tail is None or start is None or stray_line(Chunk(tail.text[: start.start()], None, tail.line)):
            chunks += part
            break
        # split_chunks stopped at an unbalanced entry: everything from it on is its tail chunk.
        head = tail.text[: start.start()]
        resume = tail.text.find("\n@", start.start())
        end = len(tail.text) if resume < 0 else resume + 1
        entry_line = tail.line + head.count("\n")
        skipped.append(Skip(label, entry_line, start.group(2), "entry is never closed (unbalanced braces)"))
        chunks += [*part[:-1], Chunk(tail.text[:end], None, tail.line)]
        pos += len(text[pos:]) - len(tail.text) + end
        line = entry_line + tail.text[start.start() : end].count("\n")
    return chunks, skipped


def _parse_entry(chunk: Chunk, macros: dict[str, str]) -> tuple[Entry | None, str]:
    """The chunk's entry, or None and why it cannot be read."""
    parser = StoreParser(macros=macros)
    try:
        with pybtex_strict():
            data = parser.parse_string(chunk.text)
    except DuplicateField as exc:
        return None, f"duplicate {str(exc).rsplit(' ', 2)[-2].lower()!r} field"
    except PybtexSyntaxError as exc:
        if _KEYLESS.match(chunk.text):
            return None, NO_KEY
        return None, _syntax_reason(exc)
    except PybtexError as exc:
        return None, str(exc)
    entry = data.entries.get(chunk.key or "")
    if entry is None:
        return None, NO_KEY if _KEYLESS.match(chunk.text) else "malformed entry"
    if (pasted := standard(entry)) is not None:
        return pasted, ""
    if entry.type.lower() not in ENTRY_TYPES:
        return None, f"unknown entry type @{entry.type}"
    return entry, ""


def _syntax_reason(exc: PybtexSyntaxError) -> str:
    message = getattr(exc, "message", None) or str(exc)
    undefined = re.match(r"undefined string in line \d+: (.*)", message)
    return f"undefined @string {undefined.group(1)!r}" if undefined else f"BibTeX syntax error: {message}"


def _define_strings(chunk: Chunk, macros: dict[str, str]) -> None:
    """Add the chunk's ``@string`` definitions; a broken one defines nothing (its users are skipped)."""
    if not re.match(r"\s*@\s*string\s*[{(]", chunk.text, re.I):
        return
    parser = StoreParser(macros=macros)
    try:
        parser.parse_string(chunk.text)
    except PybtexError:
        return
    macros.update(parser.macros)


def _after_entry(
    chunk: Chunk, before: Chunk | None, entries: dict[str, Entry], skipped: list[Skip], label: str
) -> None:
    """Text between entries that looks like fields or a stray ``}``: the entry before it lost them."""
    line = stray_line(chunk)
    if line is None:
        return
    if before is not None and before.key is not None and before.key in entries:
        del entries[before.key]
        reason = f"text after the entry (line {line}) looks like part of it (an extra '}}'?)"
        skipped.append(Skip(label, before.line, before.key, reason))
        return
    skipped.append(Skip(label, line, "", "text outside any entry looks like a field or a stray '}'"))


def _shown_key(chunk: Chunk) -> str:
    return "" if chunk.key is None or _KEYLESS.match(chunk.text) else chunk.key
