"""A tolerant pass of pybtex's own BibTeX scanner: one bad entry is set aside, the others are read.

pybtex's ``LowLevelParser`` (``compat.PybtexScanner``) is what ``pybtex.database.parse_file``
runs; strict, it stops at the first error, and lenient, it keeps half-read entries. Here an
error sets the entry aside with its line and reason, and the scan resumes after it: at the
entry's closing brace when its braces balance, else at the next line that starts with ``@``
(so an unclosed entry loses only itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pybtex.database.input.bibtex import SkipEntry, UndefinedMacro
from pybtex.scanner import PybtexSyntaxError
from pybtex.utils import CaseInsensitiveDict

from ..bibsyntax import closing, line_counter
from ..compat import PybtexScanner
from .bounds import BoundedValues, RefusedMacro, TooLarge
from .fields import MONTH_MACROS

_COMMAND = re.compile(r"@\s*([A-Za-z][\w-]*)\s*([{(])")
_ENTRY_LINE = re.compile(r"^[ \t]*@", re.M)
# A key-less entry: "@article{," (Mendeley) or "@article{title = ..." (EndNote).
_KEYLESS = re.compile(r"\s*(?:,|[A-Za-z][\w.:-]*\s*=)")


@dataclass(frozen=True)
class RawEntry:
    line: int
    type: str  # as written
    key: str  # "" for a key-less entry
    fields: list[tuple[str, str]]  # (name as written, value with macros expanded), in file order


@dataclass(frozen=True)
class Problem:
    line: int
    key: str
    reason: str
    warning: bool = False  # the entry is read all the same (an undefined macro, as BibTeX does)


class Scanner(BoundedValues, PybtexScanner):  # type: ignore[misc]
    """Yields every readable entry; ``problems`` lists the others (a value past the bounds among them).

    It overrides and reads the scanner's hooks and state that ``compat.SCANNER_HOOKS`` and
    ``SCANNER_STATE`` name, and nothing else of pybtex's."""

    text: str
    pos: int
    lineno: int
    current_entry_key: str | None
    current_field_name: str | None

    def __init__(self, text: str, macros: CaseInsensitiveDict | None = None, first_line: int = 1) -> None:
        super().__init__(text, macros=CaseInsensitiveDict(MONTH_MACROS) if macros is None else macros)
        self.problems: list[Problem] = []
        self.entry_line = self.lineno = first_line
        self.bounded = False  # set once an entry ran on unclosed: the rest is read one entry at a time
        self._line_of: Callable[[int], int] | None = None

    def entries(self) -> Iterator[RawEntry]:
        while not self.bounded and self.skip_to([self.AT]):
            self.command_start = self.pos - 1
            self.entry_line = self.lineno
            try:
                command, body = self.parse_command()
            except PybtexSyntaxError as error:
                self._set_aside(error)
                continue
            except SkipEntry:
                continue
            if command.lower() not in {"string", "preamble"}:
                key, fields = body
                yield RawEntry(self.entry_line, command, key or "", [(n, "".join(v)) for n, v in fields])
        if self.bounded:
            yield from self._segments()

    def _segments(self) -> Iterator[RawEntry]:
        """The rest of the file, each piece from a line starting with "@" to the next scanned on its own.

        An unclosed brace makes pybtex read to the end of the file; after one, every further one
        would too, and a file of broken entries would take quadratic time. Bounded, it cannot.
        """
        starts = [self.pos] + [m.start() for m in _ENTRY_LINE.finditer(self.text, self.pos + 1)]
        line = self.lineno
        for start, end in zip(starts, [*starts[1:], len(self.text)], strict=True):
            piece = Scanner(self.text[start:end], self.macros, line)
            piece.refused = self.refused
            yield from piece.entries()
            self.problems += piece.problems
            line += self.text.count("\n", start, end)

    def parse_command(self) -> tuple[str, tuple[Any, ...]]:
        match = _COMMAND.match(self.text, self.command_start)
        if match and match.group(1).lower() == "comment":
            # JabRef's and BibDesk's @comment{...} blocks hold metadata that may contain "@": skip them whole.
            end = closing(self.text, match.end(), match.group(2), self._next_entry_line(match.end()))
            if end is not None:
                self._jump(end)
            raise SkipEntry
        if match is None:
            raise SkipEntry  # an "@" in free text (an e-mail address), not an entry
        result: tuple[str, tuple[Any, ...]] = super().parse_command()
        return result

    def parse_entry_body(self, body_end: object) -> None:
        keyless = _KEYLESS.match(self.text, self.pos)
        if keyless:
            self.optional([self.COMMA])
            self.current_entry_key = ""
        else:
            pattern = self.KEY_PAREN if body_end == self.RPAREN else self.KEY_BRACE
            self.current_entry_key = self.required([pattern]).value
        self.parse_entry_fields()

    def substitute_macro(self, name: str) -> str:
        """An undefined macro is a warning, as in BibTeX, and the field holds its name as text.

        The name, not BibTeX's empty value, so the page shows what to fix (``IEEE_J_PROC``).
        """
        try:
            return super().substitute_macro(name)
        except UndefinedMacro:
            command = _COMMAND.match(self.text, self.command_start)
            if command and command.group(1).lower() != "preamble":  # a preamble is no entry
                key = self.current_entry_key or ""
                if command.group(1).lower() == "string":
                    key = f"@string {self.current_field_name or ''}".strip()
                where = f"in field {self.current_field_name!r} " if self.current_field_name else ""
                kept = f"(kept as the text {name!r}; define it or brace the value)"
                self.problems.append(Problem(self.lineno, key, f"undefined @string macro {name!r} {where}{kept}", True))
            return macro_text(name)

    def _set_aside(self, error: PybtexSyntaxError) -> None:
        match = _COMMAND.match(self.text, self.command_start)
        assert match is not None  # parse_command reads only what _COMMAND matched
        next_start = self._next_entry_line(self.command_start + 1)
        # Looking only up to the next line that starts with "@" keeps a file of broken entries linear.
        end = closing(self.text, match.end(), match.group(2), next_start)
        unclosed = end is None
        key = self.current_entry_key or ""
        if match.group(1).lower() == "string":
            key = f"@string {self.current_field_name or ''}".strip()
        if match.group(1).lower() == "preamble":  # no entry: a warning, never a skipped entry
            reason = f"{self._reason(error, unclosed)}; the preamble is ignored (the import does not use it)"
            self.problems.append(Problem(self.entry_line, "@preamble", reason, warning=True))
        elif not (isinstance(error, RefusedMacro) and key.startswith("@string")):  # the refused one has its line
            self.problems.append(Problem(self.entry_line, key, self._reason(error, unclosed)))
        self._jump(next_start if end is None else end)
        self.bounded = self.bounded or unclosed

    def _next_entry_line(self, pos: int) -> int:
        following = _ENTRY_LINE.search(self.text, pos)
        return following.start() if following else len(self.text)

    def _reason(self, error: PybtexSyntaxError, unclosed: bool) -> str:
        if isinstance(error, TooLarge):
            return str(error.args[0])
        if error.error_type == "undefined string":
            where = f" in field {self.current_field_name!r}" if self.current_field_name else ""
            return f"undefined @string macro {str(error.args[0])!r}{where}"
        if unclosed:
            return "entry is never closed (unbalanced braces)"
        return f"BibTeX syntax error on line {error.lineno}: {error.args[0]}"

    def _jump(self, pos: int) -> None:
        """Continue the scan at ``pos``, keeping ``lineno`` right."""
        if pos >= self.pos:
            self.lineno += self.text.count("\n", self.pos, pos)
        else:
            self._line_of = self._line_of or line_counter(self.text)
            self.lineno = self._line_of(pos)
        self.pos = pos


_LATEX_SPECIALS = {
    "_": r"\_",
    "&": r"\&",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
}


def macro_text(name: str) -> str:
    """An undefined macro's name as LaTeX text (``IEEE_J_PROC`` -> ``IEEE\\_J\\_PROC``)."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in name)
