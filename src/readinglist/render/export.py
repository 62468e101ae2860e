"""A paper in other tools' formats: CSL-JSON, RIS, BibLaTeX and the ACL style (citeproc-py).

Every format starts from what the Cite menu already has, so all tabs name the same people:
CSL-JSON from the bibliography's derived entry (``bibliography.derive``: plain text, honest
authors, safe links), RIS and the ACL reference from that CSL item, BibLaTeX from the page's
public BibTeX block. The type and field tables are the reverse of ``sources/cslmap.py``'s.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib.resources import files
from typing import Any

import rispy
from citeproc import Citation as CslCitation
from citeproc import CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
from citeproc.source.json import CiteProcJSON

from ..sources.fields import to_biblatex
from ..years import plausible_year
from .bibliography import Derived
from .escape import clean

# The bibliography's plain-style types -> CSL item types (cslmap.TYPES read backwards).
CSL_TYPES = {
    "article": "article-journal", "inproceedings": "paper-conference", "book": "book", "inbook": "chapter",
    "incollection": "chapter", "booklet": "pamphlet", "manual": "book", "mastersthesis": "thesis",
    "phdthesis": "thesis", "techreport": "report", "proceedings": "book", "unpublished": "manuscript",
}  # fmt: skip
# BibTeX fields -> CSL variables (cslmap.VARIABLES read backwards, and the venues).
CSL_VARIABLES = {
    "journal": "container-title", "booktitle": "container-title", "publisher": "publisher",
    "school": "publisher", "institution": "publisher", "organization": "publisher", "address": "publisher-place",
    "volume": "volume", "number": "issue", "pages": "page", "edition": "edition", "series": "collection-title",
    "chapter": "chapter-number", "howpublished": "medium", "note": "note", "type": "genre", "doi": "DOI",
    "url": "URL",
}  # fmt: skip
# CSL item types -> RIS reference types; anything else is GEN.
RIS_TYPES = {
    "article-journal": "JOUR", "paper-conference": "CPAPER", "book": "BOOK", "chapter": "CHAP",
    "thesis": "THES", "report": "RPRT", "manuscript": "UNPB", "pamphlet": "PAMP", "article": "GEN",
}  # fmt: skip
# BibTeX types with another name in BibLaTeX.
BIBLATEX_TYPES = {
    "phdthesis": "thesis", "mastersthesis": "thesis", "techreport": "report", "conference": "inproceedings",
}  # fmt: skip
THESIS_TYPES = {"phdthesis": "phdthesis", "mastersthesis": "mathesis"}


def csl_item(key: str, derived: Derived) -> dict[str, Any]:
    """One CSL-JSON item (``id`` is the refs.bib key a reader cites with)."""
    item: dict[str, Any] = {"id": key, "type": CSL_TYPES.get(derived.kind, "article")}
    fields = derived.fields
    item["title"] = fields.get("title", "").removeprefix("{").removesuffix("}")
    for name, value in fields.items():
        variable = CSL_VARIABLES.get(name)
        if variable and value and variable not in item:
            item[variable] = value
    if fields.get("eprint"):
        item["number"] = f"arXiv:{fields['eprint']}"
    year = plausible_year(fields.get("year"))  # "²⁰²⁰".isdigit(), but int() refuses it: the one rule
    if year:
        item["issued"] = {"date-parts": [[year]]}
    for role, names in derived.persons.items():
        item[role] = [_csl_name(name) for name in names if name != "others"]
    return item


def _csl_name(name: str) -> dict[str, str]:
    """A derived name (``{von Last Jr}, {First}``, every part braced: ``bibliography._person``) as CSL's."""
    family, _, given = name.partition("}, {")
    family, given = family.removeprefix("{").removesuffix("}"), given.removesuffix("}")
    return {"family": family, "given": given} if given else {"literal": family}


