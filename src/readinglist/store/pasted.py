"""Entries pasted into refs.bib from a reference manager, under its own type (``@web_page{...}``).

The chunk split (``bibsyntax``) knows entry types of letters only, as BibTeX's standard ones are.
Left alone, a Mendeley ``@web_page{...}`` pasted by hand would be text between entries whose
``author = {...}`` lines look like fields lost from the entry above: that entry would be dropped
and the pasted one never seen. Here such an entry is split out as an entry chunk of its own, and
read as the import reads the exporter's file: the standard type (``@online``), the original kept
in ``entrysubtype``. A type in no table stays unknown, reported on its own line.
"""

from __future__ import annotations

import re

from pybtex.database import Entry

from ..bibsyntax import Chunk, closing, line_counter
from ..sources.exporters import EXPORTER_TYPES

_EXPORTER_START = re.compile(r"@\s*([A-Za-z][\w-]*[_\d-][\w-]*)\s*([{(])")  # a type the chunk split passes over
_NON_ENTRY = re.compile(r"@\s*(?:comment|string|preamble)\s*[{(]", re.I)


def split_pasted(chunks: list[Chunk]) -> list[Chunk]:
    """``chunks`` with each entry of an exporter's type in the text between entries split out."""
    return [part for chunk in chunks for part in _split(chunk)]


def standard(entry: Entry) -> Entry | None:
    """An exporter's entry as the import stores it (None if its type is no exporter's)."""
    kind = EXPORTER_TYPES.get(entry.type.lower())
    if kind is None:
        return None
    fields = dict(entry.fields)
    fields.setdefault("entrysubtype", entry.type.lower())
    return Entry(kind, fields, entry.persons)


def _split(chunk: Chunk) -> list[Chunk]:
    if chunk.key is not None or _NON_ENTRY.match(chunk.text):
        return [chunk]
    parts: list[Chunk] = []
    text, pos, line_of = chunk.text, 0, line_counter(chunk.text)
    for match in _EXPORTER_START.finditer(text):
        end = closing(text, match.end(), match.group(2)) if match.start() >= pos else None
        if end is None:
            continue  # inside an entry split off already, or never closed: left as text
        if match.start() > pos:
            parts.append(Chunk(text[pos : match.start()], None, chunk.line + line_of(pos) - 1))
        body = text[match.start() : end]
        key = re.split(r"[,\s]", body[match.end() - match.start() : -1].strip(), maxsplit=1)[0].strip()
        parts.append(Chunk(body, key, chunk.line + line_of(match.start()) - 1))
        pos = end
    return [*parts, Chunk(text[pos:], None, chunk.line + line_of(pos) - 1)] if parts else [chunk]
