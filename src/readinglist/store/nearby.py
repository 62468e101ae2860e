"""Near-identical abstracts: the works sharing at least 80% of an abstract's word 3-grams, exactly.

An all-pairs prefix index (Bayardo et al., "Scaling up all pairs similarity search", 2007):
3-grams are ranked once, rarest first, over every abstract the import will see. Two abstracts
with a Jaccard similarity of 0.8 or more share a 3-gram within the first ``int(0.2 * n) + 1``
of each one's ranked 3-grams (the rarest 3-gram they share is there in both), so only those
prefixes are indexed and looked up: a fifth of the 3-grams, and rare ones, with few works each.
A candidate must then pass a bound (the 3-grams in buckets it has none in are 3-grams it lacks,
at most 20%) before its exact Jaccard is computed. The ranking (how many abstracts have a
3-gram, then its value) only sets the speed, never a decision: it is a total order, fixed
before the first abstract is indexed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from ..latex import ascii_fold, to_text

if TYPE_CHECKING:
    import numpy.typing as npt

NEAR_DUPLICATE = 0.8  # share of word 3-grams two abstracts must have in common
_SHARE = Fraction(NEAR_DUPLICATE).limit_denominator(1000)
SHINGLE = 3
MASK_BITS = 4096  # a work's 3-grams, hashed to one bit each: a cheap bound before the exact Jaccard
_KEPT = "abcdefghijklmnopqrstuvwxyz0123456789"
# Everything but [a-z0-9] becomes a space: the words of ``[a-z0-9]+``, without a regular expression.
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
    """How many of ``grams`` a near-duplicate can miss (it has 80% of them: Jaccard <= |A&B| / |A|).

    In integers: ``int(n * (1 - 0.8))`` is 0 for n = 5, as 1 - 0.8 is 0.19999999999999996 in
    floating point, and lost the near-duplicates that miss exactly a fifth.
    """
    return len(grams) * (_SHARE.denominator - _SHARE.numerator) // _SHARE.denominator


@dataclass(frozen=True)
class _Abstract:
    grams: frozenset[int]
    prefix: tuple[int, ...]  # its rarest int(0.2 n) + 1 3-grams
    mask: int  # bit (3-gram mod MASK_BITS) set for each 3-gram
    bits: int  # bits set in mask
    size: int  # len(grams)


@dataclass
class AbstractIndex:
    """The ranked prefixes of works' abstracts, by work key."""

    # How many expected abstracts have each 3-gram (sorted 3-grams, their counts): the ranking.
    _known: npt.NDArray[np.int64] | None = None
    _counts: npt.NDArray[np.int64] | None = None
    # A 3-gram's works: a work's one tuple of its key, shared by its 3-grams no other work has
    # (most 3-grams occur once), or a set of keys: a set per 3-gram made indexing slow.
    _postings: dict[int, tuple[str] | set[str]] = field(default_factory=dict)
    _works: dict[str, _Abstract] = field(default_factory=dict)
    _prefixes: dict[frozenset[int], tuple[int, ...]] = field(default_factory=dict)  # of the expected abstracts
    _masks: dict[frozenset[int], int] = field(default_factory=dict)  # of the expected abstracts
    _last: _Abstract | None = None

    def of(self, key: str) -> frozenset[int]:
        """The 3-grams of ``key``'s abstract as indexed (none if it is not)."""
        abstract = self._works.get(key)
        return abstract.grams if abstract else frozenset()

    def expect(self, abstracts: Iterable[str]) -> None:
        """Rank the 3-grams of these abstracts, rarest first: by how many of them have each.

        Their prefixes are taken here, all at once (a 3-gram at a time cost as much as the rest of
        the import). Only before the first ``add``: a ranking that changed under indexed prefixes
        would lose matches.
        """
        if self._works:
            raise RuntimeError("the 3-grams are ranked before any abstract is indexed")
        sets = list(dict.fromkeys(map(shingles, abstracts)))
        lengths = np.fromiter(map(len, sets), np.int64, len(sets))
        flat = np.fromiter(chain.from_iterable(sets), np.int64, int(lengths.sum()))
        self._known, inverse, self._counts = np.unique(flat, return_inverse=True, return_counts=True)
        owner = np.repeat(np.arange(len(sets), dtype=np.int64), lengths)
        ranked = _ranked(self._known, owner, self._counts[inverse], inverse)
        starts = np.cumsum(lengths) - lengths
        for grams, start in zip(sets, starts.tolist(), strict=True):
            self._prefixes[grams] = tuple(ranked[start : start + allowance(grams) + 1].tolist())
        self._masks.update(zip(sets, _masks(flat, owner, len(sets)), strict=True))

    def add(self, key: str, grams: frozenset[int]) -> None:
        """Index ``key``'s abstract (a new work, or a merged one whose abstract changed)."""
        if key in self._works and self._works[key].grams == grams:
            return
        abstract = self._abstract(grams)
        self._works[key] = abstract
        index, alone = self._postings, (key,)
        for gram in abstract.prefix:
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
        mine, allowed = self._abstract(grams), allowance(grams)
        found: set[str] = set()
        for gram in mine.prefix:
            found.update(self._postings.get(gram, ()))
        scored = []
        for key in found:
            other = self._works[key]
            if _apart_in_size(mine.size, other.size):  # no AND of two 4,096-bit integers
                continue
            # 3-grams whose bit ``other`` lacks are 3-grams it lacks: a bound that costs one AND.
            if mine.bits - (mine.mask & other.mask).bit_count() <= allowed:
                score = jaccard(grams, other.grams)
                if score >= NEAR_DUPLICATE:
                    scored.append((score, key))
        return sorted(scored, key=lambda pair: (-pair[0], pair[1]))

    def _abstract(self, grams: frozenset[int]) -> _Abstract:
        """``grams`` with its prefix (by count, then value: a total order that never changes) and mask."""
        if self._last is not None and self._last.grams is grams:  # find, then add, of the same abstract
            return self._last
        prefix, mask = self._prefixes.get(grams), self._masks.get(grams)
        if prefix is None or mask is None:
            values = np.fromiter(grams, np.int64, len(grams))
            prefix = self._prefix(grams, values)
            mask = _masks(values, np.zeros(len(values), np.int64), 1)[0]
        self._last = _Abstract(grams, prefix, mask, mask.bit_count(), len(grams))
        return self._last

    def _prefix(self, grams: frozenset[int], values: npt.NDArray[np.int64]) -> tuple[int, ...]:
        """The prefix of an abstract ``expect`` did not see (ranked as ``expect`` ranks)."""
        if self._known is None or self._counts is None or not len(self._known):
            return tuple(sorted(grams)[: allowance(grams) + 1])
        where = np.searchsorted(self._known, values).clip(0, len(self._known) - 1)
        counts = np.where(self._known[where] == values, self._counts[where], 0)
        return tuple(values[np.lexsort((values, counts))[: allowance(grams) + 1]].tolist())


