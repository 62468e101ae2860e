"""Adding one paper changes only the related lists it enters (issue 13): no re-shuffled ties elsewhere."""

from __future__ import annotations

import random

import pytest

from conftest import SEEDS
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.similarity import build_corpus, list_size
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.model import Link, SourceRef, Work

STEMS = ("kernel", "graph", "tensor", "pipeline", "sparse", "cache")
WORDS = [f"{stem}{tail}" for stem in STEMS for tail in "abcdefghij"]
PEOPLE = [f"{first} {last}" for first in ("Ana", "Bo", "Chen", "Dara", "Eli") for last in ("Kim", "Li", "Moss", "Ng")]


def _works(n: int, seed: int = 7) -> list[Work]:
    """Papers of a few words each from one small vocabulary, by three of twenty authors: many
    near-equal similarities and many co-authored papers tied on the author count."""
    rng = random.Random(seed)
    works = []
    for i in range(n):
        words = rng.sample(WORDS, 8)
        works.append(
            Work(
                key=f"w{i:03d}",
                title=" ".join(words[:3]),
                authors=tuple(rng.sample(PEOPLE, 3)),
                abstract="We study " + " ".join(words) + ".",
                year=2000 + i % 20,
                sources=(SourceRef("x.txt", i + 1, "Owner"),),
            )
        )
    return works


def _related(works: list[Work]) -> dict[str, tuple[Link, ...]]:
    return {p.key: p.related for p in enrich(works, load_taxonomy(SEEDS / "conf" / "topics.toml")).papers}


@pytest.mark.parametrize("n", [121, 141, 185])
def test_a_new_paper_changes_only_the_lists_it_enters(n: int) -> None:
    works = _works(n)
    # Words no other paper has, and one author of the others: it enters co-authors' lists only.
    new = Work(key="zz-new", title="Quantum annealing", authors=(PEOPLE[0],), abstract="We study quasar zebra.")
    before, after = _related(works), _related([*works, new])
    entered = {key for key, links in after.items() if any(link.key == new.key for link in links)}
    for key, links in before.items():
        lost = {link.key for link in links} - {link.key for link in after[key]}
        if key in entered or lost <= entered:  # gained the new paper, or lost a link it displaced
            continue
        assert after[key] == links, key


def test_the_weights_count_the_papers_to_two_significant_digits() -> None:
    assert [list_size(n) for n in (1, 28, 99, 100, 101, 141, 150, 1001, 10_000, 10_001)] == [
        1, 28, 99, 100, 110, 150, 150, 1100, 10_000, 11_000,
    ]  # fmt: skip


def test_a_paper_without_shared_words_moves_no_other_similarity() -> None:
    texts = [f"We study {' '.join(w.abstract.split()[2:])}" for w in _works(141)]
    before, after = build_corpus(texts), build_corpus([*texts, "We study quasar zebra."])
    assert [before.neighbours(i) for i in range(len(texts))] == [after.neighbours(i) for i in range(len(texts))]


def test_shared_terms_are_the_strongest_listed_in_term_order() -> None:
    text = "zeta zeta zeta zeta alpha kappa"  # "zeta" and "zeta zeta" contribute most
    terms = build_corpus([text, text, "other words"]).shared_terms([(0, 1)], n=3)[(0, 1)]
    assert terms == sorted(terms) and "zeta" in terms
