"""Bounds on what one source entry may make the tool hold, so one hostile entry costs one line.

A BibTeX value (a field, an ``@string``) is at most ``MAX_VALUE`` characters once its macros are
expanded, and the macros of one parse may add at most ``expansion_budget`` characters in all:
an ``@string`` bomb (each macro twice the one before) stops at the first macro past the bound,
instead of doubling to gigabytes. A field a reader keeps is at most ``MAX_FIELD`` characters
(name lists at most ``MAX_VALUE``): past it the entry is skipped with its line, the field named
and its length, and the rest of the file imports. Skipping, not cutting: a record stored cut
would look whole on its page, and the one line tells the user which entry to fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pybtex.scanner import PybtexSyntaxError

from ..compat import PybtexScanner
from ..model import RawRecord, ReadResult, Skip

MAX_VALUE = 1 << 20  # characters: one BibTeX value (a field, an @string) after macro expansion, one name list
MAX_FIELD = 100_000  # characters: a field a reader keeps (abstracts are rarely over 10,000)
EXPANSION_RATIO = 16  # the macros of one parse add at most this many characters per character parsed
MAX_EXPANSION = 64 * MAX_VALUE  # ... and never more than this


def expansion_budget(text_length: int) -> int:
    """The characters macros may add to a parse of ``text_length`` characters, in all."""
    return min(MAX_EXPANSION, EXPANSION_RATIO * text_length)


def bounded(result: ReadResult) -> ReadResult:
    """``result`` with each record that holds a field past the bounds skipped, with its line and reason."""
    kept: list[RawRecord] = []
    skips = list(result.skipped)
    for record in result.records:
        reason = too_large(record)
        if reason:
            skips.append(Skip(record.source.file, record.source.line, record.key, reason))
        else:
            kept.append(record)
    if len(skips) == len(result.skipped):
        return result
    return ReadResult(tuple(kept), tuple(sorted(skips, key=lambda s: s.line)))


def too_large(record: RawRecord) -> str:
    """Why ``record`` is too large to keep, naming the field; empty when it is not."""
    for name, value, bound in _values(record):
        if len(value) > bound:
            return (
                f"the field {name!r} has {len(value):,} characters, more than the {bound:,} a field may hold "
                "(entry skipped; shorten the field and import again)"
            )
    return ""


def _values(record: RawRecord) -> Iterator[tuple[str, str, int]]:
    yield "title", record.title, MAX_FIELD
    yield "abstract", record.abstract, MAX_FIELD
    yield "author", " and ".join(record.authors), MAX_VALUE
    yield "keywords", ", ".join(record.keywords), MAX_FIELD
    for name, value in (("doi", record.doi), ("url", record.url), ("eprint", record.eprint), ("key", record.key)):
        yield name, value, MAX_FIELD
    for name, value in record.fields:
        yield name, value, MAX_VALUE if name in ("editor", "translator", "bookauthor") else MAX_FIELD


class TooLarge(PybtexSyntaxError):  # type: ignore[misc]  # pybtex has no type hints
    """A value or the macros of a parse past the bounds: the entry (or ``@string``) is set aside."""

    error_type = "too large"


class RefusedMacro(TooLarge):
    """A use of an ``@string`` macro refused earlier: a ``@string`` made from it is refused without a word."""

    def __init__(self, name: str, line: int, parser: Any) -> None:
        super().__init__(f"uses the @string {name!r}, made from the one refused at line {line}", parser)
        self.refused_line = line


class BoundedValues(PybtexScanner):  # type: ignore[misc]
    """pybtex's scanner with every value and the macros' expansion bounded (mixed in before ``LowLevelParser``).

    ``refused`` maps each refused macro (lower case) to its line, shared with the scanners of the same file.
    """

    text: str
    lineno: int
    current_field_name: str | None
    current_value: list[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expanded = 0
        self.refused: dict[str, int] = {}

    def parse_string_body(self, body_end: Any) -> None:
        try:
            super().parse_string_body(body_end)
        except TooLarge as error:
            line = error.refused_line if isinstance(error, RefusedMacro) else self.lineno
            if self.current_field_name:
                self.refused.setdefault(self.current_field_name.lower(), line)
            raise

    def parse_value(self) -> None:
        super().parse_value()
        size = sum(map(len, self.current_value))
        if size > MAX_VALUE:
            what = f"{self.current_field_name!r}" if self.current_field_name else "a value"
            message = f"{what} would be {size:,} characters once its @string macros are expanded: over 1 MiB"
            raise TooLarge(message, self)

    def substitute_macro(self, name: str) -> str:
        if name.lower() in self.refused:
            raise RefusedMacro(name, self.refused[name.lower()], self)
        value: str = super().substitute_macro(name)
        self.expanded += len(value)
        budget = expansion_budget(len(self.text))
        if self.expanded > budget:
            message = (
                f"the @string macros would expand to more than {budget:,} characters in all "
                f"({EXPANSION_RATIO} times the text, at most 64 MiB): a macro bomb?"
            )
            raise TooLarge(message, self)
        return value
