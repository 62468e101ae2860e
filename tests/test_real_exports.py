"""Cases found by importing real exports (issue 26, verification): each fixture is hand-written in
the shape of what a real file did, and each test fails on the behaviour that file exposed.

- A Mendeley Desktop library pastes one arXiv id, ``arXiv:1011.1669v3``, into classic papers of
  1943, 1944 and 1963 by other people; a synced duplicate carries another paper's arXiv URL.
  An arXiv id under titles that disagree merges only with an author in common. The same library
  gives Phillips (1993) and Meikle (2000), whose titles differ by one word, one abstract: an
  abstract does not merge two records of two DOIs and no author in common.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from readinglist.model import Work
from readinglist.sources import read_source
from readinglist.store import bibfile, importer
from readinglist.store.report import ImportReport

EXPORTS = FIXTURES / "exports"


def _import(tmp_path: Path, name: str) -> tuple[dict[str, Work], ImportReport]:
    root = tmp_path / "project"
    (root / "conf").mkdir(parents=True)
    shutil.copy(EXPORTS / name, root / name)
    report = importer.run([root / name], root / "refs.bib", root)
    return {w.key: w for w in bibfile.load(root / "refs.bib").works()}, report


def test_one_arxiv_id_pasted_into_works_of_other_people_keeps_them_apart(tmp_path: Path) -> None:
    works, report = _import(tmp_path, "mendeley-pasted-arxiv.bib")
    assert {"Levenberg1944", "Marquardt1963", "McCulloch1943", "Huberman2008", "Huhtamaki2013"} <= works.keys()
    assert all(len(works[k].sources) == 1 for k in ("Levenberg1944", "Marquardt1963", "McCulloch1943"))
    pasted = [n for n in report.notes if "suspect arXiv id 1011.1669" in n]
    assert len(pasted) == 2, report.notes  # Marquardt's and McCulloch's records, each said once
    assert any("suspect arXiv id 0812.1045" in n and "Huberman2008" not in n for n in report.notes)


def test_one_abstract_pasted_into_two_papers_by_other_people_keeps_them_apart(tmp_path: Path) -> None:
    works, report = _import(tmp_path, "mendeley-pasted-arxiv.bib")
    assert {"Meikle2000", "Phillips1993"} <= works.keys()
    assert any(n.startswith("mendeley-pasted-arxiv.bib:") and "suspect abstract" in n for n in report.notes)


def test_an_arxiv_id_under_a_shortened_title_by_the_same_authors_still_merges(tmp_path: Path) -> None:
    works, report = _import(tmp_path, "mendeley-pasted-arxiv.bib")
    [multinest] = [w for w in works.values() if w.key.startswith("Feroz")]
    assert [s.line for s in multinest.sources] == [42, 51]
    assert any(m.startswith("mendeley-pasted-arxiv.bib:51 into") and "same arXiv id" in m for m in report.merges)


# A Mendeley Reference Manager "copy as BibTeX", pasted by hand into refs.bib between two entries.
PASTED = """@article{before2020,
  title = {The entry before},
  author = {Doe, Jane},
  year = {2020},
}

