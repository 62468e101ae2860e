"""Pages a reader can trust (issue 4): stored expected outputs on the seeds, and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, SEEDS, Stored, copy_seeds
from readinglist.config import load_config
from readinglist.enrich import summary
from readinglist.enrich.pipeline import Library, enrich
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.model import SourceRef, Work
from readinglist.site.assemble import build_library
from readinglist.site.records import records

FIELDS = ("title", "title_inferred", "versions", "categories", "categories_inferred", "topics", "tldr", "key_results")
# Read off the untitled abstracts by hand: the system each one names.
NAMED_SYSTEMS = {
    "zhengfusionstitching": "FusionStitching",
    "zhoudasgd": "DaSGD",
    "zhaibytetransformer": "ByteTransformer",
    "yuanenas4d": "ENAS4D",
    "gaovacl": "VACL",
    "xingdnnvm": "DNNVM",
}
FUSIONSTITCHING = ["lin2018fusionstitching", "lin2019fusionstitching", "zhengfusionstitching"]
WEI_LIN_NAMESAKE = {"lin2019grid", "lin2019highefficiency", "lin2019supercontinuum", "lin2020impact"}
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """The frozen seed list (tests/fixtures/seeds), not this repository's live refs.bib."""
    library, _, _ = build_library(load_config(copy_seeds(tmp_path_factory.mktemp("quality") / "seeds")))
    return library


@pytest.fixture(scope="module")
def seed_records(seeds: Library) -> dict[str, dict[str, object]]:
    return {r["key"]: r for r in records(seeds)}


def test_seed_outputs_match_stored_expectations(seed_records: dict[str, dict[str, object]], stored: Stored) -> None:
    """Every seed's title, versions, categories, topics, TL;DR and key results, as stored (and checked
    by hand) in fixtures/seeds.expected.json; ``pytest --update-fixtures`` writes it again."""
    expected = {key: {f: seed_records[key][f] for f in FIELDS} for key in sorted(seed_records)}
    stored.check_json(FIXTURES / "seeds.expected.json", expected, indent=1)


def test_every_work_has_categories_topics_summary_and_two_explained_links(seeds: Library) -> None:
    assert len(seeds.papers) == 28
    for paper in seeds.papers:
        assert paper.categories and paper.topics, paper.key
        assert paper.tldr and len(paper.tldr.split()) <= 50, paper.key
        assert all(link.reason for link in paper.related), paper.key
        assert not paper.categories_inferred or paper.category_evidence, paper.key


def test_untitled_works_naming_a_system_start_with_its_name(seeds: Library) -> None:
    by_key = seeds.by_key()
    for key, name in NAMED_SYSTEMS.items():
        assert by_key[key].work.title_inferred
        assert re.sub(r"[{}]", "", by_key[key].work.title).startswith(f"{name}:"), key


def test_fusionstitching_works_are_versions_of_each_other_by_year(seeds: Library) -> None:
    by_key = seeds.by_key()
    for key in FUSIONSTITCHING:
        assert sorted([key, *by_key[key].versions]) == FUSIONSTITCHING
    assert by_key["zhengfusionstitching"].versions == ("lin2018fusionstitching", "lin2019fusionstitching")


def test_wei_lin_profile_flags_the_namesake_papers(seeds: Library) -> None:
    wei_lin = next(a for a in seeds.authors if a.name == "Wei Lin")
    assert {f.key for f in wei_lin.flags} == WEI_LIN_NAMESAKE
    assert all("outside this profile's main archive (cs" in f.evidence for f in wei_lin.flags)
    assert not next(a for a in seeds.authors if a.name == "Xin Liu").flags


def test_abstracts_with_quantities_yield_key_results(seeds: Library) -> None:
    with_results = {p.key for p in seeds.papers if p.key_results}
    # Abstracts that report measured outcomes, read by hand.
    assert {"zhengfusionstitching", "zhaibytetransformer", "yulearnable", "gaovacl", "lin2020dapple"} <= with_results
    results = " ".join(seeds.by_key()["zhengfusionstitching"].key_results)
    assert "2.21x speedup" in results and "7,000 GPU hours" in results


sentences = st.lists(
    st.one_of(
        st.sampled_from(["We propose X", "It reaches 2.21x speedup", "Accuracy is 97.27% on data", "In 2019 we"]),
        st.text(alphabet=st.characters(whitelist_categories=("L", "N", "Zs", "Po")), max_size=60),
    ),
    max_size=8,
).map(". ".join)


@settings(max_examples=300, deadline=None)
@given(sentences)
def test_key_results_quote_only_numbers_of_the_abstract(text: str) -> None:
    numbers = set(NUMBER.findall(text))
    for result in summary.key_results(text):
        assert set(NUMBER.findall(result)) <= numbers
        assert result[1:] in text  # quoted verbatim (the first letter may be capitalized)
    assert len(summary.tldr(text).split()) <= 50


WORDS = ["pipeline", "gpu", "kernel", "fusion", "pruning", "vision", "text", "search", "graph", "laser", "fiber"]
PEOPLE = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Wu"]
works = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=3, max_size=12),
        st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=2, unique=True),
        st.sampled_from(["", "cs.DC", "cs.CV", "physics.optics"]),
        st.sampled_from(["", "Alpha", "Beta"]),
    ),
    min_size=2,
    max_size=9,
)


def _library(raw: list[tuple[list[str], list[str], str, str]]) -> Library:
    built = [
        Work(
            key=f"w{n}",
            title=(f"{system}: " if system else "") + " ".join(words[:3]),
            authors=tuple(people),
            abstract="We study " + " ".join(words) + ".",
            categories=(category,) if category else (),
            year=2000 + n,
            sources=(SourceRef("x.txt", n + 1, "Owner"),),
        )
        for n, (words, people, category, system) in enumerate(raw)
    ]
    return enrich(built, load_taxonomy(SEEDS / "conf" / "topics.toml"))


@settings(max_examples=60, deadline=None)
@given(works)
def test_related_links_are_symmetric_with_the_same_reason(raw: list[tuple[list[str], list[str], str, str]]) -> None:
    library = _library(raw)
    links = {(p.key, link.key): link.reason for p in library.papers for link in p.related}
    for (a, b), reason in links.items():
        assert links.get((b, a)) == reason
    for paper in library.papers:
        assert paper.topics  # links: as many as are strong, none to reach a quota (issue 11)


@settings(max_examples=20, deadline=None)
@given(works)
def test_enrichment_is_deterministic(raw: list[tuple[list[str], list[str], str, str]]) -> None:
    assert records(_library(raw)) == records(_library(raw))
