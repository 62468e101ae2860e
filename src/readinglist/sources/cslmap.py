"""CSL-JSON's data model in BibTeX's terms: item types, variables, names and dates.

CSL text is plain Unicode with a few HTML-like tags (``<i>``, ``<sup>``, ``<span class="nocase">``);
it is made LaTeX here, as a BibTeX file states it, so every record of a bibliography file
carries LaTeX (``LATEX_KINDS`` in ``sources``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..latex import dump_to_latex
from .fields import MONTHS

# CSL 1.0.2 item types -> BibTeX/BibLaTeX entry types. "article" is CSL's preprint.
TYPES: Mapping[str, str] = {
    "article": "misc", "article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
    "bill": "legislation", "book": "book", "broadcast": "misc", "chapter": "incollection", "classic": "book",
    "collection": "collection", "dataset": "dataset", "document": "misc", "entry": "inreference",
    "entry-dictionary": "inreference", "entry-encyclopedia": "inreference", "event": "misc", "figure": "misc",
    "graphic": "artwork", "hearing": "misc", "interview": "misc", "legal_case": "jurisdiction",
    "legislation": "legislation", "manuscript": "unpublished", "map": "misc", "motion_picture": "movie",
    "musical_score": "music", "pamphlet": "booklet", "paper-conference": "inproceedings", "patent": "patent",
    "performance": "performance", "periodical": "periodical", "personal_communication": "letter", "post": "online",
    "post-weblog": "online", "regulation": "legislation", "report": "report", "review": "review",
    "review-book": "review", "software": "software", "song": "audio", "speech": "misc", "standard": "standard",
    "thesis": "thesis", "treaty": "legal", "webpage": "online",
}  # fmt: skip
JOURNAL_TYPES = frozenset({"article", "article-journal", "article-magazine", "article-newspaper", "review"})

# CSL variable -> BibTeX field, for the text variables that map one to one.
VARIABLES: Mapping[str, str] = {
    "publisher-place": "address", "volume": "volume", "page": "pages", "edition": "edition", "ISBN": "isbn",
    "ISSN": "issn", "collection-title": "series", "note": "note", "language": "language", "version": "version",
    "chapter-number": "chapter", "number-of-pages": "pagetotal", "medium": "howpublished",
}  # fmt: skip


def latex(value: Any) -> str:
    """A CSL string (or number) as LaTeX: specials escaped, the rich-text tags made commands."""
    text = dump_to_latex(" ".join(str(value).split()))
    for pattern, replacement in _TAGS:
        text = pattern.sub(replacement, text)
    return re.sub(r"<[^>]*>", "", text)  # any other tag: its text stays, the tag goes


_TAGS = [
    (re.compile(r"<span class=\\?\"nocase\\?\">(.*?)</span>"), r"{\1}"),
    (re.compile(r"<span style=\\?\"font-variant:\s*small-caps;?\\?\">(.*?)</span>"), r"\\textsc{\1}"),
    (re.compile(r"<i>(.*?)</i>"), r"\\emph{\1}"),
    (re.compile(r"<b>(.*?)</b>"), r"\\textbf{\1}"),
    (re.compile(r"<sup>(.*?)</sup>"), r"\\textsuperscript{\1}"),
    (re.compile(r"<sub>(.*?)</sub>"), r"\\textsubscript{\1}"),
]


def name(person: Any) -> str:
    """A CSL name object as BibTeX's ``von Last, Jr, First``; a ``literal`` name braced whole."""
    if not isinstance(person, dict):
        raise ValueError(f"a name is not an object: {person!r}")
    if person.get("literal"):
        return "{" + latex(person["literal"]) + "}"
    family = latex(person.get("family", ""))
    if not family:
        given = latex(person.get("given", ""))
        if not given:
            raise ValueError(f"a name has neither family, given nor literal: {person!r}")
        return "{" + given + "}"
    if "," in family or re.search(r"\band\b", family, re.I) or " " in family:
        family = "{" + family + "}"  # stays one family name when BibTeX splits the name again
    particle = latex(person.get("non-dropping-particle", ""))
    last = f"{particle} {family}" if particle else family
    given = " ".join(latex(person[k]) for k in ("given", "dropping-particle") if person.get(k))
    suffix = latex(person.get("suffix", ""))
    return ", ".join(p for p in (last, suffix, given) if p) if not suffix or given else f"{last}, {suffix}, "


def date(value: Any) -> tuple[int | None, str]:
    """The year and the month name of a CSL date (``date-parts``, ``raw``, ``literal`` or an EDTF string)."""
    if isinstance(value, str):
        value = {"raw": value}
    if not isinstance(value, dict):
        return None, ""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _int(parts[0][0]), _month(parts[0][1] if len(parts[0]) > 1 else None)
    text = str(value.get("raw") or value.get("literal") or "")
    match = re.search(r"(?<![0-9])([0-9]{4})(?:-([0-9]{1,2}))?(?![0-9])", text)
    return (int(match.group(1)), _month(match.group(2))) if match else (None, "")


def _int(value: Any) -> int | None:
    text = str(value).strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,4}", text) else None


def _month(value: Any) -> str:
    number = _int(value) if value is not None else None
    return MONTHS[number - 1] if number and 1 <= number <= 12 else ""
