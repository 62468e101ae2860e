"""Citation keys: readable (``zheng2020fusionstitching``), unique, valid for BibTeX (page names: ``slugs.py``)."""

from __future__ import annotations

import re

from ..latex import ascii_fold, to_text
from ..slugs import RESERVED

# Words that start titles without saying what they are about.
STOPWORDS = frozenset(
    "integrating examining providing studying investigating state-of-the-art two three four "
    "a an the of for on in to and with via by from towards toward using is are we our this new novel".split()
)


def _slug_word(text: str) -> str:
    """The title's first telling word, hyphenated parts joined ("Graph-Adaptive" -> "graphadaptive")."""
    for word in ascii_fold(to_text(text)).split():
        if word.lower().strip(",.:;()") in STOPWORDS:
            continue
        slug = re.sub(r"[^a-z0-9]", "", word.lower())
        if slug:
            return slug[:24]
    return ""


def base_key(first_author: str, year: int | None, title: str) -> str:
    last = re.sub(r"[^a-z0-9]", "", ascii_fold(first_author.split()[-1] if first_author else "").lower())
    key = f"{last or 'anon'}{year or ''}{_slug_word(title) or 'untitled'}"
    return key[:60]


def unique_key(base: str, lowered: set[str]) -> str:
    """``base``, or ``base`` with the first free suffix b, c, ...; ``lowered`` holds the taken keys in lower case."""
    if base.lower() not in lowered and base not in RESERVED:
        return base
    for suffix in "bcdefghijklmnopqrstuvwxyz":
        if f"{base}{suffix}".lower() not in lowered:
            return f"{base}{suffix}"
    return f"{base}-{_free_number(base, lowered)}"


def _free_number(base: str, lowered: set[str]) -> int:
    """A number n with ``base-n`` free: the first free one when the taken numbers run 2, 3, ... without a gap.

    Galloping, then bisecting between a taken and a free number: 20,000 works of one title
    share one base, and a linear scan for each made an import of them quadratic (58 s).
    """

    def taken(n: int) -> bool:
        return f"{base}-{n}".lower() in lowered

    low, high = 1, 2  # base-1 is never issued: ``low`` stands for "taken" below
    while taken(high):
        low, high = high, high * 2
    while high - low > 1:  # invariant: low is taken (or 1), high is free
        middle = (low + high) // 2
        low, high = (middle, high) if taken(middle) else (low, middle)
    return high


# What BibTeX and biber accept as a key: printable ASCII without spaces, the characters that
# delimit entries and fields, or TeX's specials; at most 80 characters, so a page name stays short.
_VALID_KEY = re.compile(r"^[!-~]{1,80}$")
_KEY_FORBIDDEN = frozenset(",{}()\"#%'=\\~")


# An id that is an address, not a name: Zotero's CSL-JSON export uses item URIs as ids
# (http://zotero.org/users/local/q8YxEXtR/items/ZC4M8NAU); kept, it would make a page name of a URL.
_URI_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://|^(?:urn|doi):", re.I)


def is_valid_key(key: str) -> bool:
    """A key the user gave is kept when it is one BibTeX accepts (and not taken) and not an address."""
    return bool(_VALID_KEY.match(key)) and not _KEY_FORBIDDEN.intersection(key) and not _URI_KEY.match(key)
