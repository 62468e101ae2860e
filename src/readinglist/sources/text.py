"""Reading a dump file into numbered lines, with clear errors for undecodable input."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import ReadingListError


@dataclass(frozen=True)
class Line:
    number: int
    text: str


def read_lines(path: Path, label: str) -> list[Line]:
    """Return the non-blank lines of ``path``; ``label`` is the name used in errors."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ReadingListError(f"cannot read file: {exc.strerror}", label) from None
    if not data.strip():
        raise ReadingListError("the file is empty", label, 1)
    if b"\x00" in data:
        line = _line_of(data, data.index(b"\x00"))
        raise ReadingListError("binary data (NUL byte): not a text dump", label, line)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        raise ReadingListError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); re-save the file as UTF-8",
            label,
            line,
        ) from None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [Line(i, s.strip()) for i, s in enumerate(lines, 1) if s.strip()]


def _line_of(data: bytes, offset: int) -> int:
    """The line number of a byte offset, counting \\r\\n, \\n and a lone \\r alike, as the reader splits."""
    head = data[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return head.count(b"\n") + 1
