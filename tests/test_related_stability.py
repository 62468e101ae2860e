"""A related link's reason does not swap its shared terms when a new paper shifts the weights (issue 13)."""

from __future__ import annotations

from readinglist.enrich.similarity import build_corpus


def test_shared_terms_are_the_strongest_listed_in_term_order() -> None:
    text = "zeta zeta zeta zeta alpha kappa"  # "zeta" and "zeta zeta" contribute most
    terms = build_corpus([text, text, "other words"]).shared_terms([(0, 1)], n=3)[(0, 1)]
    assert terms == sorted(terms) and "zeta" in terms
