"""Topic pages (issue 11): subtopics, "Start here" with its reasons, and versions of one system
as one card on topic pages and one item By year, with no paper left unreachable."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import attr, copy_seeds, find, soup, words
from readinglist.config import load_config
from readinglist.enrich.starthere import MAX, priority_rank, start_here, version_sets
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.enrich.topics import assign_subtopics
from readinglist.errors import Code, ReadingListError
from readinglist.model import Library, Link, Paper, Work
from readinglist.render.listings import topic_pages, years_page
from readinglist.site.assemble import build_library
from readinglist.site.sphinx_ext.facets import facet_values, markup

FUSION = {"lin2018fusionstitching", "lin2019fusionstitching", "zhengfusionstitching"}
LINKS = re.compile(r"```\{readinglist-links\}\n(.*?)\n```", re.S)
CARDS = re.compile(r"```\{readinglist-cards\}\n(.*?)\n```", re.S)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Library:
    library, _, _ = build_library(load_config(copy_seeds(tmp_path_factory.mktemp("topics") / "seeds")))
    return library


def _items(page: str) -> list[dict[str, Any]]:
    return [json.loads(line) for block in LINKS.findall(page) for line in block.splitlines()]


def _cards(page: str) -> list[dict[str, Any]]:
    return [json.loads(line) for block in CARDS.findall(page) for line in block.splitlines()]


# --- the taxonomy ----------------------------------------------------------------------------------

TAXONOMY = """[[topic]]
id = "ml"
title = "ML systems"

[[topic.sub]]
id = "training"
title = "Distributed training"
keywords = ["data parallel", "sgd"]

