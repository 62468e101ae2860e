"""Crossref (``api.crossref.org/works/DOI``): one work's JSON message to a raw record."""

from __future__ import annotations

import json
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

from ..errors import Code, ReadingListError
from ..latex import dump_to_latex
from ..model import RawRecord, SourceRef
from .ids import Identifier

# Crossref's work types as BibTeX entry types, and the field its container title goes in.
TYPES = {
    "journal-article": "article", "proceedings-article": "inproceedings", "book-chapter": "incollection",
    "book-section": "incollection", "book-part": "incollection", "reference-entry": "incollection",
    "book": "book", "monograph": "book", "edited-book": "book", "reference-book": "book",
    "proceedings": "proceedings", "report": "techreport", "report-component": "techreport",
    "dissertation": "phdthesis",
}  # fmt: skip
CONTAINER = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle", "book": "series"}
DATES = ("issued", "published-print", "published-online", "published", "created")


def work_url(base: str, ident: Identifier) -> str:
    return base.rstrip("/") + "/" + quote(ident.value, safe="/")


def parse(text: str, ident: Identifier) -> RawRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadingListError(
            f"the Crossref API sent an answer that is not JSON ({exc})", ident.label, code=Code.BAD_ANSWER
        ) from None
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict) or not _first(message, "title"):
        raise ReadingListError("the Crossref API sent no work with a title", ident.label, code=Code.BAD_ANSWER)
    entry_type = TYPES.get(str(message.get("type", "")), "misc")
    year, month = _date(message)
    return RawRecord(
        source=SourceRef(ident.source_file, 1, "", kind="crossref"),
        title=": ".join(t for t in (_first(message, "title"), _first(message, "subtitle")) if t),
        authors=tuple(_names(message.get("author"), "{given} {family}")),
        year=year,
        abstract=_plain(message.get("abstract")),
        entry_type=entry_type,
        doi=_plain(message.get("DOI")) or ident.value,
        fields=_fields(message, entry_type, month),
    )


def _fields(message: dict[str, Any], entry_type: str, month: int | None) -> tuple[tuple[str, str], ...]:
    """Venue and citation fields, BibTeX-named, as LaTeX (Crossref's text is plain: specials escaped)."""
    institution = next(iter(_names(message.get("institution"), "")), "")
    values = {
        CONTAINER.get(entry_type, ""): _first(message, "container-title"),
        "publisher": _plain(message.get("publisher")),
        "address": _plain(message.get("publisher-location")),
        "editor": " and ".join(_names(message.get("editor"), "{family}, {given}")),
        "volume": _plain(message.get("volume")),
        "number": _plain(message.get("issue")),
        "pages": _plain(message.get("page")).replace("-", "--"),
        "month": str(month) if month else "",
        "isbn": _first(message, "ISBN"),
        "issn": _first(message, "ISSN"),
        {"phdthesis": "school", "techreport": "institution"}.get(entry_type, ""): institution,
    }
    return tuple((name, dump_to_latex(value)) for name, value in values.items() if name and value)


def _date(message: dict[str, Any]) -> tuple[int | None, int | None]:
    for name in DATES:
        parts = (message.get(name) or {}).get("date-parts") if isinstance(message.get(name), dict) else None
        first = parts[0] if isinstance(parts, list) and parts and isinstance(parts[0], list) else []
        if first and isinstance(first[0], int):
            month = first[1] if len(first) > 1 and isinstance(first[1], int) and 1 <= first[1] <= 12 else None
            return first[0], month
    return None, None


def _names(people: object, form: str) -> list[str]:
    """People as ``form`` says, or an organization's ``name``; anything malformed is left out."""
    out = []
    for person in people if isinstance(people, list) else []:
        if not isinstance(person, dict):
            continue
        given, family = _plain(person.get("given")), _plain(person.get("family"))
        if family:
            out.append(form.format(given=given, family=family).strip(" ,") if given else family)
        elif name := _plain(person.get("name")):
            out.append(name)
    return out


def _first(message: dict[str, Any], name: str) -> str:
    value = message.get(name)
    return _plain(value[0]) if isinstance(value, list) and value else _plain(value)


class _Text(HTMLParser):
    """The text of Crossref's JATS and HTML markup (``<jats:p>``, ``<i>``), tags dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.in_title = False  # <jats:title>Abstract</jats:title> is a heading, not the abstract's text

    def handle_data(self, data: str) -> None:
        if not self.in_title:
            self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_title = self.in_title or tag == "jats:title"
        self.parts.append(" ")  # paragraphs and sections must not run into each other

    def handle_endtag(self, tag: str) -> None:
        self.in_title = self.in_title and tag != "jats:title"


def _plain(value: object) -> str:
    if not isinstance(value, str):
        return ""
    if "<" not in value:
        return " ".join(unescape(value).split())
    parser = _Text()
    parser.feed(value)
    parser.close()
    return " ".join("".join(parser.parts).split())