def csl_json(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


def csl_line(item: dict[str, Any]) -> str:
    """One item of a CSL-JSON download, on one line: json's C encoder (``indent`` falls back to
    the pure-Python one, most of rendering the downloads), and each item encoded once for all sets."""
    return json.dumps(item, ensure_ascii=False)


def csl_lines(lines: list[str]) -> str:
    """A CSL-JSON list of items already encoded by :func:`csl_line`, one a line, as records.json."""
    return "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"


def ris(item: dict[str, Any]) -> str:
    """The item as one RIS record (rispy writes the tags and the ``ER`` line)."""
    record: dict[str, Any] = {"type_of_reference": RIS_TYPES.get(item["type"], "GEN"), "id": item["id"]}
    record["title"] = item.get("title", "")
    record["authors"] = [_ris_name(n) for n in item.get("author", [])]
    if item.get("editor"):
        record["secondary_authors"] = [_ris_name(n) for n in item["editor"]]  # A2: a book's or proceedings' editors
    if "issued" in item:
        record["year"] = str(item["issued"]["date-parts"][0][0])
    simple = {"container-title": "secondary_title", "publisher": "publisher", "volume": "volume",
              "issue": "number", "DOI": "doi", "publisher-place": "place_published", "note": "notes"}  # fmt: skip
    record |= {tag: item[variable] for variable, tag in simple.items() if item.get(variable)}
    if isinstance(record.get("notes"), str):
        record["notes"] = [record["notes"]]
    record |= {"urls": [item["URL"]]} if item.get("URL") else {}
    first, _, last = str(item.get("page", "")).replace("–", "-").replace("--", "-").partition("-")  # 3–9, as text
    record |= ({"start_page": first} if first else {}) | ({"end_page": last} if last else {})
    return str(rispy.dumps([record], implementation=_RisWriter, skip_unknown_tags=True)).strip() + "\n"


class _RisWriter(rispy.RisWriter):  # type: ignore[misc]
    def set_header(self, count: int) -> str:
        return ""  # rispy numbers each record ("1."): not RIS, and a copy of one record needs none


def _ris_name(name: dict[str, str]) -> str:
    return name.get("literal") or ", ".join(p for p in (name.get("family", ""), name.get("given", "")) if p)


def acl(item: dict[str, Any]) -> str:
    """The ACL proceedings style's reference, as plain text; "" when citeproc-py cannot format it."""
    try:
        bibliography = CitationStylesBibliography(_acl_style(), CiteProcJSON([item]), formatter.plain)
        bibliography.register(CslCitation([CitationItem(item["id"])]))
        return clean(" ".join(str(entry) for entry in bibliography.bibliography()))
    except Exception:  # citeproc-py raises anything on odd data; a menu without a tab beats no page
        return ""


@lru_cache(maxsize=1)
def _acl_style() -> CitationStylesStyle:
    path = files("readinglist").joinpath("data/acl.csl")
    with path.open("rb") as handle:  # citeproc-py wants a file or path; the package may be zipped
        return CitationStylesStyle(handle, validate=False)


def biblatex(bibtex: str) -> str:
    """The page's BibTeX block in BibLaTeX's terms: its type and field names (``sources/fields.py``).

    The block is the house style (``bibfile.format_entry``: ``@type{key,``, then one ``  name = {value},``
    per field), so names are renamed where a field starts (brace depth 0): no parse, which cost 10 ms a page.
    """
    head, _, rest = bibtex.strip().partition("\n")
    match = _HEAD.match(head)
    if not match:
        return ""
    kind = match.group(1).lower()
    lines, depth = [f"@{BIBLATEX_TYPES.get(kind, kind)}{{{match.group(2)},"], 0
    for line in rest.splitlines():
        field = _FIELD.match(line) if depth == 0 else None
        if field:
            line = f"  {_biblatex_name(field.group(1).lower())} = {{{line[field.end() :]}"
        lines.append(line)
        depth += line.count("{") - line.count("}")
    if kind in THESIS_TYPES and not any(_FIELD.match(line) and line.startswith("  type =") for line in lines):
        lines.insert(1, f"  type = {{{THESIS_TYPES[kind]}}},")
    return "\n".join(lines)


_HEAD = re.compile(r"^@([A-Za-z]+)\{([^,\s]+),$")
_FIELD = re.compile(r"^  ([A-Za-z][\w-]*) = \{")


def _biblatex_name(name: str) -> str:
    return "date" if name == "year" else to_biblatex({name: ""}).popitem()[0]
