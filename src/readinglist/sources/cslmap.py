"""CSL-JSON's data model in BibTeX's terms: item types, variables, names and dates.

CSL text is plain Unicode with a few HTML-like tags (``<i>``, ``<sup>``, ``<span class="nocase">``);
it is made LaTeX here, as a BibTeX file states it, so every record of a bibliography file
carries LaTeX (``LATEX_KINDS`` in ``sources``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..latex import text_to_latex
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


def plain(value: Any) -> str:
    """A CSL value as text: a string as it is, a number as ``str(n)``, a list's strings and numbers
    joined with ", "; anything else (an object, null, true) is no text. Never a Python repr."""
    if isinstance(value, list):
        return ", ".join(text for text in map(_scalar, value) if text)
    return _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def latex(value: Any) -> str:
    """A CSL string (or number) as LaTeX: every character kept as text, the rich-text tags made commands.

    Only CSL's own tags (``<i>``, ``<b>``, ``<sup>``, ``<sub>``, ``<sc>``, ``<span class="nocase">``,
    ``<span class="nodecor">``, ``<span style="font-variant:small-caps;">``) that open and close in
    order are markup, as citeproc-js reads them; any other ``<`` or ``>`` (``k < 3``, ``<script>``,
    an unclosed ``<i>``) is text.
    """
    text = " ".join(plain(value).split())
    out, pos = [], 0
    for match, command in _paired_tags(text):
        out += [text_to_latex(text[pos : match.start()]), command]
        pos = match.end()
    out.append(text_to_latex(text[pos:]))
    return "".join(out)


_TAG = re.compile(
    r'<(/?)(i|b|sup|sub|sc|span)((?:\s+class="(?:nocase|nodecor)"|\s+style="font-variant:\s*small-caps;?"))?\s*>'
)
_COMMANDS = {"i": "\\emph{", "b": "\\textbf{", "sup": "\\textsuperscript{", "sub": "\\textsubscript{",
             "sc": "\\textsc{", "nocase": "{", "nodecor": "{", "small-caps": "\\textsc{"}  # fmt: skip


def _paired_tags(text: str) -> list[tuple[re.Match[str], str]]:
    """The tags that open and close in order, each with its LaTeX (a command's start, or "}"), in text order."""
    opened: list[re.Match[str]] = []
    pairs: list[tuple[re.Match[str], str]] = []
    for match in _TAG.finditer(text):
        closing, name, attributes = match.groups()
        if closing and not attributes and opened and opened[-1].group(2) == name:
            start = opened.pop()
            pairs += [(start, _command(start)), (match, "}")]
        elif not closing and bool(attributes) == (name == "span"):
            opened.append(match)
    return sorted(pairs, key=lambda pair: pair[0].start())


def _command(match: re.Match[str]) -> str:
    attributes = match.group(3) or ""
    kind = next((k for k in ("nocase", "nodecor", "small-caps") if k in attributes), match.group(2))
    return _COMMANDS[kind]


def name(person: Any) -> str:
    """A CSL name object as BibTeX's ``von Last, Jr, First``; a ``literal`` name braced whole."""
    if not isinstance(person, dict):
        raise ValueError(f"a name is not an object: {_shown(person)}")
    if person.get("literal"):
        return "{" + latex(person["literal"]) + "}"
    family = latex(person.get("family", ""))
    if not family:
        given = latex(person.get("given", ""))
        if not given:
            raise ValueError(f"a name has neither family, given nor literal: {_shown(person)}")
        return "{" + given + "}"
    if "," in family or re.search(r"\band\b", family, re.I) or " " in family:
        family = "{" + family + "}"  # stays one family name when BibTeX splits the name again
    particle = latex(person.get("non-dropping-particle", ""))
    last = f"{particle} {family}" if particle else family
    given = " ".join(latex(person[k]) for k in ("given", "dropping-particle") if person.get(k))
    suffix = latex(person.get("suffix", ""))
    return ", ".join(p for p in (last, suffix, given) if p) if not suffix or given else f"{last}, {suffix}, "


def _shown(value: Any) -> str:
    """A value for a skip's reason: its JSON, cut short (it is the file's text, and may be huge)."""
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def date(value: Any) -> tuple[int | None, str]:
    """The year and the month name of a CSL date (``date-parts``, ``raw``, ``literal`` or an EDTF string)."""
    if isinstance(value, str):
        value = {"raw": value}
    if not isinstance(value, dict):
        return None, ""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _int(parts[0][0]), _month(parts[0][1] if len(parts[0]) > 1 else None)
    text = plain(value.get("raw") or value.get("literal") or "")
    match = re.search(r"(?<![0-9])([0-9]{4})(?:-([0-9]{1,2}))?(?![0-9])", text)
    return (int(match.group(1)), _month(match.group(2))) if match else (None, "")


def _int(value: Any) -> int | None:
    text = str(value).strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,4}", text) else None


def _month(value: Any) -> str:
    number = _int(value) if value is not None else None
    return MONTHS[number - 1] if number and 1 <= number <= 12 else ""