[[topic.sub]]
{sub}
"""


def test_subtopics_load_under_their_topic(tmp_path: Path) -> None:
    path = tmp_path / "topics.toml"
    path.write_text(TAXONOMY.format(sub='id = "compilers"\ntitle = "Compilers"\ncategories = ["cs.PL"]'))
    [topic] = load_taxonomy(path)
    assert [(s.id, s.title, s.parent) for s in topic.subtopics] == [
        ("ml/training", "Distributed training", "ml"),
        ("ml/compilers", "Compilers", "ml"),
    ]


@pytest.mark.parametrize(
    ("sub", "line", "code"),
    [
        ('id = "Bad Id"\ntitle = "B"\nkeywords = ["x"]', 11, Code.BAD_TOPIC_ID),
        ('id = "training"\ntitle = "B"\nkeywords = ["x"]', 11, Code.BAD_TOPIC_ID),
        ('id = "empty"\ntitle = "E"', 11, Code.BAD_TOPICS),
        ('id = "typo"\ntitle = "T"\nkeyword = ["x"]', 11, Code.UNKNOWN_FIELD),
        ('title = "No id"\nkeywords = ["x"]', 10, Code.BAD_TOPICS),
        ('id = "deep"\ntitle = "D"\nkeywords = ["x"]\nsub = []', 11, Code.UNKNOWN_FIELD),
    ],
)
def test_a_bad_subtopic_is_one_line_with_its_line(tmp_path: Path, sub: str, line: int, code: Code) -> None:
    path = tmp_path / "topics.toml"
    path.write_text(TAXONOMY.format(sub=sub), encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        load_taxonomy(path)
    assert (info.value.file, info.value.line, info.value.code) == (str(path), line, code)
    assert "\n" not in str(info.value)


def test_subtopics_must_be_tables(tmp_path: Path) -> None:
    path = tmp_path / "topics.toml"
    path.write_text('[[topic]]\nid = "ml"\ntitle = "ML"\nsub = "training"\n', encoding="utf-8")
    with pytest.raises(ReadingListError, match=r"\[\[topic.sub\]\] tables") as info:  # the syntax to use
        load_taxonomy(path)
    assert (info.value.line, info.value.code) == (2, Code.BAD_TOPICS)


def test_a_paper_joins_the_subtopic_its_text_names_or_none(tmp_path: Path) -> None:
    path = tmp_path / "topics.toml"
    path.write_text(TAXONOMY.format(sub='id = "compilers"\ntitle = "C"\nkeywords = ["compiler", "fusion"]'))
    topics = load_taxonomy(path)
    assert assign_subtopics(("ml",), (), "A compiler with kernel fusion.", topics) == ("ml/compilers",)
    assert assign_subtopics(("ml",), (), "Local SGD, data parallel.", topics) == ("ml/training",)
    assert assign_subtopics(("ml",), (), "A study of crowds.", topics) == ()  # no forced subtopic
    assert assign_subtopics((), (), "A compiler.", topics) == ()  # only the topic's own papers


def test_the_seeds_ml_systems_topic_splits_into_training_compilers_and_clusters(seeds: Library) -> None:
    by_key = seeds.by_key()
    assert "ml-systems/distributed-training" in by_key["lin2020dapple"].subtopics
    assert "ml-systems/distributed-training" in by_key["zhoudasgd"].subtopics
    assert all(by_key[k].subtopics == ("ml-systems/compilers",) for k in FUSION)
    assert "ml-systems/clusters" in by_key["lin2019dl2"].subtopics
    for paper in seeds.papers:  # a subtopic belongs to one of the paper's topics
        assert all(s.split("/")[0] in paper.topics for s in paper.subtopics), paper.key


# --- topic pages -----------------------------------------------------------------------------------


def test_subtopics_have_pages_in_the_navigation_and_cards_on_their_topic(seeds: Library) -> None:
    pages = topic_pages(seeds)
    topic = pages["topics/ml-systems.md"]
    assert "```{toctree}\n:hidden:\n\nml-systems/distributed-training\nml-systems/compilers\n" in topic
    assert ":link: rl:topics/ml-systems/distributed-training" in topic
    training = pages["topics/ml-systems/distributed-training.md"]
    assert training.startswith("# Distributed training\n")
    assert "Part of [Machine\\-learning systems and compilers](rl:topics/ml-systems)." in training
    assert "papers/lin2020dapple" in [c["doc"] for c in _cards(training)] and "fusionstitching" not in training
    assert ":titlesonly:" in pages["topics/index.md"]  # subtopics listed under their topic, not its sections


def test_versions_of_one_system_share_one_card_that_links_them_all(seeds: Library) -> None:
    page = topic_pages(seeds)["topics/ml-systems/compilers.md"]
    cards = [c for c in _cards(page) if "FusionStitching" in c["title"]]
    assert len(cards) == 1
    [card] = cards
    assert card["title"].startswith("FusionStitching: Boosting") and card["doc"] == "papers/lin2019fusionstitching"
    assert card["versions"] == [
        {"doc": "papers/lin2018fusionstitching", "label": "2018"},
        {"doc": "papers/zhengfusionstitching", "label": "undated"},
    ]  # the extension writes no stretched link over them (tests/test_cardlist.py)


def test_every_paper_of_a_topic_is_on_its_page_or_a_subtopic_page(seeds: Library) -> None:
    pages = topic_pages(seeds)
    for topic in seeds.topics:
        shown = "".join(pages[f"topics/{t.id}.md"] for t in (topic, *topic.subtopics))
        for paper in seeds.papers:
            if topic.id in paper.topics:
                linked = f"(rl:papers/{paper.slug})" in shown or f"rl:papers/{paper.slug}\n" in shown
                carded = {d for c in _cards(shown) for d in (c["doc"], *(v["doc"] for v in c["versions"]))}
                assert linked or f"papers/{paper.slug}" in carded, paper.key


def test_by_year_lists_a_system_once_under_its_newest_version_and_reaches_every_paper(seeds: Library) -> None:
    items = _items(years_page(seeds))
    fusion = [i for i in items if str(i["doc"]).removeprefix("papers/") in FUSION]
    assert [i["doc"] for i in fusion] == ["papers/lin2019fusionstitching"]
    assert fusion[0]["versions"] == [
        {"doc": "papers/lin2018fusionstitching", "label": "2018"},
        {"doc": "papers/zhengfusionstitching", "label": "undated"},
    ]
    reached = [i["doc"] for i in items] + [v["doc"] for i in items for v in i.get("versions", [])]
    assert sorted(reached) == sorted(f"papers/{p.slug}" for p in seeds.papers)  # each once, none lost


# --- start here ------------------------------------------------------------------------------------


def test_start_here_gives_each_paper_its_reason(seeds: Library) -> None:
    pages = topic_pages(seeds)
    start = _items(pages["topics/ml-systems.md"].split("## Subtopics")[0])
    assert [(i["doc"], i["reason"]) for i in start] == [
        ("papers/xingdnnvm", "related to 5 other papers in this topic (none here has more)"),
        ("papers/lin2018fusionstitching", "the earliest of 3 versions of FusionStitching"),
    ]
    assert "## Start here" not in pages["topics/physics.md"]  # nothing to recommend: no padding


def test_the_owners_rating_and_priority_come_first(seeds: Library) -> None:
    notes: dict[str, dict[str, object]] = {
        "lin2019dl2": {"rating": 5},
        "zhoudasgd": {"priority": "high"},
        "lin2020dapple": {"rating": 2},
    }
    start = _items(topic_pages(seeds, notes)["topics/ml-systems.md"].split("## Subtopics")[0])
    assert [(i["doc"], i["reason"]) for i in start] == [
        ("papers/lin2019dl2", "rated 5/5 in the notes"),
        ("papers/zhoudasgd", "priority high in the notes"),
        ("papers/xingdnnvm", "related to 5 other papers in this topic (none here has more)"),
    ]


def test_priorities_rank_numbers_and_words() -> None:
    assert [priority_rank(v) for v in (1, "1", "High", "low", "someday", True, None)] == [1, 1, 1, 3, None, None, None]


def _paper(i: int, year: int | None, versions: tuple[str, ...] = (), related: tuple[str, ...] = ()) -> Paper:
    work = Work(key=f"p{i}", title=f"P{i}", year=year)
    links = tuple(Link(k, "similar content") for k in related)
    return Paper(work, f"p{i}", (), False, "", ("t",), "", (), "Sys", versions, links)


@st.composite
def papers(draw: st.DrawFn) -> list[Paper]:
    """Papers with symmetric version and related links drawn at random."""
    n = draw(st.integers(1, 12))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    versions, related = draw(st.sets(pairs, max_size=8)), draw(st.sets(pairs, max_size=20))
    years = draw(st.lists(st.one_of(st.none(), st.integers(2000, 2003)), min_size=n, max_size=n))

    def ends(edges: set[tuple[int, int]], i: int) -> tuple[str, ...]:
        return tuple(sorted({f"p{b}" for a, b in edges if a == i} | {f"p{a}" for a, b in edges if b == i}))

    return [_paper(i, years[i], ends(versions, i), ends(related, i)) for i in range(n)]


@given(papers(), st.dictionaries(st.sampled_from([f"p{i}" for i in range(12)]), st.integers(1, 5)))
def test_start_here_is_short_reasoned_and_one_per_system(members: list[Paper], ratings: dict[str, int]) -> None:
    groups = version_sets(members)
    assert sorted(p.key for g in groups for p in g) == sorted(p.key for p in members)  # a partition
    group_of = {p.key: i for i, g in enumerate(groups) for p in g}
    for paper in members:
        assert all(group_of[k] == group_of[paper.key] for k in paper.versions)
    chosen = start_here(members, {k: {"rating": r} for k, r in ratings.items()}, "topic")
    assert len(chosen) <= MAX and all(reason for _, reason in chosen)
    assert len({group_of[p.key] for p, _ in chosen}) == len(chosen)


def test_a_dated_tie_is_no_first_version() -> None:
    a, b = _paper(0, 2019, ("p1",)), _paper(1, 2019, ("p0",))
    assert start_here([a, b], {}, "topic") == []
    assert start_here([replace(a, work=replace(a.work, year=2018)), b], {}, "topic")[0][0].key == "p0"


# --- search facets ---------------------------------------------------------------------------------


def test_the_topic_filter_offers_subtopics_beside_their_topic() -> None:
    record = {"topics": ["ml", "vision"], "subtopics": ["ml/training"], "year": 2020}
    titles = {"ml": "ML systems", "ml/training": "Distributed training", "vision": "Vision"}
    assert facet_values(record, {}, titles)["topic"] == ["ML systems", "ML systems › Distributed training", "Vision"]
    shown = re.search(r'data-pagefind-meta="topic\[value\]" value="([^"]*)"', markup(record, {}, titles))
    assert shown and shown.group(1) == "ML systems › Distributed training, Vision"


# --- the built site --------------------------------------------------------------------------------


def test_the_built_site_links_versions_by_year_and_subtopics_in_the_sidebar(tmp_path: Path) -> None:
    from readinglist.cli import main

    project = copy_seeds(tmp_path / "seeds")
    out = project / "docs" / "_build" / "html"
    assert main(["--root", str(project), "build", "--no-search", "--out", str(out)]) == 0  # -W: no warnings
    [newest] = [a for a in soup(out / "years.html").find_all("a") if words(a).startswith("FusionStitching: Boosting")]
    assert str(newest.next_sibling).startswith(" — other versions: "), "the newest FusionStitching lists its others"
    versions = newest.find_next_siblings("a")
    assert [words(a) for a in versions] == ["2018", "undated"]
    assert all((out / attr(a, "href")).is_file() for a in versions)
    page = soup(out / "topics" / "ml-systems" / "compilers.html")
    sidebar = find(page, "div", class_="sidebar-tree")
    assert [words(a) for a in sidebar.find_all("a", href="distributed-training.html")] == ["Distributed training"]
    assert page.select('[role="heading"][aria-level="3"] > strong > a.reference.internal[href^="../../papers/"]')
