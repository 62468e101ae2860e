"""One person, one author, through the whole pipeline (issue 26, parts 2 and 3): the author
pages, the related links, the import report and the folds of pasted entries follow
enrich/people.py and store/identity.py."""

from __future__ import annotations

from pathlib import Path

from conftest import SEEDS
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.model import Library, Work
from readinglist.render.authors import author_pages
from readinglist.site.pasted import fold_duplicates
from readinglist.store import importer
from readinglist.store.identity import Rules

TOPICS = load_taxonomy(SEEDS / "conf" / "topics.toml")
TEXT = "We schedule graph computations for machine learning on clusters and measure their throughput."


def _work(key: str, *authors: str, venue: str = "", title: str = "", year: int = 2019) -> Work:
    extra = (("booktitle", venue),) if venue else ()
    return Work(key, title or f"Scheduling study {key}", authors, year=year, abstract=TEXT, extra=extra)


WORKS = [
    _work("jeg1", "Joseph E. Gonzalez", "Ion Stoica", venue="OSDI"),
    _work("jeg2", "Joseph Gonzalez", "Ion Stoica"),
    _work("javier1", "J. González", "Neil D. Lawrence", venue="AISTATS"),
    _work("lecun1", "Yann LeCun", "Léon Bottou"),
    _work("lecun2", "Y. LeCun", "Leon Bottou"),
    _work("lecun3", "Yann Le Cun", "Yoshua Bengio"),
]


def _library(works: list[Work], rules: Rules | None = None) -> Library:
    return enrich(works, TOPICS, rules=rules)


def test_one_author_page_section_per_person_and_the_namesake_said() -> None:
    library = _library(WORKS)
    ids = library.author_ids
    assert ids["Y. LeCun"] == ids["Yann LeCun"] == ids["Yann Le Cun"]
    assert ids["Joseph Gonzalez"] == ids["Joseph E. Gonzalez"] != ids["J. González"]
    by_id = {a.id: a for a in library.authors}
    assert set(by_id[ids["Yann LeCun"]].papers) == {"lecun1", "lecun2", "lecun3"}
    page = author_pages(library)["authors/g.md"]
    assert "**Names kept apart from this one**" in page and "Joseph E" in page
    assert page.count("## ") == 2  # J. González, and Joseph E. Gonzalez once


def test_javier_and_joseph_share_no_author_link() -> None:
    library = _library(WORKS)
    links = [(p.key, link.key, link.reason) for p in library.papers for link in p.related]
    between = [why for a, b, why in links if {a, b} in ({"javier1", "jeg1"}, {"javier1", "jeg2"})]
    assert not any("shared author" in why for why in between)
    assert any(
        "shared authors: Ion Stoica, Joseph E. Gonzalez" in why for a, b, why in links if {a, b} == {"jeg1", "jeg2"}
    )


def test_conf_identity_rules_reach_the_pages() -> None:
    rules = Rules(same_authors=(frozenset({"J. González", "Joseph Gonzalez"}),))
    ids = _library(WORKS, rules).author_ids
    assert ids["J. González"] == ids["Joseph Gonzalez"]


def test_one_title_by_other_people_is_not_a_version() -> None:
    same = "Dynamic Programming"
    works = [_work("a", "R. Bellman", title=same, year=1957), _work("b", "Ann Other", title=same, year=1966),
             _work("c", "Richard Bellman", title=same, year=1960)]  # fmt: skip
    by_key = _library(works).by_key()
    assert by_key["a"].versions == ("c",) and by_key["b"].versions == ()


def test_the_import_report_names_a_suspect_doi(tmp_path: Path) -> None:
    source = tmp_path / "library.bib"
    source.write_text(
        "@article{a, title = {Dynamic programming}, author = {Bellman, R.}, year = {1966}, doi = {10.1000/x}}\n"
        "@article{b, title = {Support vector networks}, author = {Cortes, C.}, year = {1995}, doi = {10.1000/x}}\n",
        encoding="utf-8",
    )
    report = importer.run([source], tmp_path / "refs.bib", tmp_path)
    assert report.added == 2
    assert any("suspect DOI 10.1000/x" in note and "library.bib:2" in note for note in report.notes)


def test_pasted_entries_with_one_doi_and_other_titles_are_two_pages() -> None:
    works = [Work("a", "Dynamic programming", doi="10.1000/x"), Work("b", "Support vector networks", doi="10.1000/X")]
    kept, folds = fold_duplicates(works, {})
    assert ([w.key for w in kept], folds) == (["a", "b"], [])
