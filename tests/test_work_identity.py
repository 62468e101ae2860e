"""One work, one record (issue 26, part 3): a DOI or an abstract merges records only when their
titles agree, and versions need one title, an author in common and a plausible kind.

The cases are those of a real Mendeley library: three different works (1991, 2012, 2018)
exported with one DOI and one abstract, and Bellman's 1957 book and 1966 Science article, both
titled "Dynamic Programming"."""

from __future__ import annotations

import importlib.resources
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEEDS
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.errors import ReadingListError
from readinglist.model import SourceRef, Work
from readinglist.store import bibfile, importer
from readinglist.store.identity import Matcher, Rules, load_rules, share_an_author, titles_agree, version_of

DOI = "10.1000/shared.2012"
ABSTRACT = (
    "We study how neural networks learn representations from data, with experiments on image and "
    "speech benchmarks that show the learned features transfer across tasks."
)
MENDELEY = f"""
@article{{Rumelhart1991,
  title = {{Learning internal representations by error propagation}},
  author = {{Rumelhart, David E. and Hinton, Geoffrey E.}},
  year = {{1991}}, doi = {{{DOI}}}, abstract = {{{ABSTRACT}}}
}}
@article{{Krizhevsky2012,
  title = {{ImageNet classification with deep convolutional neural networks}},
  author = {{Krizhevsky, Alex and Sutskever, Ilya and Hinton, Geoffrey E.}},
  year = {{2012}}, doi = {{{DOI}}}, abstract = {{{ABSTRACT}}}
}}
@article{{Howard2018,
  title = {{Universal language model fine-tuning for text classification}},
  author = {{Howard, Jeremy and Ruder, Sebastian}},
  year = {{2018}}, doi = {{{DOI}}}, abstract = {{{ABSTRACT}}}
}}
"""
BELLMAN = """
@book{Bellman1957,
  title = {Dynamic Programming},
  author = {Bellman, Richard},
  publisher = {Princeton University Press}, year = {1957}
}
@article{Bellman1966,
  title = {Dynamic Programming},
  author = {Bellman, R.},
  journal = {Science}, year = {1966}, volume = {153}, pages = {34--37}
}
"""
VERSIONS = """
@misc{Vaswani2017arxiv,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017}, eprint = {1706.03762}, archiveprefix = {arXiv}
}
@inproceedings{Vaswani2018,
  title = {Attention is all you need},
  author = {A. Vaswani and N. Shazeer and N. Parmar},
  booktitle = {NeurIPS}, year = {2018}
}
@article{Other2019,
  title = {Attention is all you need},
  author = {Doe, Jane},
  journal = {Journal of Unrelated Things}, year = {2019}
}
"""


def _imported(tmp_path: Path, text: str, rules: Rules | None = None) -> tuple[dict[str, Work], list[str]]:
    """The works of refs.bib after importing ``text``, and the report's merges and version links."""
    source = tmp_path / "library.bib"
    source.write_text(text, encoding="utf-8")
    bib = tmp_path / "refs.bib"
    report = importer.run([source], bib, tmp_path, rules)
    linked = [n for n in report.notes if "as a version of" in n]
    return {w.key: w for w in bibfile.load(bib).works()}, [*report.merges, *linked]


def test_three_works_sharing_a_doi_and_an_abstract_stay_three(tmp_path: Path) -> None:
    works, _ = _imported(tmp_path, MENDELEY)
    assert sorted(w.year or 0 for w in works.values()) == [1991, 2012, 2018]
    assert all(len(w.sources) == 1 for w in works.values())


def test_a_shared_doi_under_other_titles_is_reported_as_suspect() -> None:
    works = [_work("a", "Dynamic programming", doi=DOI), _work("b", "Support vector networks", doi=DOI, line=2)]
    matcher = Matcher()
    matcher.add(works[0])
    assert matcher.find(works[1]) is None
    matcher.find(works[1])  # asked again (as the import does for a moved record): said once
    assert len(matcher.suspects) == 1
    assert f"suspect DOI {DOI}" in matcher.suspects[0] and "library.bib:2" in matcher.suspects[0]


def test_a_doi_under_another_title_is_no_suspect_when_an_arxiv_id_joins_the_two() -> None:
    """A preprint renamed on arXiv: its DOI's title disagrees, its arXiv id says it is the same paper."""
    stored = replace(_work("a", "Attention is all you need", doi=DOI), eprint="1706.03762")
    renamed = replace(_work("b", "Transformers for translation", doi=DOI, line=2), eprint="1706.03762v5")
    matcher = Matcher()
    matcher.add(stored)
    found = matcher.find(renamed)
    assert found is not None and (found.work.key, found.reason) == ("a", "same arXiv id")
    assert matcher.suspects == []


def test_a_shared_doi_with_agreeing_titles_merges(tmp_path: Path) -> None:
    text = MENDELEY.replace("Universal language model fine-tuning for text classification", "ImageNet "
                            "Classification with Deep Convolutional Neural Networks.")  # fmt: skip
    works, merges = _imported(tmp_path, text)
    assert len(works) == 2
    merged = next(w for w in works.values() if len(w.sources) == 2)
    assert merged.year == 2012 and [s.line for s in merged.sources] == [7, 12]
    assert len(merges) == 1


