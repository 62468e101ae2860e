"""The arXiv API (``export.arxiv.org/api/query?id_list=…``): Atom XML to raw records."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from urllib.parse import urlencode

from ..errors import Code, ReadingListError
from ..latex import dump_to_latex
from ..model import RawRecord, SourceRef
from .ids import Identifier

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
BATCH = 50  # ids per request: arXiv asks for few, large requests rather than many small ones
# arXiv categories (cs.DC, hep-th, physics.optics); the API also lists ACM and MSC classes as categories.
_CATEGORY = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?$")
_VERSION = re.compile(r"v\d+$")


def query_url(base: str, idents: list[Identifier]) -> str:
    ids = ",".join(i.value for i in idents)
    return f"{base}?{urlencode({'id_list': ids, 'max_results': len(idents)})}"


def parse(text: str, who: str, asked: tuple[Identifier, ...] = ()) -> dict[str, RawRecord]:
    """Records by base id (no version) from one Atom feed; an error entry is the API saying no
    (to the id of ``asked`` that its message names, or to all of ``who``)."""
    try:
        feed = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ReadingListError(
            f"the arXiv API sent an answer that is not Atom XML ({exc})", who, code=Code.BAD_ANSWER
        ) from None
    found = {}
    for entry in feed.iter(ATOM + "entry"):
        abs_url = _text(entry, "id")
        if "/api/errors" in abs_url:
            said = _text(entry, "summary") or "error"
            named = next((i.label for i in asked if i.value in said.split()), who)
            raise ReadingListError(f"the arXiv API says: {said}", named, code=Code.BAD_ANSWER)
        eprint = abs_url.rpartition("/abs/")[2]
        if eprint and _text(entry, "title"):
            found[_VERSION.sub("", eprint)] = _record(entry, eprint)
    return found


def record_for(ident: Identifier, found: dict[str, RawRecord]) -> RawRecord | None:
    """The record asked for as ``ident``, its source named as the person named it."""
    record = found.get(ident.base)
    return replace(record, source=SourceRef(ident.source_file, 1, "", kind="arxiv")) if record else None


def _record(entry: ET.Element, eprint: str) -> RawRecord:
    published = _text(entry, "published")
    journal = _text(entry, "journal_ref", ARXIV)
    return RawRecord(
        source=SourceRef(f"arXiv:{eprint}", 1, "", kind="arxiv"),
        title=_text(entry, "title"),
        authors=tuple(name for a in entry.findall(ATOM + "author") if (name := _text(a, "name"))),
        year=int(published[:4]) if published[:4].isdigit() else None,
        abstract=_text(entry, "summary"),
        categories=_categories(entry),
        entry_type="misc",  # as arXiv's own BibTeX export has it, with the eprint
        doi=_text(entry, "doi", ARXIV).split(" ")[0],
        eprint=eprint,
        fields=(("note", dump_to_latex(journal)),) if journal else (),  # fields hold LaTeX
    )


def _categories(entry: ET.Element) -> tuple[str, ...]:
    primary = entry.find(ARXIV + "primary_category")
    terms = [primary.get("term", "")] if primary is not None else []
    terms += [c.get("term", "") for c in entry.findall(ATOM + "category")]
    return tuple(dict.fromkeys(t for t in terms if _CATEGORY.match(t)))


def _text(element: ET.Element, name: str, namespace: str = ATOM) -> str:
    found = element.find(namespace + name)
    return " ".join("".join(found.itertext()).split()) if found is not None else ""
