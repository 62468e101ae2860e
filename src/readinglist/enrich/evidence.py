"""How much two papers' likeness must weigh before a page links them, and how many links a page keeps.

On real exports (titles only, mostly) one generic shared word made a third of all content links:
a particle-detector paper linked to "Lazy Functional State Threads" on "functional", Shannon's
lattice theory of information to lattice QCD. A content link now needs several distinctive words
in common (words the TF-IDF keeps: neither stop words nor the library's common vocabulary), and
more of them between papers of distant fields (cs and physics, by their arXiv categories'
groups). The caps are symmetric: a pair is kept only if both of its pages have room for it,
strongest pairs first, so no page lists more than its share however many papers pick it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import TypeVar

from .. import arxiv_categories

MIN_WORDS = 2  # distinct distinctive words a content link needs: one word was a third of the links
DISTANT_WORDS = 3  # ...between papers of distant fields
# A word is distinctive in at most this share of the library's papers (or this many, in a small
# one): on the real exports, "learning" (84 of 524 titles), "neural" (51), "model" (15) and
# "visual" (12) made links no reader would accept; "bert" (6), "vectors" (4), "sigmoidal" (2) good ones.
DISTINCT_SHARE = 0.02
DISTINCT_FLOOR = 3
DISTANT_SCORE = 2.0  # ...whose weighted similarity must also reach this many times the minimum
AUTHOR_LINKS = 3  # shared-author links a page lists: the author's page lists the rest

K = TypeVar("K", bound=Hashable)  # a paper, by index or key

# arXiv's groups (data/arxiv_taxonomy.toml) as fields; mathematics is near every field it serves.
_FIELD = {
    "Computer Science": "computing",
    "Statistics": "computing",
    "Electrical Engineering and Systems Science": "computing",
    "Mathematics": "mathematics",
    "Physics": "physics",
    "Quantitative Biology": "biology",
    "Quantitative Finance": "economics",
    "Economics": "economics",
}
_NEAR = {frozenset({"mathematics", other}) for other in ("computing", "physics", "economics")}


@lru_cache(maxsize=1)
def _field_of() -> dict[str, str]:
    """arXiv category id (aliases too) -> its field."""
    return {str(e["id"]): _FIELD.get(str(e.get("group", "")), "") for e in arxiv_categories.entries()}


def fields(categories: Iterable[str]) -> frozenset[str]:
    """The fields of a paper's arXiv categories; none for a paper without known categories."""
    table = _field_of()
    return frozenset(f for c in categories if (f := table.get(c, "")))


def distant(a: frozenset[str], b: frozenset[str]) -> bool:
    """Papers of known fields with none in common or near: a link between them needs more."""
    if not a or not b or a & b:
        return False
    return not any(frozenset({x, y}) in _NEAR for x in a for y in b)


def distinctive_df(papers: int) -> float:
    """The most papers a distinctive term may appear in, in a library of ``papers``."""
    return max(DISTINCT_FLOOR, DISTINCT_SHARE * papers)


def enough(words: int, score: float, min_score: float, far: bool) -> bool:
    """Whether ``words`` distinct shared words at weighted similarity ``score`` make a content link."""
    if far:
        return words >= DISTANT_WORDS and score >= DISTANT_SCORE * min_score
    return words >= MIN_WORDS and score >= min_score


def capped(ranked: Iterable[tuple[K, K]], cap: int) -> list[tuple[K, K]]:
    """The pairs kept, strongest first, while both papers have fewer than ``cap`` kept: links
    stay symmetric and no page passes its cap (a greedy b-matching, linear in the pairs)."""
    count: Counter[K] = Counter()
    kept = []
    for a, b in ranked:
        if a != b and count[a] < cap and count[b] < cap:
            count[a] += 1
            count[b] += 1
            kept.append((a, b))
    return kept
