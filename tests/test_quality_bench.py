"""The quality benchmark's measuring (benchmarks/quality.py, issue 25 part 6), on a made-up project
whose answers are known: no import, no generate, no Sphinx."""

from __future__ import annotations

import importlib
import json
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import FIXTURES, TOOLS

BIB = """
@inproceedings{DBLP:conf/cvpr/HeZRS16,
  title = {Deep Residual Learning for Image Recognition},
  booktitle = {2016 {IEEE} Conference on Computer Vision and Pattern Recognition},
  year = {2016}
}
@inproceedings{DBLP:conf/cvpr/Liu22,
  title = {A ConvNet for the 2020s},
  booktitle = {CVPR},
  year = {2022}
}
@inproceedings{abstained2020,
  title = {To Follow or not to Follow},
  booktitle = {Conference on Robot Learning},
  doi = {10.1145/0000000.0000000},
  year = {2020}
}
@article{nofield2021,
  title = {Notes},
  journal = {Some Local Newsletter},
  abstract = {Gradient descent is widely used. We propose a lattice method for it. Examineds thirty weblogs.},
  year = {2021}
}
"""


def link(reason: str) -> dict[str, str]:
    """One link of a page's related data, as generate writes it (docs/related/<slug>.json)."""
    return {"doc": "papers/other", "title": "Another paper", "reason": reason}


RELATED = {
    "he": [
        link("similar content (shared terms: functional)"),  # one word
        link("similar content (shared terms: pipeline, pipeline parallelism)"),  # two
        link("similar content (shared terms: lattice qcd)"),  # two words, one term
        link("similar content (shared terms: lattice, lattices)"),  # one word
    ],
    "liu": [
        link("shared authors: Ann Lee; similar content (shared terms: lattice)"),  # an author link
        link("shared authors: Bo Li"),
        link("shared authors: Cy Ma"),
        link("shared authors: Di Wu"),
    ],
}


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(TOOLS["benchmarks"]))  # its modules import one another by name
    return importlib.import_module("quality")


def record(key: str, slug: str, categories: list[str], **fields: Any) -> dict[str, Any]:
    return {"key": key, "url": f"papers/{slug}.html", "categories": categories, "categories_inferred": True,
            "topics": ["general"], "sources": [{"file": "conf/sources/x.bib", "line": len(key)}]} | fields  # fmt: skip


def project(root: Path) -> Path:
    """refs.bib, docs/records.json and docs/related/*.json, as generate writes them."""
    (root / "docs" / "related").mkdir(parents=True)
    (root / "refs.bib").write_text(BIB, encoding="utf-8")
    records = [
        record("DBLP:conf/cvpr/HeZRS16", "he", ["cs.CV"], topics=["vision"]),
        record("DBLP:conf/cvpr/Liu22", "liu", ["astro-ph.CO"], topics=["vision", "general"]),
        record("abstained2020", "abstained", []),
        record(
            "nofield2021", "nofield", ["hep-ph"],
            approach="A lattice method for it.", problem="Gradient descent is widely used…",
            result="Examineds thirty weblogs.", key_results=["It needs speeds and embeds."],
        ),
        record("background2022", "background", [], approach="Gradient descent is widely used."),
    ]  # fmt: skip
    (root / "docs" / "records.json").write_text(json.dumps(records), encoding="utf-8")
    for slug, links in RELATED.items():
        (root / "docs" / "related" / f"{slug}.json").write_text(json.dumps({"related": links}), encoding="utf-8")
    return root


@pytest.fixture
def figures(bench: ModuleType, tmp_path: Path) -> dict[str, Any]:
    items = bench.collect(project(tmp_path), bench.groundtruth.load_table("builtin"))
    result: dict[str, Any] = bench.qualitymetrics.figures(items, 5, "general")
    return result


