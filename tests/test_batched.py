"""The batched paths of enrichment give what the simple, one-at-a-time definitions give."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.enrich.authors import _closest, _closest_within
from readinglist.enrich.similarity import build_corpus
from readinglist.enrich.topics import _keyword_hits
from readinglist.model import Topic

WORDS = ["pipe", "pipeline", "pipeline parallel", "a a", "graph", "net", "-net", "x", "ab"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*WORDS, " ", "-", ".", "s"]), max_size=30).map("".join),
    st.sets(st.sampled_from(WORDS), min_size=1),
)
def test_keyword_hits_count_as_findall(text: str, keywords: set[str]) -> None:
    topic = Topic(id="t", title="T", description="", categories=(), keywords=tuple(sorted(keywords)))
    expected = [len(re.findall(rf"\b{re.escape(k)}", text)) for k in topic.keywords]
    assert _keyword_hits(topic, text) == expected


TEXTS = [
    "pipeline parallel training of large models on gpu clusters",
    "pipeline scheduling for training large language models",
    "graph neural network sampling on large graphs",
    "graph partitioning for distributed graph neural network training",
    "crowd counting with synthetic data and domain adaptation",
    "scene text detection with deformable pooling and synthetic data",
    "fiber laser pumping at high power",
]


def test_pair_similarities_and_terms_match_the_rows() -> None:
    corpus = build_corpus(TEXTS)
    pairs = [(i, j) for i in range(len(TEXTS)) for j in range(len(TEXTS)) if i != j]
    scores, terms = corpus.similarities(pairs), corpus.shared_terms(pairs)
    for i, j in pairs:
        product = corpus.matrix[i].multiply(corpus.matrix[j]).tocoo()
        assert abs(scores[(i, j)] - product.sum()) < 1e-6
        order = np.lexsort((product.col, -product.data))[:3]
        assert terms[(i, j)] == [str(corpus.terms[product.col[k]]) for k in order]
    assert terms[(0, 1)] and scores[(0, 1)] > scores[(0, 6)]


def test_closest_within_the_core_matches_one_at_a_time() -> None:
    corpus = build_corpus(TEXTS)
    keys = [f"k{i}" for i in range(len(TEXTS))]
    core = [0, 1, 2, 3, 5]
    assert _closest_within(core, keys, corpus) == [_closest(i, core, keys, corpus)[1] for i in core]