@web_page{SelvaCondaEnv2022,
   author = {Selva Prabhakaran},
   title = {Conda create environment and everything you need to know},
   url = {https://www.example.org/conda/},
   year = {2022},
}

@article{after2021,
  title = {The entry after},
  author = {Roe, Richard},
  year = {2021},
}
"""


@pytest.mark.parametrize("tolerant", [True, False])
def test_a_web_page_pasted_into_refs_bib_loses_no_entry(tmp_path: Path, tolerant: bool) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(PASTED, encoding="utf-8")
    store = bibfile.load(bib, tolerant=tolerant)
    kinds = [(w.key, w.entry_type, dict(w.extra).get("entrysubtype")) for w in store.works()]
    assert kinds == [
        ("before2020", "article", None), ("SelvaCondaEnv2022", "online", "web_page"), ("after2021", "article", None)
    ]  # fmt: skip
    assert store.skipped == []


def test_an_import_into_a_refs_bib_with_a_pasted_web_page_keeps_its_bytes(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(PASTED, encoding="utf-8")
    source = tmp_path / "new.bib"
    source.write_text("@article{new2022, title = {A new paper}, year = {2022}}\n", encoding="utf-8")
    report = importer.run([source], bib, tmp_path)
    assert report.added == 1
    assert bib.read_text(encoding="utf-8").startswith(PASTED)


def test_an_unknown_type_with_an_underscore_is_reported_on_its_own_line(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(PASTED.replace("@web_page", "@my_type"), encoding="utf-8")
    store = bibfile.load(bib, tolerant=True)
    assert [w.key for w in store.works()] == ["before2020", "after2021"]
    skipped = [(s.line, s.key, s.reason) for s in store.skipped]
    assert skipped == [(7, "SelvaCondaEnv2022", "unknown entry type @my_type")]


# --- a synced Mendeley library: links to the user's disk, names listed with commas -------------


def test_a_url_of_a_file_on_the_users_disk_is_neither_stored_nor_published(tmp_path: Path) -> None:
    works, report = _import(tmp_path, "mendeley-synced.bib")
    assert works["Mantyla2008LivingArviointia"].url == ""
    assert works["Huberman2008SocialMicroscope"].url == "http://papers.ssrn.com/sol3/papers.cfm?abstract{\\_}id=1313405"
    stored = (tmp_path / "project" / "refs.bib").read_text(encoding="utf-8")
    assert "Users/ann" not in stored and "file:" not in stored
    assert sum("names a file on your own disk" in w.reason for w in report.warnings) == 2


def test_a_hand_written_file_url_in_refs_bib_is_no_link_of_the_work(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@misc{a, title = {A}, url = {file:///home/ann/a.html}}\n"
        "@misc{b, title = {B}, url = {https://example.org/b file:///C:/Users/ann/b.pdf}}\n",
        encoding="utf-8",
    )
    assert [w.url for w in bibfile.load(bib).works()] == ["", "https://example.org/b"]


def test_names_listed_with_commas_are_read_as_a_list(tmp_path: Path) -> None:
    works, report = _import(tmp_path, "mendeley-synced.bib")
    assert works["Peng:2016"].authors[:2] == ("Weiyi Peng", "Jie Qing Chen")
    assert len(works["Peng:2016"].authors) == 8
    assert len(works["JoanGubermanJudithSaksBarbaraShapiro2006"].authors) == 4
    assert works["Autio2013InnovationManagement"].authors == ("M Dodgson", "N. Philips", "D. M. Gann")
    assert report.skipped == ()


def test_a_mendeley_book_section_names_its_book_as_booktitle(tmp_path: Path) -> None:
    works, _ = _import(tmp_path, "mendeley-synced.bib")
    extra = dict(works["BurgessC2011"].extra)
    assert extra["booktitle"] == "Space, Time and Number in the Brain" and "journal" not in extra
    assert (works["BurgessC2011"].entry_type, extra["entrysubtype"]) == ("incollection", "book_section")


def test_names_on_several_lines_are_no_comma_list(tmp_path: Path) -> None:
    """A DBLP export breaks an author list after each "and": no warning (carlostome's others.bib)."""
    text = (
        "@techreport{MillerYS03,\n  author       = {Miller, Mark and\n                  Yee, Ka-Ping and\n"
        "                  Shapiro, Jonathan S.},\n  title        = {Capability Myths Demolished},\n}\n"
    )
    path = tmp_path / "dblp.bib"
    path.write_text(text, encoding="utf-8")
    result = read_source(path, "dblp.bib")
    assert len(result.records[0].authors) == 3 and result.skipped == ()


def test_a_doubled_and_is_one_and(tmp_path: Path) -> None:
    """probmlbib: "Paige, Brooks and and Van de Meent, Jan-Willem" is no person named "and Van de Meent"."""
    text = (
        "@Article{Siddharth2017,\n  author = {Siddharth, N. and Paige, Brooks and and Van de Meent, Jan-Willem and"
        "  Wood,  Frank},\n  title = {Learning Disentangled Representations},\n  year = {2017},\n}\n"
        "@Article{Other2018,\n  author = {Alpha, Ann and  and Beta, Bob},\n"
        "  title = {Two and one},\n  year = {2018},\n}\n"
    )
    path = tmp_path / "probml.bib"
    path.write_text(text, encoding="utf-8")
    result = read_source(path, "probml.bib")
    assert [r.authors for r in result.records] == [
        ("Siddharth, N.", "Paige, Brooks", "Van de Meent, Jan-Willem", "Wood, Frank"), ("Alpha, Ann", "Beta, Bob")
    ]  # fmt: skip
