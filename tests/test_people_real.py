"""People split and merged on real reading lists (issue 26, verification), found by hand in the
author pages of imported real exports: a hand-kept PL bibliography (akhirsch/bibliography), an
ML textbook's (talesa/probmlbib) and Mendeley libraries (cbrueffer, jukkahuhtamaki). Each split
person there wrote one whole first name on one paper and added a middle name or initial on
another, with nothing else in common: one author here. The works below keep each case's shape
(names, and how little the papers share); the names that must stay apart are real too.

A cancer-genomics Mendeley library (cbrueffer) had people wrongly merged: "Kai Wang" and "Kun
Wang" through Mendeley's "Wang, K A I" (Kai's spelling, whose initials fit Kun); "Bin Liu" and
"Binghang Liu" through "B. Liu" and co-authors shared by consortium papers of 295 and 477
authors; "Hong Zhang" and "Hongxin Zhang" on a journal alone (a short form only in English).
"""

from __future__ import annotations

import pytest

from readinglist.enrich.people import people
from readinglist.model import Work
from readinglist.store.identity import Rules


def _work(key: str, *authors: str, venue: str = "") -> Work:
    extra = (("journal", venue),) if venue else ()
    return Work(key, f"Paper {key}", authors, year=2000, extra=extra)


# Each split person: their papers as the list has them (co-authors and venues share nothing).
SPLIT: dict[str, list[tuple[str, ...]]] = {
    "reynolds": [("Reynolds, John",), ("Reynolds, John C.",)],
    "halpern": [("Fagin, Ronald", "Halpern, Joseph Y.", "Vardi, Moshe Y."), ("Halpern, Joseph", "O'Neill, Kevin R.")],
    "plotkin": [("Plotkin, Gordon", "Power, John"), ("Plotkin, Gordon D.",), ("G. D. Plotkin", "Power, John")],
    "levy": [("Levy, Paul Blain",), ("Levy, Paul B.", "Staton, Sam")],
    "vasconcelos": [("Gay, Simon J.", "Vasconcelos, Vasco T."), ("Honda, Kohei", "Vasconcelos, Vasco Thudichum")],
    "schneider": [("Schneider, Fred B.", "Sirer, Emin Gün"), ("Schneider, Fred", "Clarkson, Michael R.")],
    "courville": [("Bengio, Yoshua", "Courville, Aaron"), ("Courville, Aaron C.", "Ozair, Sherjil")],
    "salakhutdinov": [("Salakhutdinov, Ruslan", "Mnih, Andriy"), ("Salakhutdinov, Ruslan R",)],
    "yuille": [("Yuille, Alan",), ("Yuille, Alan L.", "Kersten, Daniel")],
    "rubin": [("Rubin, Donald B.", "Dempster, A. P."), ("Rubin, Donald",)],
    "bastian": [("Bastian, Boris C.", "Shain, A. Hunter"), ("Bastian, Boris",)],
    "pentland": [('Pentland, Alex "Sandy"',), ("Pentland, Alex",)],
}


@pytest.mark.parametrize("person", sorted(SPLIT))
def test_a_person_split_on_a_real_list_is_one_author(person: str) -> None:
    works = [_work(f"{person}{n}", *authors) for n, authors in enumerate(SPLIT[person])]
    found = people(works)
    names = {a for authors in SPLIT[person] for a in authors if person in a.lower().replace(" ", "")}
    assert len({found.ids[n] for n in names}) == 1, {n: found.ids[n] for n in names}
    assert not any(person in pid.replace("-", "") for pid in found.namesakes)


def test_the_same_first_name_does_not_join_a_hyphenated_one() -> None:
    """probmlbib: Jun Zhu (Tsinghua) and Jun-Yan Zhu (CycleGAN) are two people."""
    found = people([_work("z1", "Zhu, Jun"), _work("z2", "Zhu, Jun-Yan")])
    assert found.ids["Zhu, Jun"] != found.ids["Zhu, Jun-Yan"]
    assert found.namesakes[found.ids["Zhu, Jun"]]


def test_a_given_name_of_two_words_is_not_a_middle_name() -> None:
    """cbrueffer: "Guo Qiang Chen" and "Guo Chen", "Yu Fang Chen" and "Yu Chen" (pinyin given
    names of two words) share nothing else: kept apart, as "Yee Whye Teh" and "Yee Teh" would be."""
    for a, b in (("Chen, Guo Qiang", "Chen, Guo"), ("Chen, Yu Fang", "Chen, Yu")):
        found = people([_work("a", a, "Doe, Jane"), _work("b", b, "Roe, Richard")])
        assert found.ids[a] != found.ids[b], (a, b)


