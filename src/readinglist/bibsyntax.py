"""Split a .bib file into entries and the text between them, so untouched entries keep their bytes.

pybtex parses field values but drops comments and formatting; this scanner only finds
where each ``@type{key, ...}`` starts and ends, so the writer can replace one entry in place.
It sits below every stage: ``store`` (the refs.bib writer) and ``sources`` (the BibTeX reader,
which resynchronizes after a broken entry) both use it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

_ENTRY_START = re.compile(r"@\s*([A-Za-z]+)\s*([{(])")
_NON_ENTRIES = {"comment", "string", "preamble"}


@dataclass(frozen=True)
class Chunk:
    text: str
    key: str | None = None  # None for comments, @string, @preamble and free text
    line: int = 1


def _entries(text: str) -> Iterator[tuple[re.Match[str], int | None]]:
    """Each ``@type{`` that starts an entry, with the offset just past its closing delimiter; an
    ``@`` inside an entry already passed starts none. The scan ends at an entry never closed (None)."""
    pos = 0
    for match in _ENTRY_START.finditer(text):
        if match.start() < pos:
            continue
        end = closing(text, match.end(), match.group(2))
        yield match, end
        if end is None:
            return
        pos = end


def split_chunks(text: str) -> list[Chunk]:
    chunks: list[Chunk] = []
    line_of = line_counter(text)
    pos = 0
    for match, end in _entries(text):
        if end is None:
            break  # unbalanced: pybtex reports it with its line; keep the rest as text
        if match.start() > pos:
            chunks.append(Chunk(text[pos : match.start()], None, line_of(pos)))
        body = text[match.start() : end]
        key = None
        if match.group(1).lower() not in _NON_ENTRIES:
            # The key runs to the first comma, or to the closing brace of a field-less entry.
            key = re.split(r"[,\s]", body[match.end() - match.start() : -1].strip(), maxsplit=1)[0].strip()
        chunks.append(Chunk(body, key, line_of(match.start())))
        pos = end
    if pos < len(text):
        chunks.append(Chunk(text[pos:], None, line_of(pos)))
    return chunks


_DELIMITERS = {"{": re.compile(r"[{}]"), "(": re.compile(r"[{})]")}


def closing(text: str, start: int, opener: str, end: int | None = None) -> int | None:
    """Index just past the delimiter that closes an entry opened at ``start`` (looking no further than ``end``)."""
    closer = "}" if opener == "{" else ")"
    depth = 0
    for match in _DELIMITERS[opener].finditer(text, start, len(text) if end is None else end):
        ch = match.group(0)
        if depth == 0 and ch == closer:
            return match.end()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return None
    return None


def line_counter(text: str) -> Callable[[int], int]:
    """Line number of an offset, by bisecting the newline offsets (linear in the file overall)."""
    newlines = [m.start() for m in re.finditer("\n", text)]
    return lambda pos: bisect.bisect_left(newlines, pos) + 1


_FIELD_TOKENS = re.compile(r'[{}"]|,\s*([^\s=,{}"#%()]+)\s*=')


def field_lines(chunk: Chunk) -> list[tuple[str, int]]:
    """Each field of an entry chunk as (lower-case name, line), in file order.

    A name counts only between the entry's own braces, outside any value: ``title = {a, b = c}``
    names one field.
    """
    start = _ENTRY_START.match(chunk.text)
    line_of = line_counter(chunk.text)
    depth, quoted, found = 0, False, []
    for match in _FIELD_TOKENS.finditer(chunk.text, start.end() if start else 0):
        token = match.group(0)
        if token in "{}":
            depth += 1 if token == "{" else -1
        elif token == '"':
            quoted = not quoted if depth == 0 else quoted
        elif depth == 0 and not quoted:
            found.append((match.group(1).lower(), chunk.line + line_of(match.start(1)) - 1))
    return found


# In the text between entries BibTeX ignores everything, so an extra "}" that closes an entry early
# silently turns the entry's remaining fields into ignored text. These are the signs of it.
_FIELD_LIKE = re.compile(r"^[ \t]*[A-Za-z][\w-]*[ \t]*=[ \t]*[{\"0-9]", re.M)


def stray_line(chunk: Chunk) -> int | None:
    """For text between entries: the line of a "}" that closes nothing or of a field, if any.

    Lines starting with ``%`` are comments by convention and are not looked at.
    """
    if chunk.key is not None or _ENTRY_START.match(chunk.text):
        return None
    lines = chunk.text.split("\n")
    text = "\n".join("" if line.lstrip().startswith("%") else line for line in lines)
    depth, offsets = 0, [m.start() for m in _FIELD_LIKE.finditer(text)]
    for match in re.finditer("[{}]", text):
        depth += 1 if match.group(0) == "{" else -1
        if depth < 0:
            offsets.append(match.start())
            break
    return chunk.line + text.count("\n", 0, min(offsets)) if offsets else None


def unclosed_entry_line(text: str) -> int | None:
    """The line where the first entry that is never closed starts, if any."""
    return next((line_counter(text)(match.start()) for match, end in _entries(text) if end is None), None)


_INDENT = re.compile(r"\n([ \t]*)[A-Za-z]")


def append_fields(text: str, pairs: list[tuple[str, str]]) -> str:
    """An entry's text (ending at its closing delimiter) with ``name = {value}`` fields added last.

    Everything already there keeps its bytes: macros (``month = jan``), quotes, odd spacing. A
    missing comma after the last field is added; the new lines take the entry's indentation.
    """
    body = text.rstrip()
    close, body = body[-1], body[:-1]
    content = body.rstrip()
    indent = m.group(1) if (m := _INDENT.search(body)) else "  "
    comma = "" if content.endswith(",") else ","
    added = "".join(f"\n{indent}{name} = {{{value}}}," for name, value in pairs)
    return f"{content}{comma}{added}\n{close}{text[len(text.rstrip()) :]}"
