"""When two records are one work: explicit identity keys, near-identical abstracts, user rules.

Keys (papis-style): the same DOI (lower case), the same arXiv id (without its version), the
same normalized abstract, the same normalized title. Near-identical abstracts (most of their
word 3-grams shared) also match. The same title with a different year, or with two different
DOIs, is another version of the work (a preprint and its published paper): the import links
the two instead of merging them. ``conf/identity.toml`` can force two records together or keep
them apart, named by ``file:line`` or by citation key. Every decision carries its reason, which
the import reports and the paper page shows.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..config import read_toml
from ..errors import ReadingListError
from ..latex import ascii_fold, to_text
from ..model import Work
from .fields import arxiv_id

MIN_ABSTRACT_WORDS = 12
NEAR_DUPLICATE = 0.8  # share of word 3-grams two abstracts must have in common
SHINGLE = 3


@lru_cache(maxsize=1 << 15)  # a record's title and abstract are normalized by find, add and alike
def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", ascii_fold(to_text(text)).lower()))


def _digest(kind: str, text: str) -> str:
    return f"{kind}:{hashlib.sha1(text.encode()).hexdigest()[:16]}"


def identity_keys(work: Work) -> dict[str, str]:
    """Identity key -> the reason two works sharing it are one."""
    keys = {}
    if work.doi:
        keys[f"doi:{work.doi.lower()}"] = "same DOI"
    arxiv = arxiv_id(work.eprint)
    if arxiv:
        keys[f"arxiv:{arxiv}"] = "same arXiv id"
    elif work.eprint.strip():
        keys[f"eprint:{work.eprint.strip().lower()}"] = "same eprint"
    norm_abstract = _norm(work.abstract)
    if len(norm_abstract.split()) >= MIN_ABSTRACT_WORDS:
        keys[_digest("abstract", norm_abstract)] = "identical abstract"
    norm_title = _norm(work.title)
    if norm_title and not work.title_inferred:
        keys[_digest("title", norm_title)] = "identical title"
    return keys


def other_version(work: Work, other: Work) -> str:
    """Why two works with one title are two versions of a paper (empty if they are one work)."""
    if work.year and other.year and work.year != other.year:
        return f"identical title, {min(work.year, other.year)} and {max(work.year, other.year)}"
    if work.doi and other.doi and work.doi.lower() != other.doi.lower():
        return "identical title, two DOIs"
    return ""


def names(work: Work) -> frozenset[str]:
    """How conf/identity.toml can name a work: the file:line of each of its records and its key."""
    return frozenset({s.render() for s in work.sources} | ({work.key} if work.key else set()))


@lru_cache(maxsize=1024)  # find, then add, look at the same abstract
def shingles(text: str) -> frozenset[int]:
    words = _norm(text).split()
    return frozenset(map(hash, zip(*(words[i:] for i in range(SHINGLE)), strict=False)))


@dataclass(frozen=True)
class Rules:
    """conf/identity.toml: ``[[same]]`` and ``[[different]]`` groups of records (``file:line``) or keys."""

    same: tuple[frozenset[str], ...] = ()
    different: tuple[frozenset[str], ...] = ()

    def forced(self, a: frozenset[str], b: frozenset[str]) -> bool:
        return any(group & a and group & b for group in self.same)

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
            raise ReadingListError(f"{kind} must be an array of tables ([[{kind}]])", path)
        groups[kind] = [_group(kind, n, table, path) for n, table in enumerate(tables, 1)]
    return Rules(tuple(groups["same"]), tuple(groups["different"]))


def _group(kind: str, n: int, table: object, path: Path) -> frozenset[str]:
    """One ``[[same]]``/``[[different]]`` table: ``records`` (file:line) and/or ``keys`` (citation keys)."""
    names: list[object] = []
    for field_name in ("records", "keys"):
        value = table.get(field_name, []) if isinstance(table, dict) else None
        names += value if isinstance(value, list) else [None]
    if len(names) < 2 or not all(isinstance(r, str) and r.strip() for r in names):
        message = f'[[{kind}]] #{n} needs records = ["file:line", ...] and/or keys = ["citekey", ...], two or more'
        raise ReadingListError(message, path)
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
    # A 3-gram's works: one key (most 3-grams occur once), or a set of keys; a set per 3-gram
    # made indexing 10,000 abstracts take seconds.
    _by_shingle: dict[int, str | set[str]] = field(default_factory=dict)
    _shingles: dict[str, frozenset[int]] = field(default_factory=dict)

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
        grams = shingles(work.abstract)
        self._shingles[work.key] = grams
        index, key = self._by_shingle, work.key
        for gram in grams:
            have = index.setdefault(gram, key)
            if have is key:
                continue
            if isinstance(have, str):
                if have != key:
                    index[gram] = {have, key}
            else:
                have.add(key)

    def find(self, work: Work, also: frozenset[str] = frozenset()) -> Match | None:
        """The indexed work ``work`` is one with (or another version of), and why; None if it is new."""
        mine = names(work) | also
        source = work.sources[0]
        same_line = self.works.get(self._by_source.get((source.file, source.line), ""))
        if same_line is not None and self.alike(work, same_line):
            return Match(same_line, "same source record")
        # A record now on a line another record had (one inserted above it) is matched by content.
        version = None
        for key, reason in (*self._forced(mine), *identity_keys(work).items()):
            match = self.works.get(self._by_key.get(key, key))
            if match is None or self._apart(mine, match):
                continue
            why = other_version(work, match) if key.startswith("title:") else ""
            if not why:
                same_year = key.startswith("title:") and work.year and work.year == match.year
                return Match(match, f"{reason} and year" if same_year else reason)
            version = version or Match(match, why, version=True)
        return self._near_duplicate(work, mine) or version

    def _apart(self, mine: frozenset[str], work: Work) -> bool:
        return bool(self.rules.different) and self.rules.apart(mine, self._names.get(work.key, names(work)))

    def alike(self, work: Work, other: Work) -> bool:
        """The two share an identity key or a near-identical abstract."""
        if set(identity_keys(work)) & set(identity_keys(other)):
            return True
        grams, known = shingles(work.abstract), self._shingles.get(other.key, frozenset())
        return bool(grams) and len(grams & known) / len(grams | known) >= NEAR_DUPLICATE

    def _postings(self, gram: int) -> int:
        have = self._by_shingle.get(gram, ())
        return 1 if isinstance(have, str) else len(have)

    def _forced(self, mine: frozenset[str]) -> list[tuple[str, str]]:
        """Works conf/identity.toml says are one with a record of these names (by their index key)."""
        found = [self._by_name.get(name) for group in self.rules.same if group & mine for name in group - mine]
        return [(key, "forced by conf/identity.toml") for key in dict.fromkeys(found) if key is not None]

    def _near_duplicate(self, work: Work, mine: frozenset[str]) -> Match | None:
        grams = shingles(work.abstract)
        if len(grams) < MIN_ABSTRACT_WORDS:
            return None
        # Prefix filter: a work sharing 80% of these 3-grams shares one of any 20% + 1 of them, so
        # only the postings of the rarest are candidates (exact, and linear where common 3-grams
        # abound). 3-grams no work has come first: when they are enough, nothing is near.
        enough = int(len(grams) * (1 - NEAR_DUPLICATE)) + 1
        present, absent = [], 0
        for gram in grams:  # a new abstract stops here after `enough` lookups
            if gram in self._by_shingle:
                present.append(gram)
            else:
                absent += 1
                if absent >= enough:
                    return None
        rarest = sorted(present, key=self._postings)[: enough - absent]
        candidates: set[str] = set()
        for gram in rarest:
            have = self._by_shingle.get(gram, ())
            candidates.update((have,) if isinstance(have, str) else have)
        scored = sorted((-_jaccard(grams, self._shingles[k]), k) for k in candidates)
        for negative, key in scored:
            if -negative >= NEAR_DUPLICATE and not self._apart(mine, self.works[key]):
                return Match(self.works[key], f"near-identical abstract ({-negative:.0%} of word 3-grams shared)")
        return None


def _jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0