def test_a_dblp_keyed_cvpr_paper_shown_in_cosmology_contradicts_its_venue(figures: dict[str, Any]) -> None:
    cats = figures["categories"]
    assert cats["with_truth"] == {"n": 3, "of": 5}  # two CVPR keys and an ACM DOI; a newsletter names no field
    assert cats["contradicts_venue"] == {"n": 1, "of": 3}
    assert [e["key"] for e in cats["examples"]] == ["DBLP:conf/cvpr/Liu22"]
    assert cats["abstained_with_truth"] == {"n": 1, "of": 3}
    assert cats["ml_robotics_pl_outside_cs_stat"] == {"n": 1, "of": 2}  # the CVPR pair (ACM: no finer field)
    assert cats["truth_signals"] == {"DBLP key": 2, "DOI prefix": 1}


def test_a_link_on_one_shared_word_is_counted_and_the_caps_are_measured(figures: dict[str, Any]) -> None:
    related = figures["related"]
    assert related["links"] == 8
    assert related["one_word"] == {"n": 2, "of": 8}  # "lattice" beside a shared author is not a one-word link
    # One phrase and its words: "pipeline, pipeline parallelism", "lattice qcd", and the one-word links.
    assert related["one_phrase"] == {"n": 4, "of": 8}
    assert (related["max_content"], related["max_author"]) == (4, 4)
    assert related["pages_over_author_cap"] == {"n": 1, "of": 5}
    assert related["pages_over_top_k"] == {"n": 0, "of": 5}


def test_topics_share_of_the_largest_and_of_general(figures: dict[str, Any]) -> None:
    topics = figures["topics"]
    assert topics["general_share"] == {"n": 4, "of": 5}
    assert (topics["largest"], topics["largest_share"]) == ("general", {"n": 4, "of": 5})


def test_summary_checks_garbled_cut_and_approach_without_a_cue(figures: dict[str, Any]) -> None:
    summaries = figures["summaries"]
    assert summaries["lines"] == 5
    assert summaries["garbled"]["n"] == 1  # "Examineds", not "needs", "speeds" or "embeds"
    assert summaries["cut"]["n"] == 1
    # "A lattice method…" comes from "We propose a lattice method…"; the other is background.
    assert summaries["approach_without_cue"] == {"n": 1, "of": 2}


def test_the_venue_table_is_read_as_data(bench: ModuleType, tmp_path: Path) -> None:
    toml = tmp_path / "venues.toml"
    toml.write_text(
        '[[field]]\ncategories = ["cs.RO"]\nvenues = [["CoRL", "Conference on Robot Learning", "conf/corl"]]\n',
        encoding="utf-8",
    )
    table = bench.groundtruth.load_table(str(toml))
    found = bench.groundtruth.truth("k", {"booktitle": "Proceedings of the 4th Conference on Robot Learning"}, table)
    assert (found.categories, found.signal) == (("cs.RO",), "venue name")
    assert bench.groundtruth.truth("DBLP:conf/corl/X20", {}, table).signal == "DBLP key"
    assert bench.groundtruth.truth("k", {"booktitle": "Robot Learning"}, table) is None


def test_the_held_out_third_is_fixed_by_each_work_s_source_line(bench: ModuleType) -> None:
    items = [
        bench.Item(record(f"k{i}", "s", []) | {"sources": [{"file": "a.bib", "line": i}]}, {}, []) for i in range(600)
    ]
    held = [item.held_out for item in items]
    assert 150 <= sum(held) <= 250
    assert held == [item.held_out for item in items]


def test_the_report_shows_both_parts_side_by_side(bench: ModuleType, tmp_path: Path) -> None:
    items = bench.collect(project(tmp_path), bench.groundtruth.load_table("builtin"))
    parts = {name: bench.qualitymetrics.figures(items, 5, "general") for name in ("tuning", "held_out", "all")}
    text = bench.qualitymetrics.report({"corpus": "made up"}, parts)
    assert "| figure | tuning | held-out third | all |" in text
    assert "| works | 5 | 5 | 5 |" in text


def test_an_approach_line_is_found_in_its_sentence_by_its_first_words_or_the_next(bench: ModuleType) -> None:
    cued = bench.qualitymetrics.cued
    abstract = "Schedulers are hand-tuned. We show that learned policies can schedule jobs well."
    assert cued("Learned policies can schedule jobs well.", abstract)
    assert cued("Shows that learned policies can schedule jobs well.", abstract)  # the old hand-made verb
    assert not cued("Schedulers are hand-tuned.", abstract)
    assert not cued("Something the abstract never says.", abstract)