def test_a_name_that_fits_two_people_joins_neither() -> None:
    """ "John Reynolds" can be John C. or John D. Reynolds: without evidence, it is neither."""
    found = people([_work("r1", "Reynolds, John"), _work("r2", "Reynolds, John C."), _work("r3", "Reynolds, John D.")])
    assert len({found.ids[n] for n in ("Reynolds, John", "Reynolds, John C.", "Reynolds, John D.")}) == 3


def test_a_nickname_or_an_initial_still_needs_evidence() -> None:
    """probmlbib: "Matt Johnson" and "Matthew J. Johnson", "Ben Taskar" and "Benjamin Taskar";
    the issue's "J. González" (Javier) and "Joseph E. Gonzalez": names that merely fit, kept
    apart and flagged."""
    pairs = [("Johnson, Matt", "Johnson, Matthew J."), ("Taskar, Ben", "Taskar, Benjamin"),
             ("J. González", "Joseph E. Gonzalez")]  # fmt: skip
    for a, b in pairs:
        found = people([_work("a", a, "Doe, Jane"), _work("b", b, "Roe, Richard")])
        assert found.ids[a] != found.ids[b] and found.namesakes[found.ids[a]], (a, b)


def test_identity_toml_splits_a_whole_first_name_too() -> None:
    rules = Rules(different_authors=(frozenset({"Reynolds, John", "Reynolds, John C."}),))
    found = people([_work("r1", "Reynolds, John"), _work("r2", "Reynolds, John C.")], rules)
    assert found.ids["Reynolds, John"] != found.ids["Reynolds, John C."]


def _consortium(key: str, *names: str) -> Work:
    """A paper of 60 authors, 58 of them one consortium's."""
    return _work(key, *names, *(f"Member{n}, Alex" for n in range(60 - len(names))))


def test_initials_of_one_spelling_do_not_fit_another_first_name() -> None:
    works = [
        _work("k1", "Wang, Kai", "Li, Mingyao"), _work("k2", "Jeck, William R", "Wang, K A I"),
        _work("k3", "Wang, Kun", "Lee, Joo Sang"), _work("k4", "Wang, K", "Li, Mingyao", "Lee, Joo Sang"),
    ]  # fmt: skip
    ids = people(works).ids
    assert ids["Wang, Kai"] == ids["Wang, K A I"] != ids["Wang, Kun"]


def test_co_authors_of_consortium_papers_are_no_evidence() -> None:
    works = [_consortium("c1", "Liu, B."), _consortium("c2", "Liu, Binghang")]
    ids = people(works).ids
    assert ids["Liu, B."] != ids["Liu, Binghang"]
    small = [_work("s1", "Liu, B.", "Doe, Jane"), _work("s2", "Liu, Binghang", "Doe, Jane")]
    assert len({people(small).ids[n] for n in ("Liu, B.", "Liu, Binghang")}) == 1  # a co-author of a small paper is


def test_two_authors_of_one_paper_are_two_people_whatever_else_joins_them() -> None:
    works = [_work("p1", "Liu, Bin", "Liu, Binghang", "Doe, Jane"), _work("p2", "Liu, B.", "Doe, Jane")]
    ids = people(works).ids
    assert ids["Liu, Bin"] != ids["Liu, Binghang"]


def test_a_short_form_needs_a_co_author_not_a_journal() -> None:
    apart = [_work("h1", "Zhang, Hong", venue="Nature"), _work("h2", "Zhang, Hongxin", venue="Nature")]
    assert people(apart).ids["Zhang, Hong"] != people(apart).ids["Zhang, Hongxin"]
    joined = [_work("j1", "Quick, Josh", "Loman, Nicholas J."), _work("j2", "Quick, Joshua", "Loman, Nicholas J.")]
    assert people(joined).ids["Quick, Josh"] == people(joined).ids["Quick, Joshua"]


def test_one_conference_series_is_one_venue_whatever_its_year() -> None:
    """Blaisorblade's Zotero library: "A. W. Appel" at the 16th POPL and "Andrew W. Appel" at the
    34th (its proceedings titled two ways) share a venue; a journal of another name is none."""
    popl16 = (
        "Proceedings of the 16th {{ACM SIGPLAN}}-{{SIGACT Symposium}} on {{Principles}} of {{Programming Languages}}"
    )
    popl34 = (
        "Proceedings of the 34th {{Annual ACM SIGACT}}-{{SIGPLAN Symposium}} on {{Principles}} of "
        "{{Programming Languages}}"
    )
    works = [_work("a1", "Appel, A. W.", venue=popl16), _work("a2", "Appel, Andrew W.", venue=popl34)]
    assert len({people(works).ids[n] for n in ("Appel, A. W.", "Appel, Andrew W.")}) == 1
    other = [
        _work("a1", "Appel, A. W.", venue=popl16),
        _work("a2", "Appel, Andrew W.", venue="Information and Control"),
    ]
    assert len({people(other).ids[n] for n in ("Appel, A. W.", "Appel, Andrew W.")}) == 2
