"""Working titles for records that have none, taken from the abstract's own words.

A system the abstract names ("we propose X, a ...") becomes "X: <its description>";
otherwise the contribution sentence is shortened. Nothing is invented.
"""

from __future__ import annotations

import re

from ..latex import to_text
from .sentences import contribution_sentence, split_sentences

NAME = r"(?P<name>[A-Z][\w\-]*(?:[A-Z\d][\w\-]*)?(?:\s*\([^)]{1,40}\))?)"
# "we propose DaSGD (...), ...", "we present SwapText, a ...", "namely X", "X, a novel ..."
SYSTEM_PATTERNS = (
    re.compile(
        rf"\b(?:propose|present|introduce|develop|design|build|name)s?\s+(?:a new [^,]*?,\s*)?"
        rf"{NAME}\s*,\s*(?P<desc>(?:an?|the)\s[^.;]+)"
    ),
    re.compile(rf"\bnamely\s+{NAME}\s*,?\s*(?P<desc>(?:an?|the)\s[^.;]+)?"),
    re.compile(rf"\b(?:propose|present|introduce)s?\s+(?P<desc>an?\s[^.;]*?)\s*\(?{NAME}\)?\s*(?:,|\.|which|that)"),
)
MAX_WORDS = 14
LEADS = re.compile(
    r"^.*?\b(?:we|this (?:paper|work|report|research))\s+"
    r"(?:propose|present|introduce|develop|study|show|investigate|report|characteri[sz]e|integrate)s?\s+(?:that\s+)?",
    re.I,
)


def working_title(abstract_latex: str) -> str:
    """A short, literal title for an untitled abstract; empty if the abstract is empty."""
    text = to_text(abstract_latex)
    if not text:
        return ""
    for sentence in split_sentences(text):
        named = _named_system(sentence)
        if named:
            return named
    return _shorten(LEADS.sub("", contribution_sentence(text), count=1))


def _named_system(sentence: str) -> str:
    for pattern in SYSTEM_PATTERNS:
        match = pattern.search(sentence)
        if not match or not _is_system_name(match.group("name")):
            continue
        name = match.group("name").strip()
        desc = (match.group("desc") or "").strip()
        desc = re.sub(r"^(?:an?|the)\s+", "", desc, flags=re.I)
        return f"{name}: {_shorten(desc)}" if desc else name
    return ""


def _is_system_name(name: str) -> bool:
    word = name.split("(")[0].strip()
    # A name has a capital after its first letter (DaSGD, ByteTransformer) or is an acronym.
    return len(word) >= 3 and any(c.isupper() for c in word[1:]) and word.lower() not in {"cnns", "gpus"}


def _shorten(text: str) -> str:
    words = text.split()
    cut = words[:MAX_WORDS]
    short = " ".join(cut).rstrip(",;:.")
    if not short:
        return ""
    return short[0].upper() + short[1:] + ("…" if len(words) > MAX_WORDS else "")
