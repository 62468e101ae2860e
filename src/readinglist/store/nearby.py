"""Near-identical abstracts: the works sharing at least 80% of an abstract's word 3-grams, exactly.

An all-pairs prefix index (Bayardo et al., "Scaling up all pairs similarity search", 2007):
3-grams are ranked once, rarest first, over every abstract the import will see. Two abstracts
with a Jaccard similarity of 0.8 or more share a 3-gram within the first ``int(0.2 * n) + 1``
of each one's ranked 3-grams (the rarest 3-gram they share is there in both), so only those
prefixes are indexed and looked up: a fifth of the 3-grams, and rare ones, with few works each.
A candidate must then have 80% of the abstract's 3-grams before its exact Jaccard is computed.
The ranking only sets the speed, never a decision: a 3-gram first seen later is ranked after
all others, and a rank never changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain

from ..latex import ascii_fold, to_text

NEAR_DUPLICATE = 0.8  # share of word 3-grams two abstracts must have in common
SHINGLE = 3
# Everything but [a-z0-9] becomes a space: ``_norm``'s words, without a regular expression.
_KEPT = "abcdefghijklmnopqrstuvwxyz0123456789"
_WORDS = str.maketrans({chr(c): " " for c in range(128) if chr(c) not in _KEPT})


@lru_cache(maxsize=1 << 15)  # a record's title and abstract are normalized by find, add and alike
def norm(text: str) -> str:
    """Lower-case ASCII words of the text of a LaTeX string, one space apart."""
    return " ".join(ascii_fold(to_text(text)).lower().translate(_WORDS).split())


@lru_cache(maxsize=1 << 15)  # ranking, find and add look at the same abstract
def shingles(text: str) -> frozenset[int]:
    words = norm(text).split()
    return frozenset(map(hash, zip(*(words[i:] for i in range(SHINGLE)), strict=False)))


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def allowance(grams: frozenset[int]) -> int:
    """How many of ``grams`` a near-duplicate can miss (it has 80% of them: Jaccard <= |A&B| / |A|)."""
    return int(len(grams) * (1 - NEAR_DUPLICATE))


@dataclass
class AbstractIndex:
    """The ranked prefixes of works' abstracts, by work key."""

    _rank: dict[int, int] = field(default_factory=dict)
    # A 3-gram's works: a work's one tuple of its key, shared by its 3-grams no other work has
    # (most 3-grams occur once), or a set of keys: a set per 3-gram made indexing slow.
    _postings: dict[int, tuple[str] | set[str]] = field(default_factory=dict)
    grams: dict[str, frozenset[int]] = field(default_factory=dict)
    _last: tuple[frozenset[int], tuple[int, ...]] = (frozenset(), ())

    def expect(self, abstracts: Iterable[str]) -> None:
        """Rank the 3-grams of these abstracts, rarest first (ties by value), after any ranked already."""
        counts = Counter(chain.from_iterable(map(shingles, abstracts)))
        fresh = sorted((n, gram) for gram, n in counts.items() if gram not in self._rank)
        self._rank.update((gram, rank) for rank, (_, gram) in enumerate(fresh, len(self._rank)))

    def add(self, key: str, grams: frozenset[int]) -> None:
        """Index ``key``'s abstract (a new work, or a merged one whose abstract changed)."""
        if self.grams.get(key) == grams:
            return
        self.grams[key] = grams
        index, alone = self._postings, (key,)
        for gram in self._ranked(grams)[: allowance(grams) + 1]:
            have = index.setdefault(gram, alone)
            if have is alone:
                continue
            if isinstance(have, tuple):
                if have[0] != key:
                    index[gram] = {have[0], key}
            else:
                have.add(key)

    def near(self, grams: frozenset[int]) -> list[tuple[float, str]]:
        """The works sharing at least 80% of these 3-grams, most similar first (then by key)."""
        ranked, allowed = self._ranked(grams), allowance(grams)
        found: set[str] = set()
        for gram in ranked[: allowed + 1]:
            found.update(self._postings.get(gram, ()))
        scored = []
        least = len(grams) - allowed
        for key in found:
            other = self.grams[key]
            if len(grams & other) >= least:  # most candidates share a 3-gram or two
                score = jaccard(grams, other)
                if score >= NEAR_DUPLICATE:
                    scored.append((score, key))
        return sorted(scored, key=lambda pair: (-pair[0], pair[1]))

    def _ranked(self, grams: frozenset[int]) -> tuple[int, ...]:
        """``grams`` rarest first; a 3-gram not ranked yet is ranked now, after all others."""
        if self._last[0] is grams:  # find, then add, of the same abstract
            return self._last[1]
        rank = self._rank
        if not rank.keys() >= grams:
            rank.update((gram, n) for n, gram in enumerate(sorted(grams - rank.keys()), len(rank)))
        ranked = tuple(sorted(grams, key=rank.__getitem__))
        self._last = (grams, ranked)
        return ranked
