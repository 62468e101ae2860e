"""The untitled-pairs shape: the owner's name, then (author line, abstract) pairs.

Example pair::

    Zhen Zheng, Pengzhan Zhao, Guoping Long et al.
    We show in this work that memory intensive computations ...
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Code, ReadingListError
from ..model import RawRecord, ReadResult, Skip, SourceRef
from .text import Line, owner_name, read_text, split_lines

KIND = "profile"
NAME = r"[^\W\d_][\w.'’\-]*(?:\s+[^\W\d_][\w.'’\-]*){0,5}"
AUTHOR_LINE = re.compile(rf"^{NAME}(?:\s*,\s*{NAME})*(?:,?\s+et\s+al\.?)?$")
ET_AL = re.compile(r",?\s+et\s+al\.?$")
MAX_AUTHOR_LINE = 400


def is_author_line(text: str) -> bool:
    if len(text) > MAX_AUTHOR_LINE or text.endswith(":") or not AUTHOR_LINE.match(text):
        return False
    # A sentence ends with a full stop; a name line ends with one only after "et al" or an initial.
    return not text.endswith(".") or bool(ET_AL.search(text) or re.search(r"\b[A-Z]\.$", text))


def looks_like(head: str, path: Path) -> bool:
    lines = [line.strip() for line in head.split("\n") if line.strip()][:2]
    return len(lines) == 2 and all(map(is_author_line, lines))


def read(path: Path, label: str) -> ReadResult:
    return read_string(read_text(path, label), label)


def read_string(text: str, label: str) -> ReadResult:
    records, skips = parse(split_lines(text, label), label)
    return ReadResult(tuple(records), tuple(skips))


def parse(lines: list[Line], label: str) -> tuple[list[RawRecord], list[Skip]]:
    """The pairs after the owner line; a stretch that is no pair is skipped up to the next pair."""
    owner, body = owner_name(lines[0], label), lines[1:]
    if not body:
        raise ReadingListError(
            "profile has an owner line but no records (truncated dump?)", label, lines[0].number, code=Code.BAD_DUMP
        )
    records, skips, i = [], [], 0
    while i < len(body):
        if _pair_at(body, i):
            records.append(_record(body[i], body[i + 1], owner, label))
            i += 2
            continue
        skips.append(Skip(label, body[i].number, "", _problem(body, i)))
        i = next((j for j in range(i + 1, len(body)) if _pair_at(body, j)), len(body))
    return records, skips


def _pair_at(body: list[Line], i: int) -> bool:
    return i + 1 < len(body) and is_author_line(body[i].text) and not is_author_line(body[i + 1].text)


def _problem(body: list[Line], i: int) -> str:
    if not is_author_line(body[i].text):
        return "expected an author line (comma-separated names)"
    return "author line has no abstract after it"


def _record(names: Line, text: Line, owner: str, label: str) -> RawRecord:
    et_al = bool(ET_AL.search(names.text))
    listed = ET_AL.sub("", names.text)
    authors = tuple(n.strip() for n in listed.split(",") if n.strip())
    return RawRecord(
        source=SourceRef(label, names.number, owner),
        authors=authors,
        et_al=et_al,
        abstract=text.text,
    )
