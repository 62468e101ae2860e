"""Entries pasted into refs.bib (issue 10): one work is one page, and versions are linked.

A DBLP entry pasted for a paper the list has is folded into it (the import's identity keys and
merge rule) and reported once as ``refs.bib:LINE``; the same title in another year, or BibLaTeX's
``related`` field, links two pages as versions, with the reason on the page and in records.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sphinx.cmd.build import build_main

from conftest import FIXTURES, SEEDS, copy_seeds, soup, words
from readinglist.config import load_config
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.related import VERSION_WINDOW
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.model import Library, Work
from readinglist.render.pages import site_pages
from readinglist.site import generate
from readinglist.site.pasted import fold_duplicates
from readinglist.store.identity import Rules

DBLP = FIXTURES / "exports" / "dblp.bib"
DBLP_DAPPLE = "DBLP:journals/corr/abs-2007-01045"
TOPICS = SEEDS / "conf" / "topics.toml"
TIDY = "shown on one page — run 'readinglist import' or delete one entry to keep refs.bib tidy"
TITLE = "Pipelined data parallel training of large models"
ABSTRACT = "We train large models with pipelines across many accelerators and measure the throughput we obtain."


def _pasted_seeds(tmp_path: Path) -> tuple[Path, int]:
    """The seed project with DBLP's export pasted at the end of refs.bib; the DAPPLE entry's line."""
    root = copy_seeds(tmp_path / "list")
    bib = root / "refs.bib"
    text = bib.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + DBLP.read_text(encoding="utf-8")
    bib.write_text(text, encoding="utf-8")
    return root, text[: text.index("@article{" + DBLP_DAPPLE)].count("\n") + 1


@pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API modifications")
def test_a_pasted_dblp_entry_for_a_seed_paper_is_one_page_reported_once(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    root, line = _pasted_seeds(tmp_path)
    out, log = tmp_path / "html", tmp_path / "warnings.txt"
    status = build_main(["-b", "html", "-n", "-W", "--keep-going", "-q", "-w", str(log), str(root / "docs"), str(out)])
    assert (status, log.read_text(encoding="utf-8")) == (0, "")
    report = f"refs.bib:{line}: {DBLP_DAPPLE} is the same work as lin2020dapple (identical title and year); {TIDY}"
    assert capfd.readouterr().err.count(report) == 1
    listed = json.loads((out / "records.json").read_text(encoding="utf-8"))
    dapple = [item for item in listed if "DAPPLE" in item["title"]]
    assert [item["key"] for item in dapple] == ["lin2020dapple"]
    assert [p.name for p in (out / "papers").glob("*.html") if "2007-01045" in p.name] == []
    text = words(soup(out / "papers" / "lin2020dapple.html"))
    # The seed's fields stay; what it lacked (the author list, the venue, the arXiv id) comes from DBLP.
    assert "Year: 2020" in text and "Venue: CoRR" in text and "Shiqing Fan" in text and "arXiv:2007.01045" in text


def _work(key: str, **fields: object) -> Work:
    return Work(key, str(fields.pop("title", TITLE)), **fields)  # type: ignore[arg-type]  # a test's shorthand


def test_entries_of_one_work_by_each_identity_key_fold_into_the_first_filling_only_what_it_lacks() -> None:
    works = [
        _work("first", year=2020, doi="10.1/abc", abstract=ABSTRACT),
        _work("bydoi", title=f"{TITLE}: extended", doi="10.1/ABC", url="https://example.org/a", year=2019),
        _work("byarxiv1", title="An arXiv paper", eprint="2101.00001v1"),
        _work("byarxiv2", title="A renamed arXiv paper", eprint="2101.00001v3", year=2021),
        _work("byabstract", title=TITLE.lower(), abstract=ABSTRACT),
        _work("suspect", title="Another title", doi="10.1/abc", abstract=ABSTRACT),  # another title
        _work("bytitle", title=TITLE.upper(), year=2020),
    ]
    kept, folds = fold_duplicates(works, {w.key: n for n, w in enumerate(works, 1)})
    assert [w.key for w in kept] == ["first", "byarxiv1", "suspect"]
    assert [(f.key, f.line, f.into, f.reason) for f in folds] == [
        ("bydoi", 2, "first", "same DOI"),
        ("byarxiv2", 4, "byarxiv1", "same arXiv id"),
        ("byabstract", 5, "first", "identical abstract"),
        ("bytitle", 7, "first", "identical title and year"),
    ]
    first, arxiv, _ = kept
    assert (first.title, first.year, first.doi, first.url) == (TITLE, 2020, "10.1/abc", "https://example.org/a")
    assert (arxiv.title, arxiv.year) == ("An arXiv paper", 2021)


def test_the_same_title_in_another_year_or_with_another_doi_is_a_version_not_a_fold() -> None:
    works = [
        _work("preprint", year=2020, eprint="2001.00001"),
        _work("published", year=2021, doi="10.1/pub"),
        _work("other", year=2021, doi="10.1/other"),
    ]
    kept, folds = fold_duplicates(works, {})
    assert ([w.key for w in kept], folds) == (["preprint", "published", "other"], [])


def test_identity_rules_keep_named_entries_apart_and_links_to_a_folded_key_still_resolve() -> None:
    works = [_work("a", year=2020), _work("b", year=2020), _work("c", title="Else", extra=(("related", "B"),))]
    assert [w.key for w in fold_duplicates(works, {}, Rules(different=(frozenset({"a", "b"}),)))[0]] == ["a", "b", "c"]
    kept, _ = fold_duplicates(works, {})
    assert dict(kept[-1].extra)["related"] == "a"


def _library(*works: Work) -> Library:
    return enrich(list(works), load_taxonomy(TOPICS))


def _page(library: Library, key: str) -> str:
    """The paper's page and its data file (its related lists), as the generator writes them."""
    pages = site_pages(library, {}, {}, {"title": "t", "description": "d"}, [])
    slug = library.by_key()[key].slug
    return pages[f"papers/{slug}.md"] + pages[f"related/{slug}.json"]


