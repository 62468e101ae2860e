"""arXiv categories for papers that have none, with the evidence shown to the reader.

First what the record itself says (``signals.py``: an old arXiv id, the venue, keywords).
Only then a guess from the text, from three signals, all offline: the categories of the most
similar categorized papers in the list, how close the paper's text is to each category's own
description (the arXiv taxonomy shipped as ``data/arxiv_taxonomy.toml``), and the words in it
that name a field (``data/field_words.toml``: "federated" is machine learning, whatever the
neighbours are). A guess from a title alone is kept only when it is clear; else the paper has
no category (``NONE``): a wrong badge on every page misleads more than none.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import arxiv_categories
from ..model import Work
from ..tomlfile import package_toml
from .signals import NONE, Signal
from .signals import record_signal as signals_of
from .similarity import Corpus

VOTERS = 5  # categorized neighbours that vote on a paper without a category (similarity keeps 24)
# Cosine similarity to a category description is small (about 0.05 to 0.2), a neighbour
# vote share is 0 to 1: this scale lets a clear description match outvote a split vote.
DESCRIPTION_WEIGHT = 1.5
# A field's own name outweighs a unanimous neighbour vote (1.0): neighbours are only the
# papers that happen to be in the list, the name is what the paper says it is about.
FIELD_WEIGHT = 1.25
# How much more a title alone must point to one category than to the next before it is
# shown. Calibrated on real exports (an ML textbook's 477 entries, CoRL 2019's 110, a type
# theory book's 132 and tests/fixtures/exports), each title-only paper with a venue guessed
# as if it had none: at 0.9, 59 of 389 guesses kept and none contradicts its venue's field;
# at 0.8, 1 of 78; at 0, 23 of 389 (6%). tests/test_venue_categories.py checks the exports.
TITLE_ONLY_MARGIN = 0.9
# An archive holding this share of a list's categorized papers is one of its main fields.
MAIN_SHARE = 0.1


@dataclass(frozen=True)
class ArxivCategory:
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class Inferred:
    """A category a record's fields give or its text suggests, with why (``render/about.py``
    says which); no category and ``NONE`` when nothing was strong enough."""

    categories: tuple[str, ...]
    evidence: str


@dataclass(frozen=True)
class Guess:
    category: str
    margin: float  # its score less the next category's: how clearly the text points to it
    evidence: str


@lru_cache(maxsize=1)
def arxiv_taxonomy() -> tuple[ArxivCategory, ...]:
    """Canonical categories only: an alias (cs.NA for math.NA) would split the score."""
    return tuple(
        ArxivCategory(c["id"], c["name"], c["description"]) for c in arxiv_categories.entries() if not c.get("alias_of")
    )


@dataclass(frozen=True)
class FieldWords:
    pattern: re.Pattern[str]
    categories: tuple[str, ...]


@lru_cache(maxsize=1)
def field_words() -> tuple[FieldWords, ...]:
    data = package_toml("field_words.toml")
    return tuple(
        FieldWords(re.compile(r"\b(?:" + "|".join(map(re.escape, f["words"])) + r")\b", re.I), tuple(f["categories"]))
        for f in data["field"]
    )


def field_votes(text: str, known: set[str]) -> tuple[dict[str, float], list[str]]:
    """Each named field's categories (the first full weight, the next half, ...) and the words seen."""
    votes: dict[str, float] = defaultdict(float)
    seen = []
    for field in field_words():
        found = sorted({m.group(0).lower() for m in field.pattern.finditer(text)})
        cats = [c for c in field.categories if c in known]
        if found and cats:
            for rank, cat in enumerate(cats):
                votes[cat] += FIELD_WEIGHT / (rank + 1)
            seen.append(f"{', '.join(found)} ({', '.join(cats)})")
    return dict(votes), seen


def infer(works: list[Work], texts: list[str], corpus: Corpus, guess: bool = True) -> dict[int, Inferred]:
    """For every paper without a category (by index): its category and why, or why none.

    What the record says comes first (``signals.py``); the text decides only the rest, and
    only with ``guess``. A guess from a title alone must clear ``TITLE_ONLY_MARGIN``.
    """
    signals = {i: signals_of(w) for i, w in enumerate(works) if not w.categories}
    out = {i: Inferred(s.categories, s.evidence) for i, s in signals.items() if s and s.categories}
    known = [w.categories or (out[i].categories if i in out else ()) for i, w in enumerate(works)]
    todo = [i for i in signals if i not in out]
    archives = _archives_of(signals, main_archives(known), [not works[i].abstract.strip() for i in range(len(works))])
    found = guesses(todo, texts, known, [w.key for w in works], corpus, archives) if guess else {}
    for i in todo:
        hit = found.get(i)
        if hit and (works[i].abstract.strip() or hit.margin >= TITLE_ONLY_MARGIN):
            out[i] = Inferred((hit.category,), hit.evidence)
        else:
            out[i] = Inferred((), NONE)
    return out