def test_the_suggested_topics_draft_is_accepted_as_it_is(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    (root / "conf").mkdir()
    (root / "conf" / "topics.toml").write_text('[[topic]]\nid = "general"\ntitle = "General"\n', encoding="utf-8")
    draft = '[[topic]]\nid = "vision"\ntitle = "Vision"\n'
    commands: list[tuple[str, ...]] = []

    def readinglist(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
        commands.append(args)
        if args == ("topics", "--suggest"):
            (where / "conf" / "topics.suggested.toml").write_text(draft, encoding="utf-8")
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(bench, "readinglist", readinglist)
    assert bench.suggest_topics(root) == "conf/topics.suggested.toml accepted as it is"
    assert (root / "conf" / "topics.toml").read_text(encoding="utf-8") == draft
    assert commands == [("topics", "--suggest"), ("generate",)]


def test_without_a_topics_command_the_suggested_topics_are_not_measured(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failed = subprocess.CompletedProcess(("topics",), 2, "", "readinglist: error: invalid choice: 'topics'\n")
    monkeypatch.setattr(bench, "readinglist", lambda where, *args: failed)
    assert bench.suggest_topics(project(tmp_path)).startswith("not measured: readinglist topics --suggest failed")


def test_a_word_inflected_twice_is_garbled_and_words_that_end_so_are_not(bench: ModuleType) -> None:
    garbled = bench.qualitymetrics.is_garbled
    assert all(map(garbled, ("Examineds 30 weblogs.", "Introduceds two new", "Considereds the case")))
    assert not any(map(garbled, ("It needs speeds.", "hundreds of objects", "embeds and sheds", "It proceeds")))


def test_a_file_declared_robotics_puts_its_works_in_the_ml_robotics_pl_subset(
    bench: ModuleType, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "fields.toml").write_text('[files]\n"x.bib" = "cs.RO"\n"y.bib" = ["hep-th"]\n', encoding="utf-8")
    declared = bench.declared_fields(corpus)
    assert declared == {"x.bib": ("cs.RO",), "y.bib": ("hep-th",)}
    items = bench.collect(project(tmp_path / "project"), bench.groundtruth.load_table("builtin"), declared)
    cats = bench.qualitymetrics.categories(items)
    # Every made-up work comes from x.bib: the newsletter shown hep-ph now counts, and the ACM one.
    assert cats["ml_robotics_pl_outside_cs_stat"] == {"n": 2, "of": 5}
    assert cats["outside_their_venues_field"] == {"n": 0, "of": 2}  # a CVPR paper in cosmology, a newsletter
    assert cats["contradicts_venue"] == {"n": 1, "of": 3}  # a declared file is no venue


def test_the_benchmark_reads_what_generate_writes(bench: ModuleType, tmp_path: Path) -> None:
    """init, import and generate on two real exports: the files and reasons it reads are there."""
    exports = FIXTURES / "exports"
    run = bench.make_project(tmp_path / "project", [exports / "dblp.bib", exports / "zotero-better-bibtex.bib"])
    assert run["files_not_imported"] == []
    items = bench.collect(tmp_path / "project", bench.groundtruth.load_table("builtin"))
    assert items and all(item.fields.get("title") for item in items)  # every record found in refs.bib
    assert all({"title", "reason"} <= set(link) for item in items for link in item.related)
    links = [link["reason"] for item in items for link in item.related]
    assert links and all(bench.qualitymetrics.link_kind(reason) != "other" for reason in links)
    content = [r for r in links if bench.qualitymetrics.link_kind(r) == "content"]
    assert all(bench.qualitymetrics.shared_words(r) for r in content)


def test_the_hand_judged_sample_is_the_same_each_run(bench: ModuleType, tmp_path: Path) -> None:
    items = bench.collect(project(tmp_path), bench.groundtruth.load_table("builtin"))
    sample = importlib.import_module("qualitysample").sample
    text = sample(items, links=3, summaries=1)
    assert text == sample(items, links=3, summaries=1)
    assert text.count("- [ ] good / weak / wrong:") == 3
    assert "Abstract: Gradient descent is widely used." in text or "### background2022" in text
