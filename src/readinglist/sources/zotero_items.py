"""Zotero Web API items (``format=json``) as records: one data table from Zotero's item types and
fields to BibTeX's terms, as ``cslmap.py`` is for CSL-JSON.

Zotero's text is plain Unicode with a few rich-text tags in titles (``<i>``, ``<sup>``, ``<span
class="nocase">``): the tags are dropped and the text kept, and the record is a plain-text one
(kind ``zotero``, not in ``LATEX_KINDS``), made BibTeX-safe by the store as a dump's text is.
Zotero 7's ``citationKey`` field, else a Better BibTeX ``Citation Key: x`` line in ``extra``, is
the record's key; ``arXiv: id`` there (as the arXiv translator writes it) is its eprint. Each
item's source is ``zotero/<library>/items/<KEY>:1``, one "file" per item, so the store matches
an item changed upstream to its work by provenance ("same source record").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..model import RawRecord, SourceRef
from ..years import plausible_year
from .fields import MONTHS, arxiv_eprint, normalize_doi

KIND = "zotero"
CHILD_TYPES = frozenset({"note", "attachment", "annotation"})  # never a paper of their own

# Zotero item types -> BibTeX/BibLaTeX entry types (every type of Zotero 7's schema that holds a work).
TYPES: Mapping[str, str] = {
    "journalArticle": "article", "magazineArticle": "article", "newspaperArticle": "article",
    "conferencePaper": "inproceedings", "book": "book", "bookSection": "incollection",
    "encyclopediaArticle": "inreference", "dictionaryEntry": "inreference", "thesis": "thesis",
    "report": "report", "preprint": "misc", "manuscript": "unpublished", "webpage": "online",
    "blogPost": "online", "forumPost": "online", "computerProgram": "software", "dataset": "dataset",
    "patent": "patent", "standard": "standard", "presentation": "misc", "document": "misc",
    "letter": "letter", "statute": "legislation", "case": "jurisdiction",
}  # fmt: skip

# Zotero field -> BibTeX field, for the fields that map one to one (every item type).
FIELDS: Mapping[str, str] = {
    "volume": "volume", "pages": "pages", "edition": "edition", "series": "series", "place": "address",
    "ISBN": "isbn", "ISSN": "issn", "language": "language", "numPages": "pagetotal",
    "conferenceName": "eventtitle", "thesisType": "type", "reportType": "type", "versionNumber": "version",
}  # fmt: skip
# The container a work appeared in: the first of these the item has.
CONTAINERS = ("publicationTitle", "proceedingsTitle", "bookTitle", "encyclopediaTitle", "dictionaryTitle",
              "websiteTitle", "blogTitle", "forumTitle", "programTitle")  # fmt: skip
JOURNAL_TYPES = frozenset({"article"})
# Who published it, by entry type: a thesis's university is its school, a report's its institution.
PUBLISHERS = ("publisher", "university", "institution", "company", "repository")
PUBLISHER_FIELD: Mapping[str, str] = {"thesis": "school", "report": "institution"}
NUMBERS = ("issue", "reportNumber", "number", "patentNumber")

_RICH = re.compile(r'</?(?:i|b|sup|sub|sc)>|<span(?:\s+(?:class|style)="[^"<>]*")*\s*>|</span>')
_EXTRA = re.compile(r"^\s*([A-Za-z][A-Za-z -]{0,40}?)\s*:\s*(.+?)\s*$", re.M)
_YEAR = re.compile(r"(?<![0-9])([0-9]{4})(?![0-9])")
_MONTH = re.compile(r"^[0-9]{4}-([0-9]{2})")
_ARXIV_ID = re.compile(r"^(?:arxiv:\s*)?(.+)$", re.I)


def source_file(library: str, item_key: str) -> str:
    """The provenance "file" of an item: ``zotero/users/123/items/ABCD2345``."""
    return f"{KIND}/{library}/items/{item_key}"


def item_key_of(file: str) -> str:
    """The Zotero item key of a provenance file this module named; empty for any other file."""
    parts = file.split("/")
    return parts[-1] if len(parts) == 5 and parts[0] == KIND and parts[3] == "items" else ""


def is_work(item: Mapping[str, Any]) -> bool:
    """A top-level item (not a note, attachment or annotation) that the trash does not hold."""
    data = item.get("data", {})
    return isinstance(data, dict) and data.get("itemType") not in CHILD_TYPES and not data.get("deleted")


def to_record(item: Mapping[str, Any], library: str) -> RawRecord:
    """One Zotero item as a record; ValueError (the skip's reason) when it has no title."""
    data: dict[str, Any] = item["data"]
    title = text(data.get("title"))
    if not title:
        raise ValueError("the item has no title")
    extra = extra_fields(text(data.get("extra"), keep_lines=True))
    entry_type = TYPES.get(str(data.get("itemType", "")), "misc")
    authors = tuple(name(c) for c in _creators(data, "author") if name(c))
    return RawRecord(
        source=SourceRef(source_file(library, str(item["key"])), 1, kind=KIND),
        title=title,
        authors=authors,
        year=plausible_year(_year(text(data.get("date")))),
        abstract=text(data.get("abstractNote")),
        key=text(data.get("citationKey")) or extra.get("citation key", ""),
        entry_type=entry_type,
        doi=normalize_doi(text(data.get("DOI")) or extra.get("doi", "")),
        eprint=_eprint(data, extra),
        url=text(data.get("url")),
        keywords=tuple(t for t in (text(tag.get("tag")) for tag in _list(data.get("tags"))) if t),
        fields=_fields(data, entry_type),
    )


def text(value: Any, keep_lines: bool = False) -> str:
    """A Zotero string as plain text: rich-text tags dropped, whitespace collapsed (lines kept if asked)."""
    if not isinstance(value, str | int) or isinstance(value, bool):
        return ""
    plain = _RICH.sub("", str(value))
    if keep_lines:
        return "\n".join(" ".join(line.split()) for line in plain.splitlines())
    return " ".join(plain.split())


def name(creator: Mapping[str, Any]) -> str:
    """A creator as ``Last, First``; a one-field name (an institution) braced whole."""
    if creator.get("name"):
        return "{" + text(creator["name"]) + "}"
    last, first = text(creator.get("lastName")), text(creator.get("firstName"))
    return f"{last}, {first}" if last and first else last or (first and "{" + first + "}")


def extra_fields(extra: str) -> dict[str, str]:
    """``Name: value`` lines of Zotero's ``extra`` (Better BibTeX's ``Citation Key``), names lower case."""
    found: dict[str, str] = {}
    for match in _EXTRA.finditer(extra):
        found.setdefault(" ".join(match.group(1).lower().split()), match.group(2))
    return found


def _creators(data: Mapping[str, Any], role: str) -> list[Mapping[str, Any]]:
    return [c for c in _list(data.get("creators")) if isinstance(c, dict) and c.get("creatorType") == role]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _year(date: str) -> str:
    match = _YEAR.search(date)
    return match.group(1) if match else ""


def _eprint(data: Mapping[str, Any], extra: Mapping[str, str]) -> str:
    """An arXiv id from ``archiveID`` (``arXiv:2101.00001``, preprints) or ``arXiv:`` in ``extra``."""
    for value in (text(data.get("archiveID")), extra.get("arxiv", "")):
        match = _ARXIV_ID.match(value.strip())
        found = arxiv_eprint(match.group(1).split()[0]) if match and match.group(1).split() else ""
        if found:  # "arXiv:1706.03762 [cs]": the id, without its category
            return found
    return ""


def _fields(data: Mapping[str, Any], entry_type: str) -> tuple[tuple[str, str], ...]:
    out = {field: text(data.get(name)) for name, field in FIELDS.items()}
    container = next((text(data[c]) for c in CONTAINERS if text(data.get(c))), "")
    out["journal" if entry_type in JOURNAL_TYPES else "booktitle"] = container
    out[PUBLISHER_FIELD.get(entry_type, "publisher")] = next(
        (text(data[p]) for p in PUBLISHERS if text(data.get(p))), ""
    )
    out["number"] = next((text(data[n]) for n in NUMBERS if text(data.get(n))), "")
    editors = [name(c) for c in _creators(data, "editor") if name(c)]
    out["editor"] = " and ".join(editors)
    month = _MONTH.match(text(data.get("date")))
    out["month"] = MONTHS[int(month.group(1)) - 1] if month and 1 <= int(month.group(1)) <= 12 else ""
    return tuple((k, v) for k, v in out.items() if v)