def test_forced_records_merge_whatever_their_titles(tmp_path: Path) -> None:
    conf = tmp_path / "identity.toml"
    conf.write_text('[[same]]\nkeys = ["Rumelhart1991", "Howard2018"]\n', encoding="utf-8")
    works, _ = _imported(tmp_path, MENDELEY, load_rules(conf))
    assert len(works) == 2


def test_bellmans_book_and_article_are_two_works_and_not_versions(tmp_path: Path) -> None:
    works, notes = _imported(tmp_path, BELLMAN)
    assert sorted(w.entry_type for w in works.values()) == ["article", "book"]
    assert notes == []
    assert not any(name == "related" for w in works.values() for name, _ in w.extra)
    library = enrich(list(works.values()), load_taxonomy(SEEDS / "conf" / "topics.toml"))
    assert all(p.versions == () for p in library.papers)


def test_a_preprint_and_its_paper_are_versions_and_a_namesake_title_is_not(tmp_path: Path) -> None:
    works, notes = _imported(tmp_path, VERSIONS)
    assert len(works) == 3
    linked = [n for n in notes if "as a version of" in n]
    assert len(linked) == 1 and "2017 and 2018" in linked[0]
    other = next(w for w in works.values() if w.year == 2019)
    assert not any(name == "related" for name, _ in other.extra)


def test_version_of_needs_an_author_in_common_and_a_kind_in_common() -> None:
    paper = _work("p", "Dynamic Programming", year=1966, authors=("R. Bellman",), kind="article")
    assert version_of(paper, _work("q", "Dynamic programming", year=1960, authors=("Richard Bellman",)))
    assert not version_of(
        paper, _work("b", "Dynamic Programming", year=1957, authors=("Richard Bellman",), kind="book")
    )
    assert not version_of(paper, _work("o", "Dynamic Programming", year=1970, authors=("Ann Other",)))
    assert not version_of(paper, _work("s", "Dynamic Programming", year=1966, authors=("R. Bellman",)))


def test_authors_in_common_are_names_that_can_be_one_person() -> None:
    assert share_an_author(_work("a", "T", authors=("Y. LeCun",)), _work("b", "T", authors=("Yann Le Cun",)))
    assert not share_an_author(
        _work("a", "T", authors=("Javier González",)), _work("b", "T", authors=("Joseph E. Gonzalez",))
    )
    assert share_an_author(_work("a", "T"), _work("b", "T", authors=("Anyone",)))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["deep", "learning", "graph", "of", "the", "networks", "fast"]), min_size=1, max_size=8)
)
def test_titles_agree_with_themselves_and_with_a_subtitle_more(words: list[str]) -> None:
    title = " ".join(words)
    assert titles_agree(_work("a", title), _work("b", title.upper() + "."))
    assert titles_agree(_work("a", title), _work("b", f"{title}: a survey of many things")) == (
        len(words) >= 3 or _similar(title, f"{title}: a survey of many things")
    )


def _similar(a: str, b: str) -> bool:
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a.split(), b.replace(":", "").split(), autojunk=False).ratio() >= 0.8


def _work(
    key: str, title: str, *, doi: str = "", year: int | None = 2012, authors: tuple[str, ...] = (),
    kind: str = "article", line: int = 1,
) -> Work:  # fmt: skip
    return Work(key, title, authors, year=year, doi=doi, entry_type=kind, sources=(SourceRef("library.bib", line),))


def test_identity_toml_names_people_apart_from_works(tmp_path: Path) -> None:
    conf = tmp_path / "identity.toml"
    conf.write_text(
        '[[same]]\nauthors = ["Y. LeCun", "Yann LeCun"]\n[[same]]\nkeys = ["a", "b"]\n'
        '[[different]]\nauthors = ["J. González", "Joseph E. Gonzalez"]\n',
        encoding="utf-8",
    )
    rules = load_rules(conf)
    assert rules.same == (frozenset({"a", "b"}),) and rules.different == ()
    assert rules.same_authors == (frozenset({"Y. LeCun", "Yann LeCun"}),)
    assert rules.different_authors == (frozenset({"J. González", "Joseph E. Gonzalez"}),)


@pytest.mark.parametrize(
    "text",
    ['[[same]]\nauthors = ["Y. LeCun"]\n', '[[same]]\nauthors = ["A", "B"]\nkeys = ["a", "b"]\n',
     '[[different]]\nauthors = ["A", 3]\n'],
)  # fmt: skip
def test_a_bad_authors_table_is_one_clear_error(tmp_path: Path, text: str) -> None:
    conf = tmp_path / "identity.toml"
    conf.write_text(text, encoding="utf-8")
    with pytest.raises(ReadingListError, match=r"\[\[(same|different)\]\] #1"):
        load_rules(conf)


def test_the_scaffold_s_examples_are_rules_load_rules_reads(tmp_path: Path) -> None:
    template = Path(str(importlib.resources.files("readinglist"))) / "scaffold" / "conf" / "identity.toml.tmpl"
    lines = [line.removeprefix("# ").split("  #")[0] for line in template.read_text(encoding="utf-8").splitlines()]
    conf = tmp_path / "identity.toml"
    conf.write_text("\n".join(line for line in lines if line.startswith(("[[", "records =", "authors ="))), "utf-8")
    rules = load_rules(conf)
    counts = [len(rules.same), len(rules.different), len(rules.same_authors), len(rules.different_authors)]
    assert counts == [1, 1, 1, 1]
