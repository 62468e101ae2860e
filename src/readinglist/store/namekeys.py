"""Name keys: when two ways of writing a name can be one person (no pybtex: every page's
credit line asks for an author's id, ``enrich/credit.py``).

A spelling key folds what is typography, not the name: accents (anyascii: "Ł" is "L", where
Unicode decomposition drops it), case, dots, hyphens and spaces ("Yann Le Cun", "Yann LeCun").
A name's parts: its family name (the last word, with the particles before it: "Le Cun",
"van den Heuvel"), and its given names, each whole or an abbreviation ("J.", "Ya.", "G.E.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

from ..latex import to_text

PARTICLES = frozenset(
    "al ben bin da dal de dei del della der des di do dos du el la le lo op san st ten ter van vander von zu".split()
)
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
_WORD = re.compile(r"[a-z0-9]+")
# A nickname quoted or in parentheses is no given name: 'Alex "Sandy" Pentland', "Jiashan (Julia) Zhang".
_NICKNAME = re.compile(r"\"[^\"]*\"|\([^)]*\)|``[^']*''")


@dataclass(frozen=True)
class Given:
    """One given name: ``text`` folded, ``short`` when written as an abbreviation ("J.", "Ya.")."""

    text: str
    short: bool

    def fits(self, other: Given) -> bool:
        """The two can name one person: equal, an abbreviation of the other, or its short form
        ("Alex" for "Alexander", three letters at least)."""
        a, b = sorted((self, other), key=lambda g: len(g.text))
        if a.short or b.short:
            return b.text.startswith(a.text)
        return a.text == b.text or (len(a.text) >= 3 and b.text.startswith(a.text))


@dataclass(frozen=True)
class NameParts:
    family: str  # folded, no spaces: "lecun", "peytonjones" is "jones" with "peyton" a given name
    given: tuple[Given, ...]

    def fits(self, other: NameParts) -> bool:
        """One family name, first given names that fit, and the fewer other given names found in
        order among the more ("S. Peyton Jones", "Simon L. Peyton Jones"); a name with no given
        name fits none (a bare family name says nothing of who)."""
        if self.family != other.family or not self.given or not other.given:
            return False
        if not self.given[0].fits(other.given[0]):
            return False
        few, many = sorted((self.given[1:], other.given[1:]), key=len)
        rest = iter(many)
        return all(any(g.fits(m) for m in rest) for g in few)


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lower-case ASCII: accents and other scripts transliterated (anyascii), as a person would."""
    return anyascii(to_text(text) if "\\" in text or "{" in text else text).lower()


def natural(name: str) -> str:
    """A name folded, in reading order: BibTeX's "von Last, Jr, First" as "First von Last"."""
    pieces = [p.strip() for p in fold(name).split(",")]
    return f"{pieces[-1]} {pieces[0]}" if len(pieces) > 1 else pieces[0]


def spelling(name: str) -> str:
    """What is left of a name without its typography: variants with one spelling are one name."""
    return "".join(_WORD.findall(natural(name)))


@lru_cache(maxsize=1 << 16)
def name_parts(name: str) -> NameParts:
    words = [w for w in _NICKNAME.sub(" ", natural(name)).split() if w.strip(".-")]
    while len(words) > 1 and words[-1].strip(".,") in _SUFFIXES:
        words.pop()
    at = len(words) - 1
    while at > 1 and words[at - 1] in PARTICLES:  # "Yann Le Cun": "Le Cun" (never the first word)
        at -= 1
    family = "".join(_WORD.findall("".join(words[at:])))  # "Smith-Jones" is one family name
    given = tuple(g for word in words[:at] for part in word.split("-") for g in _given(part))  # "J.-P.": two
    return NameParts(family, given)


def _given(word: str) -> list[Given]:
    """ "G.E." is two abbreviations; "Ya." one; "Javier" a whole name."""
    parts = word.split(".")
    return [Given(t, n < len(parts) - 1 or len(t) == 1) for n, part in enumerate(parts) for t in _WORD.findall(part)]
