"""Per-work enrichment results kept between generates (enrich/recall.py): served only for the
same function and arguments, and the library made with them is the library made without."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from conftest import copy_seeds
from readinglist import cache
from readinglist.config import load_config
from readinglist.enrich import similarity
from readinglist.enrich.recall import Recall
from readinglist.render.notes import load_notes
from readinglist.site import assemble


def test_a_result_is_served_for_the_same_call_only() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    first = Recall()
    assert first("upper", upper, "a") == "A" and first("upper", upper, "a") == "A"
    second = Recall(first.used)
    assert second("upper", upper, "a") == "A" and second("upper", upper, "b") == "B"
    assert second("other", upper, "a") == "A"  # another function's result is not this one's
    assert calls == ["a", "b", "a"]
    assert [name for name, _ in second.used] == ["upper", "upper", "other"]  # only what was asked


def test_the_taxonomy_is_no_part_of_the_key() -> None:
    recall = Recall()
    assert recall("join", lambda a, b: a + b, "x", also=("y",)) == "xy"
    assert recall("join", lambda a, b: a + b, "x", also=("z",)) == "xy"  # served: "z" is not looked at


def test_a_library_enriched_from_recalled_results_is_the_same(tmp_path: Path, seed_bib_text: str) -> None:
    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    config = load_config(root)
    notes = load_notes(config.notes_path)
    first = Recall()
    built = assemble.enrich_store(config, notes, first)
    assert {name for name, _ in first.used} == {"title", "terms", "topics", "subtopics", "results", "tldr", "brief"}
    served = Recall(first.used)
    assert assemble.enrich_store(config, notes, served).library == built.library
    assert served.used == first.used


def test_generate_keeps_them_under_the_taxonomy_and_the_code(tmp_path: Path, seed_bib_text: str) -> None:
    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    config = load_config(root)
    assemble.enrichment(config, load_notes(config.notes_path))

    def recalled() -> object:
        key = cache.key_of(assemble.RECALL, config.taxonomy_path)
        return cache.Store.open(config.docs_path).get(assemble.RECALL, key, dict)

    assert recalled()
    config.taxonomy_path.write_text(config.taxonomy_path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert recalled() is None


def test_a_texts_terms_are_served_and_the_corpus_is_the_one_analysed_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding a paper fits TF-IDF over every text again; the terms of the unchanged ones come
    from the last generate, and the weights, terms and neighbours are those of a fresh fit."""
    texts = [
        "Kernel fusion for recommendation models on GPU clusters.",
        "Kernel fusion cuts launch overhead: see https://example.com/fusion for code.",
        "Pipeline parallelism for recommendation models, with gradient compression.",
        "Gradient compression on GPU clusters.",
        "",  # a text with no terms
    ]
    first = Recall()
    similarity.build_corpus(texts[:-1], first)
    analysed: list[str] = []
    analyse = similarity._terms_line

    def watched(text: str, analyzer: Callable[[str], list[str]]) -> str:
        analysed.append(text)
        return analyse(text, analyzer)

    monkeypatch.setattr(similarity, "_terms_line", watched)
    served = similarity.build_corpus(texts, Recall(first.used))
    assert analysed == [""]  # only the new text was analysed
    fresh = similarity.build_corpus(texts)
    assert (served.matrix != fresh.matrix).nnz == 0 and served.matrix.shape == fresh.matrix.shape
    assert list(served.terms) == list(fresh.terms) and "fusion" in served.terms and "com" not in served.terms
    assert [served.neighbours(i) for i in range(len(texts))] == [fresh.neighbours(i) for i in range(len(texts))]
    # ...and the fit of scikit-learn's own word analysis, with the same settings
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

    words = TfidfVectorizer(
        preprocessor=similarity._lowered,
        stop_words=sorted(ENGLISH_STOP_WORDS | similarity.RESEARCH_STOP_WORDS),
        ngram_range=(1, 2),
        min_df=2,
        token_pattern=r"(?u)\b[a-zA-Z][\w\-]+\b",
        sublinear_tf=True,
        dtype=np.float32,
    )
    assert (words.fit_transform(texts) != served.matrix).nnz == 0
    assert list(words.get_feature_names_out()) == list(served.terms)