def _apart_in_size(a: int, b: int) -> bool:
    """Jaccard is at most the smaller set's size over the larger's: below 80% they are not alike."""
    small, large = (a, b) if a <= b else (b, a)
    return small * _SHARE.denominator < large * _SHARE.numerator


MASK_ROWS = 2048  # abstracts whose masks are set at once: a bool matrix of 8 MB


def _masks(flat: npt.NDArray[np.int64], owner: npt.NDArray[np.int64], count: int) -> list[int]:
    """Each owner's 3-grams (``flat``, owners in order) as a MASK_BITS-bit integer, in bulk."""
    masks: list[int] = []
    for first in range(0, count, MASK_ROWS):
        rows = min(MASK_ROWS, count - first)
        lo, hi = np.searchsorted(owner, (first, first + rows))  # owners are in order
        bits = np.zeros((rows, MASK_BITS), np.bool_)
        bits[owner[lo:hi] - first, flat[lo:hi] % MASK_BITS] = True
        packed = np.packbits(bits, axis=1, bitorder="little")
        masks += [int.from_bytes(row.tobytes(), "little") for row in packed]
    return masks


def _ranked(
    known: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int64],
) -> Any:
    """The 3-grams (``known[rank]``) in (owner, count, value) order.

    One integer key when it fits in 63 bits, sorted by value rather than by index (a third of
    the time of an argsort), its last digit giving the 3-gram back; three keys otherwise.
    """
    values = int(rank.max(initial=0)) + 1
    span = (int(counts.max(initial=0)) + 1) * values
    if span * (int(owner.max(initial=0)) + 1) >= 1 << 62:
        return known[rank[np.lexsort((rank, counts, owner))]]
    key = owner * span + counts * values + rank
    key.sort()
    return known[key % values]
