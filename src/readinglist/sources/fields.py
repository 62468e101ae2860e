"""The one table of bibliographic field names: BibLaTeX's name, BibTeX's name, and the conversion.

Readers store fields under their BibTeX names (``RawRecord.fields``), so a ``journaltitle``
from a BibLaTeX file and a ``journal`` from a BibTeX file are one field downstream; the store's
writer can map back with ``to_biblatex``. Kept here, below ``store``, so both sides import it
(sources -> store is the pipeline's direction).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
# BibTeX's month macros, as BibTeX's standard styles define them (pybtex's too).
MONTH_MACROS = {name[:3].lower(): name for name in MONTHS}


def date_year(value: str) -> str:
    """The year of a BibLaTeX (ISO 8601-2) date: ``2019-05-01``, ``2019/2020``, ``2019-05~``; else empty."""
    match = re.match(r"\s*([0-9]{4})(?![0-9])", value)
    return match.group(1) if match else ""


def date_month(value: str) -> str:
    """The month of a date's start, as BibTeX's month macro spells it (``2019-05`` -> ``May``); else empty."""
    match = re.match(r"\s*[0-9]{4}-([0-9]{2})(?![0-9])", value)
    number = int(match.group(1)) if match else 0
    return MONTHS[number - 1] if 1 <= number <= 12 else ""


@dataclass(frozen=True)
class FieldRule:
    """``biblatex`` is read as ``bibtex`` through ``convert``; a field the entry also has under ``bibtex`` wins."""

    biblatex: str
    bibtex: str
    convert: Callable[[str], str] | None = None


RULES: tuple[FieldRule, ...] = (
    FieldRule("journaltitle", "journal"),
    FieldRule("location", "address"),
    FieldRule("annotation", "annote"),
    FieldRule("eprinttype", "archiveprefix"),
    FieldRule("eprintclass", "primaryclass"),
    FieldRule("date", "year", date_year),
    FieldRule("date", "month", date_month),
)
# BibTeX's theses name their university ``school``; BibLaTeX's name it ``institution``.
THESIS_TYPES = frozenset({"thesis", "phdthesis", "mastersthesis"})
THESIS_RULE = FieldRule("institution", "school")

# The fields a citation or a page uses. Everything else an exporter adds is bookkeeping that is
# not the paper's (``file`` paths on the user's disk, ``timestamp``, ``biburl``, ``owner``,
# ``mendeley-groups``, BibDesk's base64 ``bdsk-file-1``) and is dropped.
BIBLIOGRAPHIC = frozenset(
    "address annote booktitle bookauthor chapter edition editor howpublished institution isbn issn journal "
    "language maintitle month note number organization pages pagetotal publisher school series subtitle "
    "titleaddon type urldate version volume year eid issue addendum pubstate translator entrysubtype".split()
)


def to_bibtex(fields: Mapping[str, str], entry_type: str) -> dict[str, str]:
    """``fields`` (lower-case names) with every BibLaTeX name in ``RULES`` read as its BibTeX name."""
    out = {name: value for name, value in fields.items() if name not in _BIBLATEX_ONLY}
    rules = (*RULES, THESIS_RULE) if entry_type in THESIS_TYPES else RULES
    for rule in rules:
        value = fields.get(rule.biblatex, "")
        converted = rule.convert(value) if rule.convert and value else value
        if converted and not out.get(rule.bibtex):
            out[rule.bibtex] = converted
    if re.fullmatch(r"\s*[0-9]{1,2}\s*", out.get("month", "")):  # BibLaTeX: month = {5}
        out["month"] = date_month(f"2000-{int(out['month']):02d}") or out["month"]
    if entry_type in THESIS_TYPES and "institution" in fields and out.get("school") == fields["institution"]:
        del out["institution"]
    return out


def to_biblatex(fields: Mapping[str, str]) -> dict[str, str]:
    """The reverse, for a writer that emits BibLaTeX: renamed fields only (``year`` and ``month`` stay)."""
    renamed = {rule.bibtex: rule.biblatex for rule in RULES if rule.convert is None}
    return {renamed.get(name, name): value for name, value in fields.items()}


_BIBLATEX_ONLY = frozenset(rule.biblatex for rule in RULES)


def split_keywords(value: str) -> list[str]:
    """Keywords split at commas (BibLaTeX's separator), or at semicolons when there is no comma.

    Better BibTeX writes a comma inside a Zotero tag as a semicolon, so ``;`` is not a separator there.
    """
    return [word.strip() for word in value.split("," if "," in value else ";") if word.strip()]


_ARXIV_ID = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$", re.I)


def arxiv_eprint(value: str) -> str:
    """An arXiv id as given (``arXiv:`` prefix dropped, version kept), or empty if ``value`` is not one."""
    match = _ARXIV_ID.match(value.strip())
    return match.group(1) + (match.group(2) or "") if match else ""


def normalize_doi(value: str) -> str:
    """A bare DOI (``10.1145/x``) from a DOI, ``doi:`` or a doi.org URL; empty if it is none."""
    match = re.search(r"10\.\d{4,9}/\S+", value.strip())
    return match.group(0).rstrip(".") if match else ""


# A link to a file on the exporter's own disk: ``file:///Users/ann/...`` (Mendeley, Zotero),
# ``C:\Users\ann\...``, ``/home/ann/...``. No reader can follow it, and it names the user.
_LOCAL_URL = re.compile(r"(?i)(?:file:|[a-z]:[\\/]|/(?!/)|~|\\)")


def public_url(value: str) -> str:
    """``value`` without the URLs (Mendeley separates several with spaces) that name a file on disk."""
    parts = value.split()
    kept = [part for part in parts if not _LOCAL_URL.match(part)]
    return value.strip() if len(kept) == len(parts) else " ".join(kept)
