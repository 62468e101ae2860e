"""Authors: profiles that mix different people (who each name is: ``people.py``).

A scholarly aggregator's profile may merge papers of namesakes. A profile's paper is
flagged when its arXiv archive differs from the profile's main archive and it shares no
co-author and little text with the profile's other papers.
"""

from __future__ import annotations

import statistics
from collections import Counter

import numpy as np

from ..model import Flag
from .similarity import BLOCK, Corpus

# A paper is far from a profile's main field when its best match there is below this share
# of how well the field's own papers match each other (the median of their best matches).
FAR_RATIO = 0.5


def archive(category: str) -> str:
    return category.split(".")[0]


def mixed_profile_flags(
    members: list[int], keys: list[str], categories: list[tuple[str, ...]], coauthored: list[bool], corpus: Corpus
) -> tuple[str, tuple[Flag, ...]]:
    """(main archive, flags) for the papers ``members`` of one profile."""
    archives = Counter(archive(categories[i][0]) for i in members if categories[i])
    if len(archives) < 2:
        return (next(iter(archives), ""), ())
    main = archives.most_common(1)[0][0]
    core = [i for i in members if categories[i] and archive(categories[i][0]) == main]
    if len(core) < 2:
        return main, ()
    typical = statistics.median(_closest_within(core, keys, corpus))
    far = [i for i in members if categories[i] and archive(categories[i][0]) != main and not coauthored[i]]
    flags = []
    for i, (closest, score) in zip(far, _best_matches(far, core, keys, corpus), strict=True):
        if score < FAR_RATIO * typical:
            flags.append(
                Flag(
                    keys[i],
                    f"{categories[i][0]} is outside this profile's main archive ({main}: {archives[main]} papers); "
                    f"no listed co-authors; its closest {main} paper is {keys[closest]} (similarity {score:.2f}, "
                    f"where the profile's {main} papers have a median of {typical:.2f})",
                )
            )
    return main, tuple(flags)


def _best_matches(rows: list[int], core: list[int], keys: list[str], corpus: Corpus) -> list[tuple[int, float]]:
    """For each paper of ``rows``, the paper of ``core`` (not itself) most similar to it and that
    similarity (ties: the later key), a block of rows at a time: a profile of 10,000 papers
    needs BLOCK x 10,000 numbers at once, not 10,000 x 10,000 (nor one product per paper)."""
    rank = np.argsort(np.argsort([keys[j] for j in core], kind="stable"), kind="stable")
    at = {j: n for n, j in enumerate(core)}
    right = corpus.matrix[core].T.tocsc()
    out: list[tuple[int, float]] = []
    for start in range(0, len(rows), BLOCK):
        chunk = rows[start : start + BLOCK]
        scores = (corpus.matrix[chunk] @ right).toarray().astype(np.float64)
        rounded = np.round(scores, 6)
        for r, i in enumerate(chunk):
            if i in at:
                rounded[r, at[i]] = -np.inf
        best = np.where(rounded == rounded.max(axis=1, keepdims=True), rank, -1).argmax(axis=1)
        out.extend((core[b], float(scores[r, b])) for r, b in enumerate(best.tolist()))
    return out


def _closest_within(core: list[int], keys: list[str], corpus: Corpus) -> list[float]:
    """For each paper of ``core``, its similarity to the most similar other one."""
    return [score for _, score in _best_matches(core, core, keys, corpus)]


def _closest(i: int, core: list[int], keys: list[str], corpus: Corpus) -> tuple[int, float]:
    """The paper of ``core`` (other than i) most similar to paper i, and that similarity: the
    one-at-a-time definition that ``_best_matches`` computes in blocks."""
    others = [j for j in core if j != i]
    scores = (corpus.matrix[others] @ corpus.matrix[i].T).toarray().ravel()
    best = max(range(len(others)), key=lambda n: (round(float(scores[n]), 6), keys[others[n]]))
    return others[best], float(scores[best])
