"""When two records are one work: explicit identity keys, near-identical abstracts, user rules.

Keys (papis-style): the same normalized abstract, the same normalized title, the same
arXiv eprint. Near-identical abstracts (most of their word 3-grams shared) also match.
``conf/identity.toml`` can force two records together or keep them apart. Every match
carries its reason, which the import reports and the paper page shows.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..config import read_toml
from ..errors import ReadingListError
from ..latex import ascii_fold, to_text
from ..model import SourceRef, Work

MIN_ABSTRACT_WORDS = 12
NEAR_DUPLICATE = 0.8  # share of word 3-grams two abstracts must have in common
SHINGLE = 3


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", ascii_fold(to_text(text)).lower()))


def _digest(kind: str, text: str) -> str:
    return f"{kind}:{hashlib.sha1(text.encode()).hexdigest()[:16]}"


def identity_keys(work: Work) -> dict[str, str]:
    """Identity key -> the reason two works sharing it are one."""
    keys = {}
    norm_abstract = _norm(work.abstract)
    if len(norm_abstract.split()) >= MIN_ABSTRACT_WORDS:
        keys[_digest("abstract", norm_abstract)] = "identical abstract"
    norm_title = _norm(work.title)
    if norm_title and not work.title_inferred:
        keys[_digest("title", norm_title)] = "identical title"
    if work.eprint.strip():
        keys[f"eprint:{work.eprint.strip().lower()}"] = "same arXiv eprint"
    return keys


def shingles(text: str) -> set[int]:
    words = _norm(text).split()
    return {hash(tuple(words[i : i + SHINGLE])) for i in range(len(words) - SHINGLE + 1)}


@dataclass(frozen=True)
class Rules:
    """conf/identity.toml: ``[[same]]`` and ``[[different]]`` groups of ``file:line`` records."""

    same: tuple[frozenset[str], ...] = ()
    different: tuple[frozenset[str], ...] = ()

    def forced(self, a: SourceRef, b: SourceRef) -> bool:
        return any({a.render(), b.render()} <= group for group in self.same)

    def apart(self, a: SourceRef, b: SourceRef) -> bool:
        return any({a.render(), b.render()} <= group and a.render() != b.render() for group in self.different)


def load_rules(path: Path) -> Rules:
    if not path.exists():
        return Rules()
    data = read_toml(path)
    groups: dict[str, list[frozenset[str]]] = {}
    for kind in ("same", "different"):
        groups[kind] = []
        tables = data.get(kind, [])
        if not isinstance(tables, list):
            raise ReadingListError(f"{kind} must be an array of tables ([[{kind}]])", path)
        for n, table in enumerate(tables, 1):
            records = table.get("records") if isinstance(table, dict) else None
            if not isinstance(records, list) or len(records) < 2 or not all(isinstance(r, str) for r in records):
                raise ReadingListError(f'[[{kind}]] #{n} needs records = [two or more "file:line" strings]', path)
            groups[kind].append(frozenset(records))
    return Rules(tuple(groups["same"]), tuple(groups["different"]))


@dataclass
class Matcher:
    """Finds the work a new record belongs to, with indexes so an import stays near-linear."""

    rules: Rules = field(default_factory=Rules)
    works: dict[str, Work] = field(default_factory=dict)
    _by_source: dict[tuple[str, int], str] = field(default_factory=dict)
    _by_key: dict[str, str] = field(default_factory=dict)
    _by_shingle: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    _shingles: dict[str, set[int]] = field(default_factory=dict)

    def add(self, work: Work) -> None:
        """Index ``work`` (new, or a merged version of a work already indexed)."""
        self.works[work.key] = work
        for source in work.sources:
            self._by_source[(source.file, source.line)] = work.key
        for key in identity_keys(work):
            self._by_key.setdefault(key, work.key)
        grams = shingles(work.abstract)
        self._shingles[work.key] = grams
        for gram in grams:
            self._by_shingle[gram].add(work.key)

    def find(self, work: Work) -> tuple[Work, str] | None:
        """The indexed work ``work`` is one with, and why; None if it is new."""
        source = work.sources[0]
        same_line = self.works.get(self._by_source.get((source.file, source.line), ""))
        if same_line is not None and self.alike(work, same_line):
            return same_line, "same source record"
        # A record now on a line another record had (one inserted above it) is matched by content.
        for key, reason in (*self._forced(source), *identity_keys(work).items()):
            match = self.works.get(self._by_key.get(key, key))
            if match is not None and not any(self.rules.apart(source, s) for s in match.sources):
                return match, reason
        return self._near_duplicate(work)

    def alike(self, work: Work, other: Work) -> bool:
        """The two share an identity key or a near-identical abstract."""
        if set(identity_keys(work)) & set(identity_keys(other)):
            return True
        grams, known = shingles(work.abstract), self._shingles.get(other.key, set())
        return bool(grams) and len(grams & known) / len(grams | known) >= NEAR_DUPLICATE

    def _forced(self, source: SourceRef) -> list[tuple[str, str]]:
        if not self.rules.same:
            return []
        return [
            (other_key, "forced by conf/identity.toml")
            for (file, line), other_key in self._by_source.items()
            if self.rules.forced(source, SourceRef(file, line))
        ]

    def _near_duplicate(self, work: Work) -> tuple[Work, str] | None:
        grams = shingles(work.abstract)
        if len(grams) < MIN_ABSTRACT_WORDS:
            return None
        # Prefix filter: a work sharing 80% of these 3-grams shares one of the rarest 20% + 1,
        # so only their postings are candidates (exact, and linear where common 3-grams abound).
        rarest = sorted(grams, key=lambda g: len(self._by_shingle.get(g, ())))[
            : int(len(grams) * (1 - NEAR_DUPLICATE)) + 1
        ]
        candidates = {key for gram in rarest for key in self._by_shingle.get(gram, ())}
        scored = sorted((-len(grams & self._shingles[k]) / len(grams | self._shingles[k]), k) for k in candidates)
        for negative, key in scored:
            kept_apart = any(self.rules.apart(work.sources[0], s) for s in self.works[key].sources)
            if -negative >= NEAR_DUPLICATE and not kept_apart:
                return self.works[key], f"near-identical abstract ({-negative:.0%} of word 3-grams shared)"
        return None
