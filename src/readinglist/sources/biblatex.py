"""BibLaTeX's data model on top of pybtex's parse: entry types, crossref/xdata inheritance, name forms.

Follows the biblatex manual (sections 2.1 entry types, 2.4.2 name lists, B inheritance rules).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Every standard BibTeX and BibLaTeX type, and what it is read as. The aliases are BibLaTeX's own
# (@conference, @electronic, @www); @softwareversion and friends come from biblatex-software.
# BibTeX's @mastersthesis, @phdthesis and @techreport stay: BibTeX styles know them by name.
ENTRY_TYPES: Mapping[str, str] = {
    **{t: t for t in (
        "article book mvbook inbook bookinbook suppbook booklet collection mvcollection incollection "
        "suppcollection dataset manual misc online patent periodical suppperiodical proceedings mvproceedings "
        "inproceedings reference mvreference inreference report software thesis unpublished "
        "mastersthesis phdthesis techreport artwork audio bibnote commentary image jurisdiction legislation "
        "legal letter movie music performance review standard video"
    ).split()},
    "conference": "inproceedings",
    "electronic": "online",
    "www": "online",
    "data": "dataset",
    "softwareversion": "software",
    "softwaremodule": "software",
    "codefragment": "software",
}  # fmt: skip
# Containers: when only a crossref target, they hold their children's shared fields; not papers.
CONTAINERS = frozenset({"proceedings", "mvproceedings", "periodical"})
# Data-only entries: never papers.
DATA_ONLY = frozenset({"xdata", "set"})

_BOOKS = frozenset({"book", "mvbook", "collection", "mvcollection", "reference", "mvreference", "proceedings",
                    "mvproceedings"})  # fmt: skip
_PARTS = frozenset({"inbook", "bookinbook", "suppbook", "incollection", "suppcollection", "inreference",
                    "inproceedings"})  # fmt: skip
# Fields a child never inherits (biblatex's defaults), besides those renamed below.
_NOT_INHERITED = frozenset({"ids", "crossref", "xref", "xdata", "entryset", "entrysubtype", "execute", "label",
                            "options", "presort", "related", "relatedoptions", "relatedstring", "relatedtype",
                            "shorthand", "shorthandintro", "sortkey", "keywords"})  # fmt: skip

_IDENTIFIERS = frozenset({"doi", "url", "urldate", "eprint", "eprinttype", "eprintclass", "archiveprefix",
                          "primaryclass", "abstract", "file", "pages", "isbn"})  # fmt: skip


def renamed(parent_type: str, child_type: str) -> dict[str, str]:
    """How a parent's fields are named in the child (biblatex appendix B); others keep their names."""
    names: dict[str, str] = {}
    if parent_type.startswith("mv") and (child_type in _PARTS or child_type in _BOOKS):
        names = {"title": "maintitle", "subtitle": "mainsubtitle", "titleaddon": "maintitleaddon"}
    elif parent_type in _BOOKS and child_type in _PARTS:
        # A chapter's title is its own: the book's title is its booktitle.
        names = {"title": "booktitle", "subtitle": "booksubtitle", "titleaddon": "booktitleaddon"}
    elif parent_type == "periodical" and child_type in {"article", "suppperiodical"}:
        names = {"title": "journaltitle", "subtitle": "journalsubtitle"}
    if names and child_type in {"inbook", "bookinbook", "suppbook"}:
        names["author"] = "bookauthor"
    return names


def inherit(child: Mapping[str, str], parent: Mapping[str, str], child_type: str, parent_type: str) -> dict[str, str]:
    """``child`` with each field it lacks taken from ``parent`` (under its inherited name)."""
    names = renamed(parent_type, child_type)
    # A paper in proceedings is not the proceedings: their DOI, URL, ISBN and abstract are not the
    # paper's, whatever the paper's type (DBLP's papers got the proceedings' URL).
    skipped = _NOT_INHERITED | (_IDENTIFIERS if names or parent_type in CONTAINERS else frozenset())
    out = dict(child)
    for name, value in parent.items():
        if name not in skipped:
            out.setdefault(names.get(name, name), value)
    if names.get("author") == "bookauthor" and "author" in parent:
        out.setdefault("author", parent["author"])  # a chapter of a monograph is by the book's author too
    return out


_NAME_PART = re.compile(r"^\s*(family|given|prefix|suffix|useprefix|juniorcomma)\s*=", re.I)
_PART_TO_SLOT = {"prefix": 0, "family": 1, "suffix": 2, "given": 3}


def is_extended_name(name: str) -> bool:
    """``family=Heuvel, given=Ludwig, prefix=van`` (biblatex's extended name format)."""
    return bool(_NAME_PART.match(name))


def extended_name(name: str) -> str:
    """The extended name as BibTeX's ``von Last, Jr, First``; ValueError if a part is not ``key=value``."""
    slots = ["", "", "", ""]
    for part in split_top_level(name, ","):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if sep and key.endswith("-i"):
            continue  # given-i=J: an initial, implied by the part itself
        if not sep or key not in {*_PART_TO_SLOT, "useprefix", "juniorcomma"}:
            raise ValueError(f"name part {part.strip()!r} is not family=, given=, prefix= or suffix=")
        if key in _PART_TO_SLOT:
            slots[_PART_TO_SLOT[key]] = _unbrace(value.strip())
    prefix, family, suffix, given = slots
    if not family:
        raise ValueError("extended name has no family= part")
    # Braced so a multi-word family name ("van der Berg") stays whole when BibTeX splits it again.
    family = f"{{{family}}}" if " " in family and not family.startswith("{") else family
    last = f"{prefix} {family}" if prefix else family
    if suffix:
        return f"{last}, {suffix}, {given}"
    return f"{last}, {given}" if given else last


def split_top_level(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` characters outside braces."""
    if "{" not in text and "}" not in text:  # most names: no brace, every separator is outside
        return text.split(separator)
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _unbrace(value: str) -> str:
    if value.startswith("{") and value.endswith("}") and value.count("{") == 1:
        return value[1:-1]
    return value
