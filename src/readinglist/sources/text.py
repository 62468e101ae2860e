"""Reading a dump file into numbered lines, with clear errors for undecodable input.

A dump is UTF-8 (with or without a byte-order mark) or, when it starts with one of their
byte-order marks, UTF-16 or UTF-32 (what Windows editors save as "Unicode"). Characters the
pipeline never keeps (``readinglist.chars``) are removed from every line as it is read.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from ..chars import strip_unsafe
from ..errors import Code, ReadingListError

# Past this, a file is refused before it is read: a 20 GB (sparse) file once ended in MemoryError.
MAX_BYTES = 512 * 1024 * 1024

# UTF-32 first: its little-endian mark starts with UTF-16's.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


@dataclass(frozen=True)
class Line:
    number: int
    text: str


OWNER_MAX = 100  # characters of a profile owner's name; a longer line is text, not a name


def owner_name(line: Line, label: str) -> str:
    """The profile owner's name from its line, refused (file and line named) when the line cannot
    be a person's name: a dump whose header was cut starts with an abstract, and an abstract taken
    as the owner became every record's author (more than two commas: no name BibTeX can hold)."""
    if len(line.text) > OWNER_MAX or line.text.count(",") > 2:
        shown = line.text[:60] + ("…" if len(line.text) > 60 else "")
        raise ReadingListError(
            f"expected the profile owner's name, found text ({shown!r}): is the dump's first line cut?",
            label,
            line.number,
            code=Code.BAD_DUMP,
        )
    return line.text


def split_lines(text: str, label: str) -> list[Line]:
    """The non-blank lines of a text from ``read_text``, stripped and numbered."""
    kept = [Line(i, s) for i, s in ((i, s.strip()) for i, s in enumerate(text.split("\n"), 1)) if s]
    if not kept:
        raise ReadingListError("the file is empty", label, 1, code=Code.EMPTY_FILE)
    return kept


def read_text(path: Path, label: str) -> str:
    """The whole text of ``path`` with ``\\n`` line ends and unsafe characters removed (lines keep their numbers)."""
    text, nul = read_text_and_nul(path, label)
    if nul is not None:
        raise binary_data(label, nul)
    return text


def read_text_and_nul(path: Path, label: str) -> tuple[str, int | None]:
    """``read_text``, with a NUL removed as any other control character, and the line of the first NUL.

    Where a NUL means a binary file (a text dump) the caller refuses the file with ``binary_data``;
    in BibTeX or CSL-JSON it is one more character of one entry, and must not reject the others.
    UTF-16 without a byte-order mark (NUL bytes everywhere) is refused here.
    """
    text = _decode(read_regular(path, label), label)
    nul = _text_line(text[: text.index("\x00")]) if "\x00" in text else None
    return strip_unsafe(text.replace("\r\n", "\n").replace("\r", "\n")), nul


def binary_data(label: str, line: int) -> ReadingListError:
    return ReadingListError("binary data (NUL byte): not a text dump", label, line, code=Code.BINARY_FILE)


def read_regular(path: Path, label: str | Path) -> bytes:
    """The bytes of ``path``, refusing anything but a regular file (a FIFO would block forever)."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ReadingListError(f"cannot read file: {exc.strerror}", label, code=Code.UNREADABLE) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        os.close(fd)
        if stat.S_ISREG(info.st_mode):  # too large: refused before a byte is read
            raise too_large(label, info.st_size)
        raise ReadingListError(
            f"not a regular file ({kind(info.st_mode)}): cannot read it", label, code=Code.UNREADABLE
        )
    with os.fdopen(fd, "rb") as handle:
        try:
            # As much as fstat saw (read(MAX_BYTES + 1) would allocate its whole bound at once), then
            # what the file grew by since, in steps, up to the bound.
            data = handle.read(info.st_size + 1)
            while len(data) <= MAX_BYTES and (more := handle.read(1 << 20)):
                data += more
        except OSError as exc:
            raise ReadingListError(f"cannot read file: {exc.strerror}", label, code=Code.UNREADABLE) from None
    if len(data) > MAX_BYTES:
        raise too_large(label, len(data))
    return data


def too_large(label: str | Path, size: int) -> ReadingListError:
    """The one-line refusal of a file past :data:`MAX_BYTES`."""
    return ReadingListError(
        f"too large ({size:,} bytes; at most {MAX_BYTES // 1024**2} MiB are read)", label, code=Code.TOO_LARGE
    )


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in words: "a FIFO", "a device"."""
    kinds = {stat.S_ISDIR: "a directory", stat.S_ISFIFO: "a FIFO", stat.S_ISSOCK: "a socket", stat.S_ISCHR: "a device"}
    return next((name for test, name in kinds.items() if test(mode)), "a special file")


def _decode(data: bytes, label: str) -> str:
    if not data.strip():
        raise ReadingListError("the file is empty", label, 1, code=Code.EMPTY_FILE)
    codec, name = next(((c, n) for bom, c, n in BOMS if data.startswith(bom)), ("utf-8-sig", "UTF-8"))
    codec, name = _declared(data) or (codec, name)
    if codec == "utf-8-sig" and b"\x00" in data and _wide(data):  # UTF-16 and UTF-32 are full of NUL bytes
        hint = "; UTF-16 without a byte-order mark? save the file as UTF-8"
        line = _line_of(data, data.index(b"\x00"))
        raise ReadingListError(f"binary data (NUL byte): not a text dump{hint}", label, line, code=Code.BINARY_FILE)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start) if name == "UTF-8" else _text_line(data[: exc.start].decode(codec, "replace"))
        raise ReadingListError(
            f"not valid {name} (byte 0x{data[exc.start]:02x}); re-save the file as UTF-8",
            label,
            line,
            code=Code.NOT_UTF8,
        ) from None
    return text


_DECLARED = re.compile(rb"\A(?:\xef\xbb\xbf)?% Encoding: ([A-Za-z0-9_.:-]+)[ \t]*\r?\n")


def _declared(data: bytes) -> tuple[str, str] | None:
    """The encoding JabRef names on its first line (``% Encoding: windows-1252``), if Python knows it."""
    match = _DECLARED.match(data)
    if not match:
        return None
    try:
        codec = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    return (codec, match.group(1).decode("ascii")) if codec != "utf-8" else None


def _wide(data: bytes) -> bool:
    """True when most odd or most even bytes of the start are NUL, as in mostly-ASCII text saved as UTF-16."""
    head = data[:400]
    return len(head) >= 8 and any(head[start::2].count(0) * 4 >= len(head) // 2 * 3 for start in (0, 1))


def _line_of(data: bytes, offset: int) -> int:
    """The line number of a byte offset, counting \\r\\n, \\n and a lone \\r alike, as the reader splits."""
    head = data[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return head.count(b"\n") + 1


def _text_line(head: str) -> int:
    return head.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
