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

An abstract's 3-grams are a sorted array of distinct 64-bit codes (``Grams``), not a set of
Python ints: 8 bytes a 3-gram instead of about 70, whose memory and page faults were a large
part of a big import's time. ``expect`` computes the arrays of
every abstract in one pass over the words of them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from ..latex import ascii_fold, to_text

if TYPE_CHECKING:
    import numpy.typing as npt

Grams: TypeAlias = "npt.NDArray[np.int64]"  # an abstract's 3-gram codes, sorted and distinct

NEAR_DUPLICATE = 0.8  # share of word 3-grams two abstracts must have in common
_SHARE = Fraction(NEAR_DUPLICATE).limit_denominator(1000)
MASK_BITS = 4096  # a work's 3-grams, hashed to one bit each: a cheap bound before the exact Jaccard
_KEPT = "abcdefghijklmnopqrstuvwxyz0123456789"
# Everything but [a-z0-9] becomes a space: the words of ``[a-z0-9]+``, without a regular expression.
_WORDS = str.maketrans({chr(c): " " for c in range(128) if chr(c) not in _KEPT})
# A 3-gram's code from its words' hashes, h1 * A + h2 * B + h3 (wrapping at 64 bits): odd
# multipliers keep the order of the words, so "a b c" and "c b a" get different codes.
_A, _B = np.int64(0x5BD1E9955BD1E995), np.int64(0x27D4EB2F165667C5)
_EMPTY = np.zeros(0, np.int64)
_EMPTY.flags.writeable = False  # the 3-grams of every abstract not indexed: shared, never changed


@lru_cache(maxsize=1 << 15)  # a record's title and abstract are normalized by find, add and alike
def norm(text: str) -> str:
    """Lower-case ASCII words of the text of a LaTeX string, one space apart."""
    return " ".join(ascii_fold(to_text(text)).lower().translate(_WORDS).split())


@lru_cache(maxsize=1 << 15)  # find and add look at the same abstract
def shingles(text: str) -> Grams:
    """The 3-gram codes of the words of ``text`` (sorted, distinct)."""
    return _codes([norm(text).split()])[0]


def jaccard(a: Grams, b: Grams) -> float:
    common = _common(a, b)
    return common / (len(a) + len(b) - common) if len(a) or len(b) else 0.0


def _common(a: Grams, b: Grams) -> int:
    """How many codes two sorted arrays share (one binary search of each of ``a`` in ``b``)."""
    if not len(a) or not len(b):
        return 0
    where = np.searchsorted(b, a).clip(0, len(b) - 1)
    return int(np.count_nonzero(b[where] == a))


def _codes(texts: list[list[str]]) -> list[Grams]:
    """The 3-gram codes of each list of words, in one pass over them all: a 3-gram is taken
    where its three words belong to one list; each list's codes are sorted, then deduplicated."""
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    hashes = np.fromiter(map(hash, chain.from_iterable(texts)), np.int64, int(lengths.sum()))
    owner = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    codes = hashes[:-2] * _A + hashes[1:-1] * _B + hashes[2:]
    inside = owner[:-2] == owner[2:]
    codes, owner = codes[inside], owner[:-2][inside]
    ends = np.cumsum(np.bincount(owner, minlength=len(texts)))
    for part in np.split(codes, ends[:-1]):  # each list's codes in place: 30x faster than a lexsort
        part.sort()
    first = np.ones(len(codes), np.bool_)
    first[1:] = (codes[1:] != codes[:-1]) | (owner[1:] != owner[:-1])
    codes, owner = codes[first], owner[first]
    ends = np.cumsum(np.bincount(owner, minlength=len(texts)))
    return [_frozen(part) for part in np.split(codes, ends[:-1])] if len(texts) else []


def _frozen(grams: Grams) -> Grams:
    grams.flags.writeable = False  # shared by the caches and the index: nobody may change it
    return grams


def allowance(grams: Grams) -> int:
    """How many of ``grams`` a near-duplicate can miss (it has 80% of them: Jaccard <= |A&B| / |A|).

    In integers: ``int(n * (1 - 0.8))`` is 0 for n = 5, as 1 - 0.8 is 0.19999999999999996 in
    floating point, and lost the near-duplicates that miss exactly a fifth.
    """
    return len(grams) * (_SHARE.denominator - _SHARE.numerator) // _SHARE.denominator


