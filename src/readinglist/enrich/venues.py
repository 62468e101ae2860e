"""The field a record's venue names: ``data/venues.toml``, matched in what a record carries.

A venue is looked for, in this order, in a DBLP key (``DBLP:conf/cvpr/HeZRS16``, also in
``crossref`` and ``biburl``), in the venue fields (booktitle, journal, ...) and in the DOI's
prefix. Names are compared as words: case, accents, punctuation, years, ordinals, "Int."
for "International" and words such as "Proceedings of the" or the table's "IEEE" are ignored, so
"Proc. of the 33rd Int. Conf. on Machine Learning (ICML'16)" is ICML. An abbreviation in
capitals (CASE, FAST, RANDOM) counts only written in capitals: as a word it names nothing.
The longest name found wins ("Artificial Intelligence and Statistics" over "Artificial
Intelligence").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..latex import to_text
from ..model import Work
from ..tomlfile import package_toml

VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "eventtitle", "series", "publisher", "organization")
DBLP_FIELDS = ("crossref", "biburl", "bibsource")
GENERIC = frozenset("proceedings proc of the on in for and annual a an".split())
SHORT = {"int": "international", "intl": "international", "conf": "conference", "symp": "symposium"}
# Dropped from the table's names only: "IEEE Transactions on Robotics" is also written without
# "IEEE". A name left one word by it keeps them ("Journal of the ACM" is not "Journal").
PUBLISHERS = frozenset("acm ieee cvf ifip".split())
_WORD = re.compile(r"[^\W\d_]+|\d+")
_ORDINAL = re.compile(r"\b\d+(?:st|nd|rd|th)\b", re.I)
_DBLP = re.compile(r"\b((?:conf|journals)/[\w-]+)/")
# A name kept for the page only: "Machine Learning (journal)", "IEEE Software (magazine)".
_DISPLAY_ONLY = re.compile(r" \((?:journal|magazine)\)$")


@dataclass(frozen=True)
class Venue:
    """A venue's name as a page shows it, its categories, and the archives a guess may use."""

    name: str
    categories: tuple[str, ...]
    archives: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    words: dict[tuple[str, ...], Venue]  # names, lowercased
    capitals: dict[tuple[str, ...], Venue]  # abbreviations, as written
    dblp: dict[str, Venue]  # "conf/cvpr"; "conf/" and "journals/": any other stream
    doi: tuple[tuple[str, Venue], ...]  # "10.1103/"
    longest: int


def words(text: str, ignored: frozenset[str] = GENERIC) -> list[str]:
    """The words of a venue's name as written, without the ones that tell no venue apart."""
    plain = unicodedata.normalize("NFKD", to_text(text).replace("&", " and "))
    plain = _ORDINAL.sub(" ", "".join(c for c in plain if not unicodedata.combining(c)))
    said = [SHORT.get(w.lower(), w) for w in _WORD.findall(plain) if not w.isdigit()]
    return [w for w in said if w.lower() not in ignored]


def name_words(name: str) -> list[str]:
    """A table name's words; none when they would be one word left of several ("The Web
    Conference" is not "Web"): a single word names a venue only when the name is that word."""
    said = words(name, GENERIC | PUBLISHERS)
    if len(said) > 1 or len(_WORD.findall(name)) == 1:
        return said
    return words(name) if len(words(name)) > 1 else []


@lru_cache(maxsize=1)
def table() -> Table:
    found = Table({}, {}, {}, (), 0)
    doi: list[tuple[str, Venue]] = []
    for field in package_toml("venues.toml")["field"]:
        for names in field["venues"]:
            venue = Venue(_DISPLAY_ONLY.sub("", names[0]), tuple(field["categories"]), tuple(field.get("archives", ())))
            for name in names:
                _add(found, doi, name, venue)
    longest = max(map(len, [*found.words, *found.capitals]))
    return Table(found.words, found.capitals, found.dblp, tuple(doi), longest)


def _add(found: Table, doi: list[tuple[str, Venue]], name: str, venue: Venue) -> None:
    """The first venue to claim a name keeps it: the table lists the likelier reading first."""
    if name.startswith(("conf/", "journals/")):
        found.dblp.setdefault(name, venue)
    elif name.startswith("10."):
        doi.append((name.lower(), venue))
    elif not _DISPLAY_ONLY.search(name) and (said := name_words(name)):
        capitals = all(w.isupper() for w in said)
        target = found.capitals if capitals else found.words
        target.setdefault(tuple(said) if capitals else tuple(w.lower() for w in said), venue)


def venue_of(work: Work) -> tuple[Venue, str] | None:
    """The venue a record names and the text it was found in, else None."""
    fields = dict(work.extra)
    return _dblp(work.key, fields) or _named(fields) or _doi(work.doi)


def _dblp(key: str, fields: dict[str, str]) -> tuple[Venue, str] | None:
    streams = [m.group(1) for text in (key, *(fields.get(f, "") for f in DBLP_FIELDS)) for m in _DBLP.finditer(text)]
    known = table().dblp
    for stream in streams:
        if stream in known:
            return known[stream], stream
    for stream in streams:  # DBLP lists computer science: any other stream says that much
        return known[stream.split("/")[0] + "/"], stream
    return None


def _named(fields: dict[str, str]) -> tuple[Venue, str] | None:
    for name in VENUE_FIELDS:
        if found := match(fields.get(name, "")):
            return found, fields[name]
    return None


@lru_cache(maxsize=4096)  # a list's papers share a few hundred venues
def match(text: str) -> Venue | None:
    """The venue of the longest name in ``text``, the first of equally long ones."""
    said = words(text)
    lowered = [w.lower() for w in said]
    known = table()
    for size in range(min(known.longest, len(said)), 0, -1):
        for start in range(len(said) - size + 1):
            venue = known.capitals.get(tuple(said[start : start + size])) or known.words.get(
                tuple(lowered[start : start + size])
            )
            if venue:
                return venue
    return None


def _doi(doi: str) -> tuple[Venue, str] | None:
    lowered = doi.strip().lower()
    return next(((venue, doi) for prefix, venue in table().doi if lowered.startswith(prefix)), None)
