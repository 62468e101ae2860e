"""Name lists of a BibTeX entry: BibTeX's form, "and others", and lists written with commas.

BibTeX separates names with "and"; a name of four comma-separated parts or more is one it cannot
read. A real Mendeley export writes ``Weiyi Peng, Jie Qing Chen, ..., Michael A. Davies``: read
as the list it is, with a warning, rather than losing the entry.
"""

from __future__ import annotations

import re

from pybtex.bibtex.utils import split_name_list

from ..model import RawRecord, Skip
from . import biblatex
from .warned import Warned

_ET_AL = re.compile(r"^(?:others|\{?et\.?[\s~]+al\.?\}?)$", re.I)
_DOUBLED_AND = re.compile(r"^and\s+", re.I)
_AMPERSAND = re.compile(r"^(?:\{?\\?&\}?|and)\s+", re.I)  # "& Gann", "{\&} Gann", "and Gann"
_INITIALS = re.compile(r"(?:[A-Z]\.?[\s-]*){1,4}")  # "M", "N.", "D. M.", "J.-P."
_TRAILING_ET_AL = re.compile(r"[\s,~]+et[\s~]+al\.?$", re.I)


def names(value: str) -> tuple[tuple[str, ...], bool]:
    """A name list's names in BibTeX's form, and whether it ended in "and others" or "et al.".

    ValueError for a name BibTeX cannot read (three commas, an empty name, a bad extended name).
    """
    out, et_al = [], False
    for name in split_name_list(value) if value.strip() else []:
        name = _DOUBLED_AND.sub("", name.strip())  # "Paige, Brooks and and Van de Meent, Jan-Willem"
        if not name and len(split_name_list(value)) > 1:
            continue  # "A and  and B": the empty name between the two
        if _ET_AL.match(name):
            et_al = True
            continue
        if _TRAILING_ET_AL.search(name):
            name, et_al = _TRAILING_ET_AL.sub("", name), True
        if biblatex.is_extended_name(name):
            name = biblatex.extended_name(name)
        listed = comma_listed(name)
        if not name.strip(" ,{}") or (len(biblatex.split_top_level(name, ",")) > 3 and not listed):
            raise ValueError(f"cannot read the name {name!r} in {value!r}")
        out += listed or [name]
    return tuple(out), et_al


def comma_listed(name: str) -> list[str]:
    """The names of a list written with commas instead of "and" (``Weiyi Peng, Jie Qing Chen,
    Chengwen Liu``, as a real Mendeley export has it), or [] if ``name`` is not one: four parts or
    more, each a given name and a family name but at most one (a list cut short ends "..., Za");
    or a reference's list, family names and initials by turns ("Dodgson, M, Philips, N., & Gann,
    D. M.", as a JabRef file has it)."""
    parts = [_AMPERSAND.sub("", part.strip()) for part in biblatex.split_top_level(name, ",")]
    parts = [part for part in parts if part]
    if len(parts) < 3 or len(biblatex.split_top_level(name, ",")) <= 3:
        return []
    if len(parts) % 2 == 0 and all(_INITIALS.fullmatch(part) for part in parts[1::2]):
        return [f"{family}, {initials}" for family, initials in zip(parts[::2], parts[1::2], strict=True)]
    return parts if sum(len(part.split()) < 2 for part in parts) <= 1 else []


def names_warning(record: RawRecord, fields: dict[str, str]) -> list[Skip]:
    """Names listed with commas instead of "and": read as a list, and said (BibTeX would not)."""
    values = (" ".join(fields.get(field, "").split()) for field in ("author", "editor"))  # as read: "and\n" too
    lists = [n for value in values for n in split_name_list(value) if comma_listed(n)]
    if not lists:
        return []
    count = len(comma_listed(lists[0]))
    why = f"the names {lists[0][:60]!r}... are separated by commas, not 'and': read as {count} names"
    return [Warned(record.source.file, record.source.line, record.key, why)]
