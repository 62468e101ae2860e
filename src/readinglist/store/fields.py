"""The one field table of refs.bib: each row's BibTeX names, conversion both ways and merge rule.

``bibfile`` reads entries (``read``) and writes works (``write``) through these rows, and the
importer merges works (``merge``) and decides which fields of an entry an import changed
(``names``) through them, so a field cannot be read one way and written another.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import arxiv_categories
from ..model import Work
from ..sources.fields import arxiv_eprint, date_year, public_url, split_keywords
from ..years import plausible_year
from .provenance import format_provenance, parse_provenance

Fields = Mapping[str, str]  # an entry's fields, lower-case names


@dataclass(frozen=True)
class Row:
    attrs: tuple[str, ...]  # the Work attributes the row carries
    names: tuple[str, ...]  # the BibTeX fields it writes, and rewrites when one of ``attrs`` changes
    read: Callable[[Fields], dict[str, Any]]
    write: Callable[[Work], dict[str, str]]
    merge: Callable[[Work, Work], dict[str, Any]]


def _fill(attr: str) -> Callable[[Work, Work], dict[str, Any]]:
    """Merge rule: the stored value wins; an empty one is filled from the new record."""
    return lambda base, new: {attr: getattr(base, attr) or getattr(new, attr)}


def _plain(name: str, attr: str | None = None) -> Row:
    """A field stored as is, under one name."""
    attr = attr or name

    def read(fields: Fields) -> dict[str, Any]:
        return {attr: fields.get(name, "").strip()}

    return Row((attr,), (name,), read, lambda w: _some(name, getattr(w, attr)), _fill(attr))


def _some(name: str, value: str) -> dict[str, str]:
    return {name: value} if value else {}


# --- title ------------------------------------------------------------------------------------


def _read_title(fields: Fields) -> dict[str, Any]:
    title = fields.get("title", "")
    return {"title": title, "title_inferred": bool(title) and fields.get("inferredtitle", "") == title}


def _write_title(work: Work) -> dict[str, str]:
    return {"title": work.title, **({"inferredtitle": work.title} if work.title_inferred else {})}


def _merge_title(base: Work, new: Work) -> dict[str, Any]:
    """A real title replaces a working title the tool made up; nothing else replaces a title."""
    take = base.title_inferred and not new.title_inferred
    return {"title": new.title if take else base.title, "title_inferred": base.title_inferred and not take}


# --- year: BibTeX's year, else BibLaTeX's date ------------------------------------------------------


def read_year(value: str) -> int | None:
    """A plausible year of ASCII digits (``years.plausible_year``: 1400 to next year); anything
    else ("forthcoming", "²⁰²⁰", "n.d.", Mendeley's "6") is an unknown year, kept as written.

    ``str.isdigit`` also accepts superscripts, which ``int`` refuses; a 5,000-digit number is
    refused by ``int`` too.
    """
    return plausible_year(value)


def _merge_year(base: Work, new: Work) -> dict[str, Any]:
    """The stored year wins, and so does a year a person wrote that is not a number ("2021a",
    "forthcoming"), which ``read_fields`` keeps among the extras: an import never replaces it."""
    written = any(k.lower() == "year" for k, _ in base.extra)
    return {"year": base.year if base.year or written else new.year}


def _read_year(fields: Fields) -> dict[str, Any]:
    year = read_year(fields.get("year", ""))
    return {"year": year if year is not None else read_year(date_year(fields.get("date", "")))}


# --- arXiv categories and the user's keywords share the keywords field ----------------------------


def _read_keywords(fields: Fields) -> dict[str, Any]:
    words = split_keywords(fields.get("keywords", ""))
    ids = arxiv_categories.ids()
    categories = [w for w in words if w in ids]
    primary = fields.get("primaryclass", "").strip()
    if primary in ids and not categories:  # the keywords, where they name categories, are the user's last word
        categories.append(primary)
    keywords = tuple(dict.fromkeys(w for w in words if w not in ids))
    return {"categories": tuple(categories), "keywords": keywords, "eprint": fields.get("eprint", "").strip()}


def _write_keywords(work: Work) -> dict[str, str]:
    out = _some("keywords", ", ".join(work.categories + work.keywords))
    if work.categories or arxiv_eprint(work.eprint):
        out["archiveprefix"] = "arXiv"
    if work.categories:
        out["primaryclass"] = work.categories[0]
    return {**out, **_some("eprint", work.eprint)}


def _merge_keywords(base: Work, new: Work) -> dict[str, Any]:
    keywords = tuple(dict.fromkeys(base.keywords + new.keywords))
    return {"categories": base.categories or new.categories, "keywords": keywords, "eprint": base.eprint or new.eprint}


def arxiv_id(eprint: str) -> str:
    """The arXiv id without its version (``2007.01045v2`` -> ``2007.01045``); empty if not one."""
    return re.sub(r"v[0-9]+$", "", arxiv_eprint(eprint)).lower()


def _read_doi(fields: Fields) -> dict[str, Any]:
    return {"doi": fields.get("doi", "").strip()}


def _read_url(fields: Fields) -> dict[str, Any]:
    """A hand-written ``file:///Users/ann/...`` is not the work's link: no page publishes it."""
    return {"url": public_url(fields.get("url", ""))}


# --- provenance ----------------------------------------------------------------------------------------


def _merge_sources(base: Work, new: Work) -> dict[str, Any]:
    return {"sources": base.sources + tuple(s for s in new.sources if s not in base.sources)}


def _read_sources(fields: Fields) -> dict[str, Any]:
    return {"sources": parse_provenance(fields.get("provenance", ""))}


def _write_sources(work: Work) -> dict[str, str]:
    return {"provenance": format_provenance(work.sources)}


ROWS = (
    Row(("title", "title_inferred"), ("title", "inferredtitle"), _read_title, _write_title, _merge_title),
    Row(("year",), ("year",), _read_year, lambda w: _some("year", str(w.year) if w.year else ""), _merge_year),
    _plain("abstract"),
    Row(
        ("categories", "keywords", "eprint"),
        ("keywords", "archiveprefix", "primaryclass", "eprint"),
        _read_keywords,
        _write_keywords,
        _merge_keywords,
    ),
    Row(("doi",), ("doi",), _read_doi, lambda w: _some("doi", w.doi), _fill("doi")),
    Row(("url",), ("url",), _read_url, lambda w: _some("url", w.url), _fill("url")),
    Row(("sources",), ("provenance",), _read_sources, _write_sources, _merge_sources),
)
KNOWN = frozenset(name for row in ROWS for name in row.names)
# The entry's other fields follow, as found, then provenance last.
FIELD_ORDER = ("title", "inferredtitle", "author", "year", "abstract", *(n for r in ROWS[3:-1] for n in r.names))
PRIVATE_FIELDS = frozenset({"inferredtitle", "provenance", "abstract"})


def read_fields(fields: Fields) -> dict[str, Any]:
    """The Work attributes of an entry's fields (lower-case names), by the table."""
    out: dict[str, Any] = {}
    for row in ROWS:
        out.update(row.read(fields))
    out["extra"] = tuple((k, v) for k, v in fields.items() if k not in KNOWN or _unread_year(k, v))
    return out


def _unread_year(name: str, value: str) -> bool:
    """A year field that is text, not a number: kept as written, among the extras."""
    return name == "year" and bool(value.strip()) and read_year(value) is None


def write_fields(work: Work) -> dict[str, str]:
    """The table's fields of ``work``, then its other fields (venue, editor, ...), provenance last."""
    out: dict[str, str] = {}
    for row in ROWS[:-1]:
        out.update(row.write(work))
    out.update((k, v) for k, v in work.extra if k not in out)
    out.update(ROWS[-1].write(work))
    return out


def changed_names(old: Work, new: Work) -> list[str]:
    """The BibTeX fields to rewrite in an entry whose work went from ``old`` to ``new``."""
    changed = [n for row in ROWS if any(getattr(old, a) != getattr(new, a) for a in row.attrs) for n in row.names]
    old_extra = dict(old.extra)
    return changed + [k for k, v in new.extra if old_extra.get(k) != v]


def merge(base: Work, new: Work) -> Work:
    """``base`` with what it lacks filled from ``new``: every row's rule, then the other fields."""
    values: dict[str, Any] = {}
    for row in ROWS:
        values.update(row.merge(base, new))
    have = {k.lower() for k, _ in base.extra}
    # A field the table owns is merged by its row above, never a second time as an extra.
    extra = ((k, v) for k, v in new.extra if k.lower() not in have and k.lower() not in KNOWN)
    values["extra"] = base.extra + tuple(extra)
    profile = bool(base.sources) and all(s.kind == "profile" for s in base.sources)
    if base.entry_type == "misc" and new.entry_type != "misc" and profile:
        values["entry_type"] = new.entry_type  # a profile record has no type of its own: misc is a placeholder
    return replace(base, **values)
