"""``readinglist topics --suggest`` (issue 25, part 3): topics a new list can use.

A made-up library of three obvious clusters gets three topics (and General) whose keywords
place their works by themselves; the draft loads with the project's own loader; a draft the
user may have edited is never overwritten; the same library gives the same draft. Also: a
topic keyword in the title places a paper beside its category's topic, and a landing page
whose one topic holds most of the list points to the command.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.cli import main
from readinglist.config import load_config
from readinglist.enrich import topicnames
from readinglist.enrich.suggest import focus_text, pick_keywords, suggest
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.enrich.topics import assign_topics
from readinglist.model import Library, Paper, Topic, Work
from readinglist.render.pages import index_page
from readinglist.site import topicdraft

CLUSTERS = {
    "robots": [
        "Robot grasping with tactile sensors",
        "Robot navigation in crowded rooms",
        "Legged robot locomotion over rough terrain",
        "Robot grasping of deformable objects",
        "Robot navigation from language instructions",
    ],
    "compilers": [
        "Compiler optimization of loop nests",
        "A verified compiler for C programs",
        "Register allocation in a just-in-time compiler",
        "Compiler passes for vector instructions",
        "Type inference in an optimizing compiler",
    ],
    "galaxies": [
        "Galaxy rotation curves and dark matter",
        "Galaxy cluster lensing surveys",
        "Spectra of distant galaxy mergers",
        "Galaxy formation in cosmological simulations",
        "Dark matter halos of dwarf galaxy satellites",
    ],
}


def _works() -> list[Work]:
    return [
        Work(key=f"{name}{i}", title=title, year=2020)
        for name, titles in CLUSTERS.items()
        for i, title in enumerate(titles)
    ]


def _placed(work: Work, topics: tuple[Topic, ...]) -> tuple[str, ...]:
    return assign_topics((), f"{work.title}.", focus_text(work), topics)


def test_three_obvious_clusters_get_three_topics_whose_keywords_place_their_works() -> None:
    topics = suggest(_works()).topics
    assert topics[0].id == "general" and not topics[0].keywords
    assert len(topics) == 4
    for name in CLUSTERS:
        members = [w for w in _works() if w.key.startswith(name)]
        placed = {_placed(w, topics) for w in members}
        assert len(placed) == 1, (name, placed)  # one topic for the whole cluster, by keywords alone
        (only,) = placed
        assert len(only) == 1 and only[0] != "general"
    assert len({_placed(w, topics) for w in _works()}) == 3


def test_the_same_library_in_any_order_gives_the_same_topics() -> None:
    shuffled = _works()
    random.Random(7).shuffle(shuffled)
    assert suggest(shuffled) == suggest(_works())


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "list"
    assert main(["init", str(root)]) == 0
    entries = [f"@article{{{w.key},\n  title = {{{w.title}}},\n  year = {{2020}},\n}}\n" for w in _works()]
    (root / "refs.bib").write_text("\n".join(entries), encoding="utf-8")
    return root


def test_the_draft_loads_with_the_projects_own_loader(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert main(["--root", str(root), "topics", "--suggest"]) == 0
    draft = root / topicdraft.DRAFT
    loaded = load_taxonomy(draft)
    assert loaded == suggest(_works()).topics
    assert (root / "conf" / "topics.toml").read_text(encoding="utf-8") != draft.read_text(encoding="utf-8")


def test_an_existing_draft_is_not_overwritten_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    draft = root / topicdraft.DRAFT
    draft.write_text("# my edits\n", encoding="utf-8")
    assert main(["--root", str(root), "topics", "--suggest"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err and "[readinglist.not-owned]" in err
    assert draft.read_text(encoding="utf-8") == "# my edits\n"
    assert main(["--root", str(root), "topics", "--suggest", "--print"]) == 0
    assert draft.read_text(encoding="utf-8") == "# my edits\n"  # --print writes nothing
    printed = capsys.readouterr().out
    assert main(["--root", str(root), "topics", "--suggest", "--force"]) == 0
    assert draft.read_text(encoding="utf-8") == printed  # the printed draft is the written one


def test_the_draft_is_the_same_twice(tmp_path: Path) -> None:
    root = _project(tmp_path)
    first = topicdraft.run(load_config(root), to_stdout=True).text
    assert topicdraft.run(load_config(root), to_stdout=True).text == first


def test_no_store_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    (root / "refs.bib").write_text("", encoding="utf-8")
    assert main(["--root", str(root), "topics", "--suggest"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert not (root / topicdraft.DRAFT).exists()


TOPICS = (
    Topic("physics", "Physics", "", categories=("physics.*",)),
    Topic("robotics", "Robotics", "", keywords=("mobile robot", "crowd", "cluster")),
)


@pytest.mark.parametrize(
    "title", ["To follow or not to follow: a mobile robot's path", "Robots in a crowd: clusters of walkers"]
)
def test_a_keyword_phrase_or_two_keywords_in_the_title_place_a_paper_beside_its_category(title: str) -> None:
    assert assign_topics(("physics.acc-ph",), title, title, TOPICS) == ("physics", "robotics")


def test_one_plain_keyword_in_the_title_or_one_only_in_the_abstract_does_not() -> None:
    title = "Impact of inter-cluster coupling on nonlinear oscillators"
    assert assign_topics(("physics.acc-ph",), title, title, TOPICS) == ("physics",)
    text = f"{title}. We steer a mobile robot."
    assert assign_topics(("physics.acc-ph",), text, title, TOPICS) == ("physics",)


def _library(topic_of: list[str]) -> Library:
    topics = (Topic("general", "General", ""), Topic("robots", "Robots", ""), Topic("vision", "Vision", ""))
    papers = tuple(
        Paper(Work(key=f"k{i}", title=f"Paper {i}"), f"k{i}", (), False, "", (t,), "", ())
        for i, t in enumerate(topic_of)
    )
    return Library(papers, topics, (), {})


SITE = {"title": "A list", "description": ""}


def test_a_landing_page_whose_one_topic_holds_most_works_points_to_suggest() -> None:
    assert "readinglist topics --suggest" in index_page(_library(["general"] * 5 + ["robots"] * 2), SITE, [])
    assert "readinglist topics --suggest" in index_page(_library(["robots"] * 3 + ["vision"] * 2), SITE, [])
    fits = index_page(_library(["general"] * 2 + ["robots"] * 2 + ["vision"]), SITE, [])  # 40%: not more
    assert "readinglist topics --suggest" not in fits


def test_the_first_import_into_inits_topics_points_to_suggest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    source = root / "refs.bib"
    mine = tmp_path / "mine.bib"
    source.rename(mine)
    assert main(["--root", str(root), "import", str(mine)]) == 0
    assert "readinglist topics --suggest" in capsys.readouterr().out
    (root / "conf" / "topics.toml").write_text('[[topic]]\nid = "mine"\ntitle = "Mine"\n', encoding="utf-8")
    extra = tmp_path / "extra.bib"
    extra.write_text(
        "@article{new1,\n  title = {A new paper on galaxy spectra},\n  year = {2021},\n}\n", encoding="utf-8"
    )
    assert main(["--root", str(root), "import", str(extra)]) == 0
    assert "topics --suggest" not in capsys.readouterr().out  # the user's own topics: no advice


def test_a_library_with_nothing_shared_gets_general_alone() -> None:
    works = [Work(key="a", title="Lattice gauge theory"), Work(key="b", title="Sourdough fermentation")]
    assert suggest(works).topics == (suggest([]).topics[0],)


EVERYDAY = {
    "crowd": [
        "Crowd counting with local density maps",
        "Local crowd counting from synthetic data",
        "Crowd counting for drone views of a city",
        "A data system for crowd counting",
        "Crowd counting under heavy occlusion",
    ],
    "compilers": [
        "Loop fusion in a tensor compiler",
        "A local register allocator for a tensor compiler",
        "Tensor compiler passes for vector units",
        "Data layout search in a tensor compiler",
        "Autotuning schedules of a tensor compiler",
    ],
    "galaxies": [
        "Galaxy rotation curves in the local universe",
        "Galaxy cluster lensing and dark matter",
        "A data system for galaxy survey spectra",
        "Galaxy mergers and dark matter halos",
        "Dark matter in dwarf galaxy satellites",
    ],
}


def test_everyday_words_are_no_keywords_and_a_shared_phrase_names_the_topic() -> None:
    works = [Work(key=f"{n}{i}", title=t, year=2020) for n, titles in EVERYDAY.items() for i, t in enumerate(titles)]
    topics = suggest(works).topics[1:]
    keywords = {k for t in topics for k in t.keywords}
    assert keywords and not {"local", "data", "system", "universe"} & keywords  # zipf 4.8 and more
    assert all(not topicnames.general(k) for k in keywords)
    titles = {t.title for t in topics}
    assert any(t.startswith("Crowd counting") for t in titles), titles
    assert any(t.startswith("Tensor compiler") for t in titles), titles
    assert all("local" not in t.lower() and "data" not in t.lower() for t in titles), titles


def test_a_name_is_spelled_as_the_titles_spell_it() -> None:
    titles = ["Scene Text Detection in the Wild", "Detection of small text", "How to detect text", "Text spotting"]
    assert topicnames.spelled("detect", titles) == "detection"
    assert topicnames.spelled("text detection", titles) == "text detection"
    assert topicnames.spelled("fusionstitching", ["FusionStitching: deep fusion", "FusionStitching for DL"]) == (
        "FusionStitching"
    )
    assert topicnames.spelled("cnn", ["Pruning CNNs", "Fast CNNs", "Pruning a CNN"]) == "CNNs"
    # a name that a sentence-case title capitalizes keeps its capitals; a Title Case title tells nothing
    sentence_case = ["Monte Carlo Methods", "Sequential Monte Carlo samplers for rare events", "Fast Monte Carlo sums"]
    assert topicnames.spelled("monte carlo", sentence_case) == "Monte Carlo"
    assert topicnames.spelled("monte carlo", sentence_case[:2]) == "monte carlo"  # one sentence-case title: not enough


def test_a_phrase_names_before_its_words_and_no_word_twice() -> None:
    support = {"crowd": (4, 1.0), "counting": (4, 1.0), "crowd counting": (4, 1.0), "drone": (2, 1.0)}
    assert topicnames.name_terms(support, 5) == ["crowd counting", "drone"]
    lone = {"crowd": (1, 1.0), "drone": (1, 1.0)}  # nothing two works share: no name from one work's words
    assert topicnames.name_terms(lone, 5) == []
    # a later topic does not take an earlier one's name, nor a part of it
    assert topicnames.covered("snapshot", {"snapshot isolation"})
    assert topicnames.covered("snapshot isolation", {"snapshot isolation", "crowd-counting"})
    assert not topicnames.covered("isolation levels", {"snapshot isolation", "crowd-counting"})


def test_a_word_the_librarys_abstracts_use_everywhere_places_no_work() -> None:
    focus = ["a spectroscopic gripper", "robot arms", "robot legs", "galaxy spectra", "galaxy halos", "compilers"]
    abstracts = ["", "", "", "a spectroscopic survey", "spectroscopic catalogues", "a spectroscopic pass"]
    matched = [f"{f}. {a}" for f, a in zip(focus, abstracts, strict=True)]
    found = {"spectroscopic": {0}, "robot": {1, 2}, "gripper": {0}}
    assert pick_keywords({0, 1, 2}, dict(found)) == ("robot", "spectroscopic")  # titles alone: it places
    assert pick_keywords({0, 1, 2}, dict(found), matched) == ("robot", "gripper")  # 1 of its 4 works is the cluster's


def test_an_everyday_word_places_no_work_alone() -> None:
    found = {"comprehensive": {0}, "robot": {1, 2}, "gripper": {0}}  # zipf 4.36: many titles say "comprehensive"
    assert pick_keywords({0, 1, 2}, found) == ("robot", "gripper")


SAFE_NAME = re.compile(r"[\w\- ,]+")
HOSTILE = [*"ab robot galaxy compiler <>{}$`*_[]()\\:/\"'&;", "\u202e", "é"]
hostile_titles = st.lists(st.text(alphabet=st.sampled_from(HOSTILE), max_size=40), min_size=6, max_size=12)


@settings(max_examples=25, deadline=None)
@given(hostile_titles)
def test_a_suggested_name_is_words_alone_whatever_the_titles_hold(titles: list[str]) -> None:
    """Record text is data: a name is made of the titles' words, never of their markup."""
    works = [Work(key=f"w{i}", title=f"{t} robot galaxy" if i % 2 else f"{t} compiler") for i, t in enumerate(titles)]
    topics = suggest(works).topics[1:]
    assert topics  # "robot", "galaxy" and "compiler" are shared: never vacuous
    for topic in topics:
        assert SAFE_NAME.fullmatch(topic.title), topic.title
        assert all(SAFE_NAME.fullmatch(k) for k in topic.keywords), topic.keywords
