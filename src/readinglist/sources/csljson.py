"""CSL-JSON files (Zotero's, Better BibTeX's, citeproc's): a list of items, mapped through ``cslmap``.

Each item's line is where its ``{`` stands, found by decoding the top-level list one item at a
time, so a skipped item is reported as ``file:line``. A file that is not valid JSON is one error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import arxiv_categories
from ..bibsyntax import line_counter
from ..errors import Code, ReadingListError
from ..model import RawRecord, ReadResult, Skip, SourceRef
from ..years import EARLIEST, latest, plausible_year
from . import cslmap
from .fields import arxiv_eprint, normalize_doi, public_url, split_keywords
from .text import read_text
from .warned import Warned

KIND = "csl-json"
_START = re.compile(r'\s*(?:\[\s*[{\]]|\{\s*")')
# A list whose first item is no object ("[5, {...}]"): CSL-JSON too, if that item decodes.
_OTHER_FIRST = re.compile(r'\s*\[\s*(?=["\[0-9-]|true|false|null)')
# A value's brackets and strings, to find the end of an item ``json`` cannot decode.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SCALAR = re.compile(r'-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|"(?:[^"\\]|\\.)*"|true|false|null')
_KEY = re.compile(r'"(?:citation-key|id)"\s*:\s*"((?:[^"\\]|\\.){1,200})"')
_WS = re.compile(r"\s*")
_DECODER = json.JSONDecoder()
_ARXIV = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arxiv[:.])([^\s?#]+?)(?:\.pdf)?$", re.I)


def looks_like(head: str, path: Path) -> bool:
    """A JSON list of objects, or one object: CSL-JSON if it decodes (``read`` says when not)."""
    if _START.match(head):
        return True
    other = _OTHER_FIRST.match(head)
    if other is None:
        return False
    try:
        end = _DECODER.raw_decode(head, other.end())[1]
    except (ValueError, RecursionError):
        return False
    return head[end:].lstrip()[:1] in (",", "]")


def read(path: Path, label: str) -> ReadResult:
    return read_string(read_text(path, label), label)


def read_string(text: str, label: str) -> ReadResult:
    line_of = line_counter(text)
    records, skips = [], []
    items = list(_items(text, label))
    if items and not any(isinstance(item, dict) and ("title" in item or "type" in item) for _, item in items):
        raise ReadingListError(
            "JSON, but not CSL-JSON: no item has a title or a type", label, line_of(items[0][0]), code=Code.BAD_CSL_JSON
        )
    for offset, item in items:
        line = line_of(offset)
        key = _key(item)
        try:
            record = _record(item, line, label)
        except (ValueError, TypeError) as exc:
            skips.append(Skip(label, line, key, str(exc)))
            continue
        records.append(_plausible(record, skips))
    return ReadResult(tuple(records), tuple(skips))


def _plausible(record: RawRecord, skips: list[Skip]) -> RawRecord:
    """``record`` with a year outside 1400..next year unknown, and a warning saying so."""
    if record.year is None or plausible_year(record.year) is not None:
        return record
    why = f"the year {record.year} is not between {EARLIEST} and {latest()}: read as unknown"
    skips.append(Warned(record.source.file, record.source.line, record.key, why))
    return replace(record, year=None)


def _items(text: str, label: str) -> Iterator[tuple[int, Any]]:
    """(offset, item) for each item of the top-level list (or of ``{"items": [...]}``, or the one object)."""
    try:
        pos = _WS.match(text).end()  # type: ignore[union-attr]
        if text.startswith("{", pos):
            whole, end = _DECODER.raw_decode(text, pos)
            _check_end(text, end, label)
            if isinstance(whole.get("items"), list):
                at = re.search(r'"items"\s*:\s*\[', text)
                yield from _list(text, at.end() - 1 if at else pos, label)
            else:
                yield pos, whole
            return
        yield from _list(text, pos, label)
    except json.JSONDecodeError as exc:
        raise ReadingListError(
            f"not valid JSON ({exc.msg}): not a CSL-JSON file", label, exc.lineno, code=Code.BAD_CSL_JSON
        ) from None
    except (RecursionError, ValueError) as exc:  # only when the file is one object: a list's items are skipped
        raise ReadingListError(_unreadable(exc).reason, label, 1, code=Code.TOO_LARGE) from None


@dataclass(frozen=True)
class _Unreadable:
    """An item ``json`` refused though it is well formed: nested too deep, or a number too long."""

    reason: str
    key: str = ""


def _unreadable(exc: BaseException, key: str = "") -> _Unreadable:
    if isinstance(exc, RecursionError):
        return _Unreadable("nested too deeply to read (lists or objects about 1,000 levels deep)", key)
    return _Unreadable(f"cannot read it: {exc}", key)  # Python's bound on a number's digits


def _decoded(text: str, pos: int) -> tuple[Any, int]:
    """The item at ``pos`` and where it ends; an ``_Unreadable`` for an item ``json`` cannot hold."""
    try:
        return _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as exc:
        end = _value_end(text, pos)
        key = _KEY.search(text, pos, end)
        return _unreadable(exc, key.group(1) if key else ""), end


def _value_end(text: str, pos: int) -> int:
    """Where the JSON value at ``pos`` ends, found by its brackets and strings alone (no recursion)."""
    scalar = _SCALAR.match(text, pos)
    if scalar:
        return scalar.end()
    depth = 0
    for token in _TOKEN.finditer(text, pos):
        if token.group(0) in ("[", "{"):
            depth += 1
        elif token.group(0) in ("]", "}"):
            depth -= 1
        if depth == 0:
            return token.end()
    raise json.JSONDecodeError("the item is never closed", text, pos)


def _key(item: Any) -> str:
    if isinstance(item, _Unreadable):
        return item.key
    return cslmap.plain(item.get("citation-key") or item.get("id") or "") if isinstance(item, dict) else ""


def _list(text: str, pos: int, label: str) -> Iterator[tuple[int, Any]]:
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("]", pos):
        return _check_end(text, pos + 1, label)
    while True:
        item, end = _decoded(text, pos)
        yield pos, item
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
        if text.startswith("]", pos):
            return _check_end(text, pos + 1, label)
        if not text.startswith(",", pos):
            raise json.JSONDecodeError("expected ',' or ']' between items", text, pos)
        pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]


def _check_end(text: str, end: int, label: str) -> None:
    if text[end:].strip():
        raise json.JSONDecodeError("extra data after the items", text, end + len(text[end:]) - len(text[end:].lstrip()))


def _record(item: Any, line: int, label: str) -> RawRecord:
    if isinstance(item, _Unreadable):
        raise ValueError(item.reason)
    if not isinstance(item, dict):
        raise ValueError("not a CSL-JSON item (expected an object)")
    csl_type = cslmap.plain(item.get("type", ""))
    entry_type = cslmap.TYPES.get(csl_type, "misc")
    title = cslmap.latex(item.get("title", ""))
    if not title:
        raise ValueError("the item has no title")
    authors, et_al = _names(item.get("author", []))
    year, month = cslmap.date(item.get("issued"))
    categories, keywords = _tags(item)
    return RawRecord(
        source=SourceRef(label, line, kind=KIND),
        title=title,
        authors=authors,
        et_al=et_al,
        year=year,
        abstract=cslmap.latex(item.get("abstract", "")),
        categories=categories,
        key=_key(item),
        entry_type=entry_type,
        doi=normalize_doi(cslmap.plain(item.get("DOI", ""))),
        eprint=_eprint(item),
        url=public_url(cslmap.plain(item.get("URL", ""))),
        keywords=keywords,
        fields=_fields(item, csl_type, entry_type, month),
    )


def _names(people: Any) -> tuple[tuple[str, ...], bool]:
    if not isinstance(people, list):
        raise ValueError("the author list is not a list of names")
    names = [cslmap.name(p) for p in people]
    et_al = any(n.strip("{}").lower() in {"others", "et al.", "et al"} for n in names)
    return tuple(n for n in names if n.strip("{}").lower() not in {"others", "et al.", "et al"}), et_al


def _tags(item: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    ids = arxiv_categories.ids()
    words = split_keywords(cslmap.plain(item.get("keyword", "")))
    return tuple(w for w in words if w in ids), tuple(cslmap.latex(w) for w in words if w not in ids)


def _eprint(item: dict[str, Any]) -> str:
    for name in ("number", "archive_location", "URL", "DOI"):
        match = _ARXIV.search(cslmap.plain(item.get(name, "")).strip())
        if match and arxiv_eprint(match.group(1)):
            return arxiv_eprint(match.group(1))
    return ""


def _fields(item: dict[str, Any], csl_type: str, entry_type: str, month: str) -> tuple[tuple[str, str], ...]:
    out = {field: cslmap.latex(item[name]) for name, field in cslmap.VARIABLES.items() if item.get(name)}
    container = cslmap.latex(item.get("container-title", ""))
    if container:
        out["journal" if csl_type in cslmap.JOURNAL_TYPES else "booktitle"] = container
    number = item.get("issue") or item.get("number")
    if number and not _eprint({"number": number}):
        out["number"] = cslmap.latex(number)
    publisher = cslmap.latex(item.get("publisher", ""))
    if publisher:
        out[{"thesis": "school", "report": "institution"}.get(entry_type, "publisher")] = publisher
    if item.get("genre"):
        out["type"] = cslmap.latex(item["genre"])
    if item.get("editor"):
        editors, et_al = _names(item["editor"])
        out["editor"] = " and ".join(editors + (("others",) if et_al else ()))
    if month:
        out["month"] = month
    out["urldate"] = _urldate(item.get("accessed"))
    return tuple((k, v) for k, v in out.items() if v)


def _urldate(accessed: Any) -> str:
    """``2023-04-01`` from CSL's ``accessed`` date; empty when it has no date parts of digits."""
    parts = accessed.get("date-parts") if isinstance(accessed, dict) else None
    first = parts[0] if isinstance(parts, list) and parts and isinstance(parts[0], list) else []
    return "-".join(f"{int(p):02d}" for p in first[:3] if re.fullmatch(r"[0-9]{1,4}", str(p)))