def _archives_of(
    signals: dict[int, Signal | None], main: tuple[str, ...], title_only: list[bool]
) -> dict[int, tuple[str, ...]]:
    """The archives each paper's guess may choose from: those its record names, else for a
    title alone the list's main ones (one optics paper in an ML list makes no ML title optics)."""
    out = {i: s.archives for i, s in signals.items() if s and s.archives}
    return out | {i: main for i in signals if i not in out and title_only[i] and main}


def main_archives(categories: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The archives (cs, math, hep-th, ...) of at least ``MAIN_SHARE`` of the categorized papers."""
    counts = Counter(cats[0].split(".")[0] for cats in categories if cats)
    total = sum(counts.values())
    return tuple(sorted(a for a, n in counts.items() if n >= MAIN_SHARE * total))


def guesses(
    todo: list[int],
    texts: list[str],
    categories: list[tuple[str, ...]],
    keys: list[str],
    corpus: Corpus,
    archives: dict[int, tuple[str, ...]],
) -> dict[int, Guess]:
    """The likeliest category of each paper in ``todo`` by its text, within the archives its
    record allows, with the margin over the next likeliest."""
    if not todo:
        return {}
    taxonomy = _plausible(arxiv_taxonomy(), categories)
    closeness = _description_similarity([texts[i] for i in todo], taxonomy)
    known = {c.id for c in taxonomy}
    out = {}
    for row, i in enumerate(todo):
        allowed = archives.get(i)
        kept = [n for n, c in enumerate(taxonomy) if not allowed or c.id.split(".")[0] in allowed]
        if not kept:
            continue
        votes, neighbours = _neighbour_votes(i, categories, keys, corpus)
        named, words = field_votes(texts[i], known)
        scores = {taxonomy[n].id: DESCRIPTION_WEIGHT * float(closeness[row][n]) for n in kept}
        for cat, share in [*votes.items(), *named.items()]:
            if not allowed or cat.split(".")[0] in allowed:
                scores[cat] = scores.get(cat, 0.0) + share
        closest = taxonomy[max(kept, key=lambda n: float(closeness[row][n]))]  # the first of equals, as argmax
        out[i] = _ranked(scores, _evidence(neighbours, closest, words))
    return out


def _ranked(scores: dict[str, float], evidence: str) -> Guess:
    ranked = sorted(scores, key=lambda c: (-scores[c], c))
    margin = scores[ranked[0]] - (scores[ranked[1]] if len(ranked) > 1 else 0.0)
    return Guess(ranked[0], margin, evidence)


def _evidence(neighbours: list[str], closest: ArxivCategory, words: list[str]) -> str:
    """In this order: render/about.py links the neighbours up to "; closest arXiv description: "."""
    parts = [f"closest arXiv description: {closest.id} ({closest.name})"]
    if neighbours:
        parts.insert(0, f"most similar categorized papers: {', '.join(neighbours)}")
    if words:
        parts.append(f"words naming a field: {'; '.join(words)}")
    return "; ".join(parts)


def _plausible(taxonomy: tuple[ArxivCategory, ...], categories: list[tuple[str, ...]]) -> tuple[ArxivCategory, ...]:
    """Categories of the archives this list already uses (cs, physics, ...), else all of them."""
    archives = {c.split(".")[0] for cats in categories for c in cats}
    kept = tuple(c for c in taxonomy if c.id.split(".")[0] in archives)
    return kept or taxonomy


def _neighbour_votes(
    i: int, categories: list[tuple[str, ...]], keys: list[str], corpus: Corpus
) -> tuple[dict[str, float], list[str]]:
    ranked = [(s, j) for s, j in corpus.neighbours(i) if categories[j]][:VOTERS]
    total = sum(s for s, _ in ranked) or 1.0
    votes: dict[str, float] = defaultdict(float)
    for score, j in ranked:
        votes[categories[j][0]] += score / total
    return dict(votes), [f"{keys[j]} ({categories[j][0]})" for _, j in ranked]


def _description_similarity(texts: list[str], taxonomy: tuple[ArxivCategory, ...]) -> np.ndarray:
    described = [f"{c.name}. {c.name}. {c.description}" for c in taxonomy]
    from sklearn.feature_extraction.text import TfidfVectorizer  # only when a category is inferred

    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True)
    matrix = vectorizer.fit_transform(described + texts)
    result: np.ndarray = (matrix[len(described) :] @ matrix[: len(described)].T).toarray()
    return result
