"""The near-duplicate abstract index finds exactly the works a comparison with every work finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from readinglist.latex import ascii_fold, to_text
from readinglist.store.nearby import NEAR_DUPLICATE, AbstractIndex, Grams, jaccard, norm, shingles

WORDS = ("graph", "model", "data", "the", "of", "a", "fast", "train", "gpu", "cache")
abstracts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=40).map(" ".join)


def _edits(text: str, positions: list[int], word: str) -> str:
    """``text`` with a few words replaced: a near-duplicate, or not, depending on how many."""
    words = text.split()
    for position in positions:
        if words:
            words[position % len(words)] = word
    return " ".join(words)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(abstracts, min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 11), st.lists(st.integers(0, 40), max_size=4), st.sampled_from(WORDS))),
    st.integers(0, 30),
)
@example(["graph graph graph graph model graph graph"], [(0, [0], "data")], 0)  # exactly 80%: 4 of 5
def test_near_finds_what_a_full_scan_finds(
    texts: list[str], copies: list[tuple[int, list[int], str]], expected: int
) -> None:
    texts = texts + [_edits(texts[i % len(texts)], positions, word) for i, positions, word in copies]
    index = AbstractIndex()
    if expected:  # as an import does, ranked in advance; the others are ranked as they come
        index.expect(texts[:expected])
    added: dict[str, Grams] = {}
    for n, text in enumerate(texts):
        grams = shingles(text)
        everything = [(jaccard(grams, other), key) for key, other in added.items()]
        assert sorted(index.near(grams)) == sorted((s, k) for s, k in everything if s >= NEAR_DUPLICATE)
        index.add(f"w{n}", grams)
        added[f"w{n}"] = grams


def test_the_ranking_is_fixed_before_the_first_abstract_is_indexed() -> None:
    index = AbstractIndex()
    index.add("w0", shingles("a fast graph model of the data"))
    with pytest.raises(RuntimeError):
        index.expect(["a fast graph model"])


@given(st.text())
def test_norm_keeps_the_words_of_the_regular_expression(text: str) -> None:
    assert norm(text) == " ".join(re.findall(r"[a-z0-9]+", ascii_fold(to_text(text)).lower()))