@dataclass(frozen=True)
class _Abstract:
    grams: Grams
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
    # The expected abstracts, by text: their 3-grams (the very arrays the two maps below are keyed by).
    _expected: dict[str, Grams] = field(default_factory=dict)
    _prefixes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # by id() of an expected array
    _masks: dict[int, int] = field(default_factory=dict)  # by id() of an expected array
    _last: _Abstract | None = None

    def grams(self, text: str) -> Grams:
        """The 3-grams of an abstract: as ``expect`` computed them, if it saw the text."""
        grams = self._expected.get(text)
        return shingles(text) if grams is None else grams

    def of(self, key: str) -> Grams:
        """The 3-grams of ``key``'s abstract as indexed (none if it is not)."""
        abstract = self._works.get(key)
        return abstract.grams if abstract else _EMPTY

    def expect(self, abstracts: Iterable[str]) -> None:
        """Rank the 3-grams of these abstracts, rarest first: by how many of them have each.

        Their prefixes are taken here, all at once (a 3-gram at a time cost as much as the rest of
        the import). Only before the first ``add``: a ranking that changed under indexed prefixes
        would lose matches.
        """
        if self._works:
            raise RuntimeError("the 3-grams are ranked before any abstract is indexed")
        texts = list(dict.fromkeys(abstracts))
        by_norm = dict.fromkeys(map(norm, texts))  # texts of one normalized form have one array
        arrays = dict(zip(by_norm, _codes([words.split() for words in by_norm]), strict=True))
        self._expected = {text: arrays[norm(text)] for text in texts}
        sets = list(arrays.values())
        lengths = np.fromiter(map(len, sets), np.int64, len(sets))
        flat = np.concatenate(sets) if sets else _EMPTY
        self._known, inverse, self._counts = np.unique(flat, return_inverse=True, return_counts=True)
        owner = np.repeat(np.arange(len(sets), dtype=np.int64), lengths)
        ranked = _ranked(self._known, owner, self._counts[inverse], inverse)
        starts = np.cumsum(lengths) - lengths
        for grams, start in zip(sets, starts.tolist(), strict=True):
            self._prefixes[id(grams)] = tuple(ranked[start : start + allowance(grams) + 1].tolist())
        self._masks.update(zip(map(id, sets), _masks(flat, owner, len(sets)), strict=True))

    def add(self, key: str, grams: Grams) -> None:
        """Index ``key``'s abstract (a new work, or a merged one whose abstract changed)."""
        known = self._works.get(key)
        if known is not None and (known.grams is grams or np.array_equal(known.grams, grams)):
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

    def near(self, grams: Grams) -> list[tuple[float, str]]:
        """The works sharing at least 80% of these 3-grams, most similar first (then by key)."""
        mine, allowed = self._abstract(grams), allowance(grams)
        found: set[str] = set()
        for gram in mine.prefix:
            found.update(self._postings.get(gram, ()))
        scored, (smallest, largest) = [], _sizes_alike(mine.size)
        for key in found:
            other = self._works[key]
            if not smallest <= other.size <= largest:  # no AND of two 4,096-bit integers
                continue
            # 3-grams whose bit ``other`` lacks are 3-grams it lacks: a bound that costs one AND.
            if mine.bits - (mine.mask & other.mask).bit_count() <= allowed:
                score = jaccard(grams, other.grams)
                if score >= NEAR_DUPLICATE:
                    scored.append((score, key))
        return sorted(scored, key=lambda pair: (-pair[0], pair[1]))

    def _abstract(self, grams: Grams) -> _Abstract:
        """``grams`` with its prefix (by count, then value: a total order that never changes) and mask."""
        if self._last is not None and self._last.grams is grams:  # find, then add, of the same abstract
            return self._last
        # By id(): the arrays of ``expect`` stay alive in ``_expected``, so no other array has their id.
        prefix, mask = self._prefixes.get(id(grams)), self._masks.get(id(grams))
        if prefix is None or mask is None:
            prefix = self._prefix(grams)
            mask = _masks(grams, np.zeros(len(grams), np.int64), 1)[0]
        self._last = _Abstract(grams, prefix, mask, mask.bit_count(), len(grams))
        return self._last

    def _prefix(self, grams: Grams) -> tuple[int, ...]:
        """The prefix of an abstract ``expect`` did not see (ranked as ``expect`` ranks)."""
        if self._known is None or self._counts is None or not len(self._known):
            return tuple(grams[: allowance(grams) + 1].tolist())
        where = np.searchsorted(self._known, grams).clip(0, len(self._known) - 1)
        counts = np.where(self._known[where] == grams, self._counts[where], 0)
        return tuple(grams[np.lexsort((grams, counts))[: allowance(grams) + 1]].tolist())


def _sizes_alike(size: int) -> tuple[int, int]:
    """The sizes of the sets that can be alike with one of ``size``: Jaccard is at most the smaller
    set's size over the larger's, so that ratio must be 80% or more (in integers, as ``allowance``)."""
    return -(-size * _SHARE.numerator // _SHARE.denominator), size * _SHARE.denominator // _SHARE.numerator


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
