"""Versions of one system (issue 9, item 9): a shared ``Name:`` prefix is not enough, and
however many papers name one system, the version links grow linearly, never all pairs."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEEDS
from readinglist.enrich import authors, related
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.related import VERSION_WINDOW, version_groups
from readinglist.enrich.similarity import NEIGHBOURS, build_corpus
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.model import Library, SourceRef, Work

N = 300
TOPICS = load_taxonomy(SEEDS / "conf" / "topics.toml")
RNG_WORDS = [f"w{a}{b}{c}" for a in "abcdefghij" for b in "klmnopqrst" for c in "uvwxyzabcd"]  # 1,000 words
FUSION = (
    "We propose FusionStitching, a deep learning compiler that fuses memory intensive operators into large "
    "GPU kernels, explores fusion plans with a cost model and reduces kernel launches and memory traffic."
)


def unrelated_abstract(rng: random.Random) -> str:
    """Forty words drawn from a thousand: two such abstracts share almost nothing."""
    return " ".join(rng.choice(RNG_WORDS) for _ in range(40)) + "."


def widgetnet(shared_author: str | None) -> list[Work]:
    """N papers whose titles all start "WidgetNet:", each by its own author (plus ``shared_author``)."""
    rng = random.Random(9)
    return [
        Work(
            key=f"paper{i:04d}",
            title=f"WidgetNet: {rng.choice(RNG_WORDS)} {rng.choice(RNG_WORDS)}",
            authors=(f"Author{i:04d} Person", *([shared_author] if shared_author else [])),
            year=2000 + i % 25,
            abstract=unrelated_abstract(rng),
        )
        for i in range(N)
    ]


def version_pairs(library: Library) -> set[frozenset[str]]:
    return {frozenset((p.key, other)) for p in library.papers for other in p.versions}


def test_a_shared_prefix_alone_does_not_make_versions() -> None:
    library = enrich(widgetnet(None), TOPICS)
    assert version_pairs(library) == set()
    assert not any(link.reason.startswith("another version") for p in library.papers for link in p.related)


def test_shared_authors_link_versions_as_a_band_not_all_pairs() -> None:
    library = enrich(widgetnet("Ada Lovelace"), TOPICS)
    pairs = version_pairs(library)
    assert all(0 < len(p.versions) <= 2 * VERSION_WINDOW for p in library.papers)
    assert len(pairs) <= 2 * N  # linear: the old all-pairs graph had N(N-1)/2 = 44,850
    by_key = library.by_key()
    for paper in library.papers:  # symmetric, and listed in year order
        assert all(paper.key in by_key[other].versions for other in paper.versions)
        years = [by_key[k].work.year or 0 for k in paper.versions]
        assert years == sorted(years)
    assert _connected(pairs, {p.key for p in library.papers})  # one system: every version reachable


def _connected(pairs: set[frozenset[str]], keys: set[str]) -> bool:
    neighbours: dict[str, set[str]] = {k: set() for k in keys}
    for a, b in (tuple(p) for p in pairs):
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen, todo = set(), [next(iter(keys))]
    while todo:
        key = todo.pop()
        if key not in seen:
            seen.add(key)
            todo.extend(neighbours[key] - seen)
    return seen == keys


def test_similar_abstracts_without_a_listed_author_are_versions_and_a_namesake_is_not() -> None:
    """As the seeds' three FusionStitching papers: "Wei Lin et al." (the profile owner only)."""
    owner = (SourceRef("lin.txt", 1, owner="Wei Lin"),)
    fusion = [
        Work(f"lin{y}fusion", f"FusionStitching: part {y}", ("Wei Lin",), True, y, FUSION + f" Version {y}.")
        for y in (2018, 2019, 2020)
    ]
    fusion = [Work(**{**w.__dict__, "sources": owner}) for w in fusion]
    rng = random.Random(1)
    namesake = Work("other2021fusion", "FusionStitching: weaving textiles", ("Ann Other",), False, 2021, "")
    others = [Work(f"x{i}", f"Paper {i}", (f"P{i} Q",), abstract=unrelated_abstract(rng)) for i in range(20)]
    library = enrich([*fusion, Work(**{**namesake.__dict__, "abstract": unrelated_abstract(rng)}), *others], TOPICS)
    by_key = library.by_key()
    assert by_key["lin2020fusion"].versions == ("lin2018fusion", "lin2019fusion")
    assert by_key["lin2018fusion"].versions == ("lin2019fusion", "lin2020fusion")
    assert by_key["other2021fusion"].versions == ()


def test_one_author_on_many_identical_titles_ranks_a_bounded_number_of_candidates() -> None:
    """A hand-written refs.bib may hold thousands of distinct keys with one title and one author."""
    works = [Work(f"k{i:05d}", "WidgetNet: A study", ("Ada Lovelace",), year=2020) for i in range(1000)]
    corpus = build_corpus([w.title for w in works])
    authors = [{"ada-lovelace"} for _ in works]
    papers_of = {"ada-lovelace": list(range(len(works)))}
    for i in (0, 500, 999):
        close = {j: s for s, j in corpus.neighbours(i)}
        assert len(related._coauthored(i, authors, papers_of, close)) <= related.CANDIDATES + NEIGHBOURS
    versions = version_groups(works, corpus, {"Ada Lovelace": "ada-lovelace"})
    assert max(len(v) for v in versions.values()) <= 2 * VERSION_WINDOW


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["Foo", "FooNet", "BarX", ""]), st.sets(st.sampled_from("abcd"), max_size=2),
                  st.integers(2015, 2020)),
        min_size=1, max_size=40,
    )
)  # fmt: skip
def test_version_links_are_symmetric_capped_and_need_the_same_name(papers: list[tuple[str, set[str], int]]) -> None:
    works = [
        Work(f"p{i:03d}", f"{name}: study {i}" if name else f"Study {i}", tuple(f"{a} Person" for a in who), year=y)
        for i, (name, who, y) in enumerate(papers)
    ]
    corpus = build_corpus([w.title for w in works])
    versions = version_groups(works, corpus, {})
    name_of = {w.key: related.system_name(w) for w in works}
    for key, others in versions.items():
        assert len(others) <= 2 * VERSION_WINDOW
        assert all(key in versions[o] and name_of[o].lower() == name_of[key].lower() != "" for o in others)


def test_best_matches_in_blocks_are_the_one_at_a_time_closest() -> None:
    """A profile's namesake check ranks its papers in blocks (a 10,000-paper profile made a
    10,000 x 10,000 matrix); the blocks give what one paper at a time gives."""
    rng = random.Random(3)
    texts = [" ".join(rng.choice(RNG_WORDS[:60]) for _ in range(12)) for _ in range(40)]
    corpus, keys = build_corpus(texts), [f"k{i:02d}" for i in range(40)]
    core, rows = list(range(0, 40, 2)), list(range(40))
    assert authors._best_matches(rows, core, keys, corpus) == [authors._closest(i, core, keys, corpus) for i in rows]


def test_identical_papers_do_not_all_pick_the_same_neighbours() -> None:
    """Ties in similarity went to the lowest index: with identical titles every paper picked the
    first few as its nearest, so a handful of pages listed every other paper as related."""
    corpus = build_corpus(["WidgetNet: A study of widgets"] * 300)
    picked = Counter(j for i in range(300) for _, j in corpus.neighbours(i))
    assert all(len(corpus.neighbours(i)) == NEIGHBOURS for i in range(300))
    assert max(picked.values()) == NEIGHBOURS  # each paper is the nearest of exactly NEIGHBOURS others
