"""The tool's own error: every failure a user can cause names a file and a line."""

from __future__ import annotations

from pathlib import Path


class ReadingListError(Exception):
    """A problem in the user's input, reported as ``file:line: message``."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


def not_utf8(exc: UnicodeDecodeError, file: str | Path, what: str = "the file") -> ReadingListError:
    """The error for bytes that are not UTF-8, at the line of the first byte that is not."""
    line = exc.object[: exc.start].count(b"\n") + 1
    return ReadingListError(f"{what} is not valid UTF-8; re-save it as UTF-8", file, line)