def test_a_preprint_and_its_published_paper_with_one_title_are_versions_with_the_reason() -> None:
    """No system name before a colon, no abstract: the title and an author in common join them."""
    preprint = _work("smith2020pipe", authors=("Ann Smith",), year=2020, eprint="2001.00001")
    published = _work(
        "jones2021pipe", authors=("Bob Jones", "A. Smith"), year=2021, doi="10.1/pub", entry_type="article"
    )
    library = _library(preprint, published, _work("x", title="Unrelated", year=2021))
    by_key = library.by_key()
    assert by_key["smith2020pipe"].versions == ("jones2021pipe",)
    assert by_key["jones2021pipe"].versions == ("smith2020pipe",)
    reason = {link.key: link.reason for link in by_key["smith2020pipe"].related}["jones2021pipe"]
    assert reason.startswith("another version (identical title, 2020 and 2021)")
    page = _page(library, "smith2020pipe")
    assert "**Other versions of this paper:**" in page and "identical title, 2020 and 2021" in page


def test_a_related_field_links_two_entries_as_versions_whatever_their_titles() -> None:
    """As ``readinglist import`` writes it: ``related = {key}``, possibly with a relatedtype."""
    thesis = _work("kim2019thesis", title="Scheduling accelerators", year=2019, extra=(("related", "Kim2021Sched"),))
    linked = (("relatedtype", "origpubin"),)
    paper = _work("Kim2021Sched", title="A scheduler for GPU clusters", year=2021, extra=linked)
    by_key = _library(thesis, paper, _work("x", title="Unrelated")).by_key()
    assert by_key["kim2019thesis"].versions == ("Kim2021Sched",)
    assert by_key["Kim2021Sched"].versions == ("kim2019thesis",)
    reasons = {link.key: link.reason for link in by_key["Kim2021Sched"].related}
    assert reasons["kim2019thesis"].startswith("another version (refs.bib links them: origpubin)")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(2000, 2006), min_size=2, max_size=40))
def test_title_versions_stay_a_capped_symmetric_connected_band(years: list[int]) -> None:
    works = [_work(f"k{i:02d}", year=y) for i, y in enumerate(years)]
    versions = {p.key: p.versions for p in _library(*works).papers}
    for key, others in versions.items():
        assert len(others) <= 2 * VERSION_WINDOW
        assert all(key in versions[o] for o in others)
    linked = {k for k, v in versions.items() if v}
    assert (linked == {w.key for w in works}) == (len(set(years)) > 1)


def test_generate_links_a_pasted_published_version_and_folds_a_pasted_copy(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    root, _ = _pasted_seeds(tmp_path)
    published = (
        "\n@inproceedings{fan2021dapple,\n  title = {{DAPPLE}: A Pipelined Data Parallel Approach for Training Large"
        " Models},\n  author = {Fan, Shiqing and Lin, Wei},\n  booktitle = {PPoPP},\n  year = {2021},\n}\n"
    )
    with (root / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write(published)
    report = generate.run(load_config(root))
    assert report.library is not None
    by_key = report.library.by_key()
    assert "fan2021dapple" in by_key["lin2020dapple"].versions and DBLP_DAPPLE not in by_key
    assert capfd.readouterr().err.count("is the same work as lin2020dapple") == 1
    records = json.loads((root / "docs" / "records.json").read_text(encoding="utf-8"))
    assert {r["key"]: r["versions"] for r in records}["fan2021dapple"] == ["lin2020dapple"]
    data = (root / "docs" / "related" / "fan2021dapple.json").read_text(encoding="utf-8")
    assert "identical title, 2020 and 2021" in data  # the reason of its versions list
