"""When two records are one work: explicit identity keys, near-identical abstracts, user rules.

Keys (papis-style): the same DOI (lower case), the same arXiv id (without its version), the
same normalized abstract, the same normalized title (a book's apart from a paper's: Bellman's
book "Dynamic Programming" is not his Science article of that title). Near-identical abstracts
(most of their word 3-grams shared) also match. A DOI or an abstract merges two records only
when their titles agree: an exporter that pasted one DOI or abstract into three works made
them one; a disagreement is kept apart and reported as a suspect. An arXiv id merges two
titles that disagree only when the two share an author (a preprint renamed on publication); an
abstract never merges two records of two DOIs and no author in common. The same title with a
different year, or with two different DOIs, is another version of the work (a preprint and its
published paper) when the two have an author in common: the import links the two instead of
merging them. Two records of one title whose author lists have no name in common are two works.
``conf/identity.toml`` can force two records together or keep them apart, named by
``file:line`` or by citation key, and does the same for authors' names (``enrich/people.py``).
Every decision carries its reason, which the import reports and the paper page shows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from ..errors import Code, ReadingListError
from ..latex import to_text
from ..model import Work
from ..tomlfile import read_toml
from .fields import arxiv_id
from .namekeys import NameParts, name_parts
from .nearby import NEAR_DUPLICATE, AbstractIndex, jaccard, norm

MIN_ABSTRACT_WORDS = 12
# Entry types of a whole book: one never shares a title key with a paper (nor is its version).
BOOKS = frozenset({"book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings", "reference"})
# Two titles agree when one is the other with a subtitle more, or when most of their words are
# the same words in the same order (difflib's ratio over words): "Attention is all you need"
# and "Attention Is All You Need!" agree; a DOI shared by "Dynamic programming" and "Support
# vector networks" does not make them one.
TITLES_AGREE = 0.8
SUSPECT_KEYS = ("doi:", "abstract:", "arxiv:", "eprint:")  # keys an exporter pastes into works not theirs


def _digest(kind: str, text: str) -> str:
    return f"{kind}:{hashlib.sha1(text.encode()).hexdigest()[:16]}"


def identity_keys(work: Work) -> dict[str, str]:
    """Identity key -> the reason two works sharing it are one."""
    book = work.entry_type.lower() in BOOKS
    return dict(_identity_keys(work.doi, work.eprint, work.abstract, work.title, work.title_inferred, book))


@lru_cache(maxsize=1 << 15)  # find, then add, of the same record (and alike, of the works it is matched with)
def _identity_keys(
    doi: str, eprint: str, abstract: str, title: str, inferred: bool, book: bool
) -> tuple[tuple[str, str], ...]:
    keys = {}
    if doi:
        keys[f"doi:{doi.lower()}"] = "same DOI"
    arxiv = arxiv_id(eprint)
    if arxiv:
        keys[f"arxiv:{arxiv}"] = "same arXiv id"
    elif eprint.strip():
        keys[f"eprint:{eprint.strip().lower()}"] = "same eprint"
    norm_abstract = norm(abstract)
    if norm_abstract.count(" ") + 1 >= MIN_ABSTRACT_WORDS:  # words are one space apart: no split needed
        keys[_digest("abstract", norm_abstract)] = "identical abstract"
    norm_title = norm(title)
    if norm_title and not inferred:
        keys[_digest("title", f"book: {norm_title}" if book else norm_title)] = "identical title"
    return tuple(keys.items())


def _said(work: Work) -> tuple[str, str]:
    """What a work with no identity key says: its abstract and given title, normalised as stored."""
    return norm(work.abstract), "" if work.title_inferred else norm(work.title)


def other_version(work: Work, other: Work) -> str:
    """Why two works with one title are two versions of a paper (empty if they are one work)."""
    if work.year and other.year and work.year != other.year:
        return f"identical title, {min(work.year, other.year)} and {max(work.year, other.year)}"
    if work.doi and other.doi and work.doi.lower() != other.doi.lower():
        return "identical title, two DOIs"
    return ""


def version_of(work: Work, other: Work) -> str:
    """Why ``other`` is another version of ``work``, or "": one title (so one kind: a book's title
    key is not a paper's), another year or DOI, and an author in common."""
    same_title = not work.title_inferred and norm(work.title) == norm(other.title)
    if not same_title or (work.entry_type.lower() in BOOKS) != (other.entry_type.lower() in BOOKS):
        return ""
    return other_version(work, other) if share_an_author(work, other) else ""


def share_an_author(work: Work, other: Work) -> bool:
    """An author of one is an author of the other, as names can be ("R. Bellman", "Richard
    Bellman"); a record listing no one can be anyone's."""
    if not work.authors or not other.authors:
        return True
    mine: dict[str, list[NameParts]] = {}
    for name in work.authors:
        parts = name_parts(to_text(name))
        mine.setdefault(parts.family, []).append(parts)
    theirs = (name_parts(to_text(name)) for name in other.authors)  # compared within a family name only
    return any(p == q or p.fits(q) for q in theirs for p in mine.get(q.family, ()))


def titles_agree(work: Work, other: Work) -> bool:
    """The two titles name one work: equal, one the other with a subtitle more, or alike word by
    word; a working title (made from the abstract) agrees with any."""
    if work.title_inferred or other.title_inferred:
        return True
    mine, theirs = norm(work.title).split(), norm(other.title).split()
    short, long = sorted((mine, theirs), key=len)
    if short == long[: len(short)] and (len(short) >= 3 or short == long):
        return True
    return SequenceMatcher(None, mine, theirs, autojunk=False).ratio() >= TITLES_AGREE


def suspect(key: str, work: Work, other: Work) -> str:
    """What is suspect when two records share a DOI, an abstract or an arXiv id ("" if nothing).

    Under titles that disagree, each is suspect; an arXiv id is trusted further, across a renamed
    preprint, while the two have an author in common (Mendeley pastes one id, arXiv:1011.1669v3,
    into works of 1943, 1944 and 1963 by other people). An abstract is suspect under one title
    too when the two records have two DOIs and no author in common: a real library gives
    Phillips (1993) and Meikle (2000), whose titles differ by one word, one abstract.
    """
    if not key.startswith(SUSPECT_KEYS):
        return ""
    kind, _, value = key.partition(":")
    what = {"doi": f"DOI {value}", "abstract": "abstract", "arxiv": f"arXiv id {value}"}.get(kind, f"eprint {value}")
    if titles_agree(work, other):
        return what if kind == "abstract" and _pasted_abstract(work, other) else ""
    return "" if kind in ("arxiv", "eprint") and share_an_author(work, other) else what


def _pasted_abstract(work: Work, other: Work) -> bool:
    two_dois = bool(work.doi and other.doi and work.doi.lower() != other.doi.lower())
    return two_dois and not share_an_author(work, other)


def names(work: Work) -> frozenset[str]:
    """How conf/identity.toml can name a work: the file:line of each of its records and its key."""
    return frozenset({s.render() for s in work.sources} | ({work.key} if work.key else set()))


@dataclass(frozen=True)
class Rules:
    """conf/identity.toml: ``[[same]]`` and ``[[different]]`` groups of records (``file:line``) or
    keys; a table with ``authors`` instead names ways of writing people (``enrich/people.py``)."""

    same: tuple[frozenset[str], ...] = ()
    different: tuple[frozenset[str], ...] = ()
    same_authors: tuple[frozenset[str], ...] = ()
    different_authors: tuple[frozenset[str], ...] = ()

    def apart(self, a: frozenset[str], b: frozenset[str]) -> bool:
        return any(group & a - b and group & b - a for group in self.different)


def load_rules(path: Path) -> Rules:
    if not path.exists():
        return Rules()
    data = read_toml(path)
    groups: dict[str, list[frozenset[str]]] = {}
    for kind in ("same", "different"):
        tables = data.get(kind, [])
        if not isinstance(tables, list):
            raise ReadingListError(f"{kind} must be an array of tables ([[{kind}]])", path, code=Code.BAD_IDENTITY)
        read = [(_fields(table), _group(kind, n, table, path)) for n, table in enumerate(tables, 1)]
        groups[kind] = [group for fields, group in read if fields != ("authors",)]
        groups[f"{kind}_authors"] = [group for fields, group in read if fields == ("authors",)]
    return Rules(**{kind: tuple(found) for kind, found in groups.items()})


def _fields(table: object) -> tuple[str, ...]:
    """``("authors",)`` for a table of names; the records' fields otherwise."""
    return ("authors",) if isinstance(table, dict) and "authors" in table else ("records", "keys")


def _group(kind: str, n: int, table: object, path: Path) -> frozenset[str]:
    """One ``[[same]]``/``[[different]]`` table: ``records`` (file:line) and/or ``keys`` (citation
    keys), or ``authors`` (names as the records write them)."""
    if _fields(table) == ("authors",) and isinstance(table, dict) and {"records", "keys"} & table.keys():
        message = f"[[{kind}]] #{n} names authors and records: one table names people or works, not both"
        raise ReadingListError(message, path, code=Code.BAD_IDENTITY)
    names: list[object] = []
    for field_name in _fields(table):
        value = table.get(field_name, []) if isinstance(table, dict) else None
        names += value if isinstance(value, list) else [None]
    if len(names) < 2 or not all(isinstance(r, str) and r.strip() for r in names):
        message = (
            f'[[{kind}]] #{n} needs records = ["file:line", ...] and/or keys = ["citekey", ...],'
            ' or authors = ["name", ...], two or more'
        )
        raise ReadingListError(message, path, code=Code.BAD_IDENTITY)
    return frozenset(str(r).strip() for r in names)


@dataclass(frozen=True)
class Match:
    """The work a record belongs to, and why; ``version``: another version of it, to link, not merge."""

    work: Work
    reason: str
    version: bool = False


@dataclass
class Matcher:
    """Finds the work a new record belongs to, with indexes so an import stays near-linear."""

    rules: Rules = field(default_factory=Rules)
    works: dict[str, Work] = field(default_factory=dict)
    _by_source: dict[tuple[str, int], str] = field(default_factory=dict)
    _by_key: dict[str, str] = field(default_factory=dict)
    _by_name: dict[str, str] = field(default_factory=dict)  # file:line and citation keys, for the rules
    _names: dict[str, frozenset[str]] = field(default_factory=dict)
    _abstracts: AbstractIndex = field(default_factory=AbstractIndex)
    suspects: list[str] = field(default_factory=list)  # DOIs and abstracts shared under other titles
    _suspected_pairs: set[tuple[str, str]] = field(default_factory=set)  # each said once

    def add(self, work: Work, also: frozenset[str] = frozenset()) -> None:
        """Index ``work`` (new, or a merged version of a work already indexed); ``also``: more names of it."""
        self.works[work.key] = work
        self._names[work.key] = self._names.get(work.key, frozenset()) | names(work) | also
        for name in self._names[work.key]:
            self._by_name.setdefault(name, work.key)
        for source in work.sources:
            self._by_source[(source.file, source.line)] = work.key
        for key in identity_keys(work):
            self._by_key.setdefault(key, work.key)
        self._abstracts.add(work.key, self._abstracts.grams(work.abstract))

    def expect(self, abstracts: Iterable[str]) -> None:
        """The abstracts of every work the import will add or look for, before the first ``add``.

        They rank the 3-grams of the near-duplicate index, rarest first: that sets its speed only.
        """
        self._abstracts.expect(abstracts)

    def find(self, work: Work, also: frozenset[str] = frozenset()) -> Match | None:
        """The indexed work ``work`` is one with (or another version of), and why; None if it is new."""
        mine = names(work) | also
        source = work.sources[0]
        same_line = self.works.get(self._by_source.get((source.file, source.line), ""))
        if same_line is not None and self.alike(work, same_line):
            return Match(same_line, "same source record")
        # A record now on a line another record had (one inserted above it) is matched by content.
        version = None
        suspects: dict[str, tuple[str, Work]] = {}  # work key -> what it shares under another title
        for key, reason in (*self._forced(mine), *identity_keys(work).items()):
            match = self.works.get(self._by_key.get(key, key))
            if match is None or self._apart(mine, match):
                continue
            if what := suspect(key, work, match):
                suspects.setdefault(match.key, (what, match))
                continue
            if key.startswith("title:") and not share_an_author(work, match):
                continue  # one title, other people: two works
            why = other_version(work, match) if key.startswith("title:") else ""
            if not why:
                same_year = key.startswith("title:") and work.year and work.year == match.year
                return self._noted(work, suspects, Match(match, f"{reason} and year" if same_year else reason))
            version = version or Match(match, why, version=True)
        return self._noted(work, suspects, self._near_duplicate(work, mine, suspects) or version)

    def _noted(self, work: Work, suspects: dict[str, tuple[str, Work]], found: Match | None) -> Match | None:
        """``found``, once each suspect DOI or abstract is noted in ``suspects`` (those of another
        work than the one found: an arXiv id may still join a preprint to a DOI of another title)."""
        for key, (what, match) in suspects.items():
            pair = (work.sources[0].render(), key)
            if (found is None or found.work.key != key) and pair not in self._suspected_pairs:
                self._suspected_pairs.add(pair)
                other = match.sources[0].render() if key.startswith("new:") and match.sources else key
                self.suspects.append(
                    f"{work.sources[0].render()}: suspect {what}: {other} has it too, under another title"
                    f" ({to_text(match.title)[:80]!r}); kept apart (conf/identity.toml [[same]] joins them)"
                )
        return found

    def _apart(self, mine: frozenset[str], work: Work) -> bool:
        return bool(self.rules.different) and self.rules.apart(mine, self._names.get(work.key, names(work)))

    def alike(self, work: Work, other: Work) -> bool:
        """The two share an identity key or a near-identical abstract; or, when neither has
        anything to be known by (no DOI, id or title, an abstract of no 3-gram), they say the
        same: a record stored from this very line is then that record, not a new work again."""
        mine, theirs = set(identity_keys(work)), set(identity_keys(other))
        if mine & theirs:
            return True
        grams, known = self._abstracts.grams(work.abstract), self._abstracts.of(other.key)
        if len(grams):
            return jaccard(grams, known) >= NEAR_DUPLICATE
        return not mine and not theirs and _said(work) == _said(other)

    def _forced(self, mine: frozenset[str]) -> list[tuple[str, str]]:
        """Works conf/identity.toml says are one with a record of these names (by their index key)."""
        found = [self._by_name.get(name) for group in self.rules.same if group & mine for name in group - mine]
        return [(key, "forced by conf/identity.toml") for key in dict.fromkeys(found) if key is not None]

    def _near_duplicate(self, work: Work, mine: frozenset[str], suspects: dict[str, tuple[str, Work]]) -> Match | None:
        grams = self._abstracts.grams(work.abstract)
        if len(grams) < MIN_ABSTRACT_WORDS:
            return None
        for score, key in self._abstracts.near(grams):
            if self._apart(mine, self.works[key]):
                continue
            if suspect("abstract:", work, self.works[key]):  # another title, or other people
                suspects.setdefault(key, ("abstract", self.works[key]))
                continue
            return Match(self.works[key], f"near-identical abstract ({score:.0%} of word 3-grams shared)")
        return None
