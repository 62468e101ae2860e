"""The arXiv listing shape: header lines, then blocks of year, title, abstract, category.

Example block::

    arXiv2020
    DAPPLE: A Pipelined Data Parallel Approach for Training Large Models
    It is a challenging task to train large DNN models ...
    cs.DC↗
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Code, ReadingListError
from ..model import RawRecord, ReadResult, Skip, SourceRef
from .text import Line, owner_name, read_text, split_lines

KIND = "profile"
YEAR_LINE = re.compile(r"^arXiv\s*(\d{4})$")
CATEGORY = r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]+(?:-[a-z]+)?)?"
CATEGORY_LINE = re.compile(rf"^({CATEGORY})(?:[\s,;]+({CATEGORY}))*\s*↗$")
OWNER_LINE = re.compile(r"^Publications and source records attributed to (.+?)\.?$")
HEADER_LINES = (re.compile(r"^arXiv subjects$"), re.compile(r"^At least \d+ records\b"))


def looks_like(head: str, path: Path) -> bool:
    return any(YEAR_LINE.match(line) for line in _first_lines(head, 50))


def read(path: Path, label: str) -> ReadResult:
    return read_string(read_text(path, label), label)


def read_string(text: str, label: str) -> ReadResult:
    records, skips = parse(split_lines(text, label), label)
    return ReadResult(tuple(records), tuple(skips))


def _first_lines(head: str, count: int) -> list[str]:
    return [line.strip() for line in head.split("\n") if line.strip()][:count]


def parse(lines: list[Line], label: str) -> tuple[list[RawRecord], list[Skip]]:
    """The records of the listing; a block out of shape, or text outside any block, is skipped."""
    owner, body = _header(lines, label)
    blocks, skips = _blocks(body, label)
    records = []
    for block in blocks:
        try:
            records.append(_record(block, owner, label))
        except _Malformed as exc:
            skips.append(Skip(label, exc.line, "", exc.reason))
    return records, sorted(skips, key=lambda s: s.line)


class _Malformed(Exception):
    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


def _header(lines: list[Line], label: str) -> tuple[str, list[Line]]:
    owner = ""
    for i, line in enumerate(lines):  # noqa: B007 (i is used after the loop)
        if YEAR_LINE.match(line.text):
            break
        match = OWNER_LINE.match(line.text)
        if match:
            owner = match.group(1).strip()
        elif not owner and not any(p.match(line.text) for p in HEADER_LINES):
            owner = owner_name(line, label)
    else:
        raise ReadingListError("arXiv listing has no 'arXiv<YEAR>' record line", label, code=Code.BAD_DUMP)
    if not owner:
        raise ReadingListError(
            "arXiv listing does not name the profile owner", label, lines[0].number, code=Code.BAD_DUMP
        )
    return owner, lines[i:]


def _blocks(body: list[Line], label: str) -> tuple[list[list[Line]], list[Skip]]:
    """Each record's lines; lines after a block's category line, up to the next year line, are one skip."""
    blocks: list[list[Line]] = []
    skips: list[Skip] = []
    stray = False
    for line in body:
        if YEAR_LINE.match(line.text):
            blocks.append([line])
            stray = False
        elif stray:
            continue
        elif CATEGORY_LINE.match(blocks[-1][-1].text):
            what = "category line" if CATEGORY_LINE.match(line.text) else "text"
            skips.append(Skip(label, line.number, "", f"{what} outside any record (expected an 'arXiv<YEAR>' line)"))
            stray = True
        else:
            blocks[-1].append(line)
    return blocks, skips


def _record(block: list[Line], owner: str, label: str) -> RawRecord:
    head, rest = block[0], block[1:]
    year = int(YEAR_LINE.match(head.text).group(1))  # type: ignore[union-attr]
    categories: tuple[str, ...] = ()
    if rest and CATEGORY_LINE.match(rest[-1].text):
        categories = tuple(re.findall(CATEGORY + r"(?=[\s,;↗])", rest[-1].text + " "))
        rest = rest[:-1]
    if not rest:
        raise _Malformed("record has no title (truncated dump?)", head.number)
    if len(rest) > 2:
        raise _Malformed(
            f"record has {len(rest)} text lines; expected a title and at most one abstract line", rest[2].number
        )
    return RawRecord(
        source=SourceRef(label, head.number, owner),
        title=rest[0].text,
        abstract=rest[1].text if len(rest) == 2 else "",
        year=year,
        categories=categories,
    )
