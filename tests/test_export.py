"""The Cite menu's other formats (render/export.py): each parses back, naming what the page names."""

from __future__ import annotations

import json

import pytest
import rispy
from pybtex.database import parse_string

from conftest import copy_seeds
from hostile_kit import HOSTILE_YEARS
from readinglist.config import load_config
from readinglist.latex import to_text
from readinglist.model import Library, Work
from readinglist.render import cite
from readinglist.render.export import biblatex
from readinglist.site.assemble import build_library
from readinglist.years import plausible_year


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, dict[str, str]]:
    library, bibtex, _ = build_library(load_config(copy_seeds(tmp_path_factory.mktemp("export") / "seeds")))
    return library, bibtex


def _tabs(citation: cite.Citation) -> dict[str, str]:
    return {f.label: f.make(citation) for f in cite.FORMATS}


def test_every_seed_paper_has_every_format_and_each_parses_back(seeds: tuple[Library, dict[str, str]]) -> None:
    library, bibtex = seeds
    for paper in library.papers:
        tabs = _tabs(cite.citation(paper.work, {}, bibtex[paper.key]))
        assert all(tabs.values()), (paper.key, [label for label, text in tabs.items() if not text])
        [item] = json.loads(tabs["CSL-JSON"])
        assert item["id"] == paper.key and item["title"]
        [record] = rispy.loads(tabs["RIS"])
        assert record["id"] == paper.key and record["title"] == item["title"]
        entries = parse_string(tabs["BibLaTeX"], "bibtex").entries
        assert list(entries) == [paper.key]
        assert item["title"].rstrip(".") in tabs["ACL"]


def test_the_formats_name_the_same_authors() -> None:
    work = Work("k", "Sheaves", authors=("Ada Lovelace", "Charles de la Vall{\\'e}e Poussin"), year=1900)
    tabs = _tabs(cite.citation(work, {}, ""))
    [item] = json.loads(tabs["CSL-JSON"])
    [record] = rispy.loads(tabs["RIS"])
    assert item["author"] == [
        {"family": "Lovelace", "given": "Ada"},
        {"family": "de la Vallée Poussin", "given": "Charles"},
    ]
    assert record["authors"] == ["Lovelace, Ada", "de la Vallée Poussin, Charles"]
    assert "Ada Lovelace and Charles de la Vallée Poussin" in tabs["ACL"]


def test_biblatex_renames_types_and_fields_only_where_a_field_starts() -> None:
    text = "@phdthesis{k,\n  title = {A\n  journal = {not a field}},\n  journal = {J},\n  year = {2020},\n}\n"
    entry = parse_string(biblatex(text), "bibtex").entries["k"]
    assert entry.type == "thesis"
    assert dict(entry.fields) == {
        "type": "phdthesis",
        "title": "A journal = {not a field}",  # pybtex folds the line break
        "journaltitle": "J",
        "date": "2020",
    }


def test_csl_json_reads_as_plain_text() -> None:
    work = Work(
        "k",
        r"The \emph{Best} {GPU} Paper",
        authors=("Ada Lovelace", "Plato"),
        year=1843,
        entry_type="article",
        extra=(("journal", "Nature"),),
    )
    [item] = json.loads(_tabs(cite.citation(work, {}, ""))["CSL-JSON"])
    assert item["title"] == to_text(work.title) == "The Best GPU Paper"
    assert item["author"] == [{"family": "Lovelace", "given": "Ada"}, {"literal": "Plato"}]
    assert item["issued"] == {"date-parts": [[1843]]} and item["type"] == "article-journal"
    assert item["container-title"] == "Nature"


def test_ris_names_the_editors_and_the_pages() -> None:
    extra = (("editor", "Doe, Jane"), ("booktitle", "Handbook"), ("publisher", "P"), ("pages", "3--9"))
    work = Work("k", "Chapter", authors=("Ada Lovelace",), year=2001, entry_type="incollection", extra=extra)
    [record] = rispy.loads(_tabs(cite.citation(work, {}, ""))["RIS"])
    assert record["type_of_reference"] == "CHAP" and record["secondary_title"] == "Handbook"
    assert record["secondary_authors"] == ["Doe, Jane"] and (record["start_page"], record["end_page"]) == ("3", "9")


@pytest.mark.parametrize("written", HOSTILE_YEARS)
def test_every_format_takes_any_written_year(written: str) -> None:
    """Issue 26's regression: ``year = {²⁰²⁰}`` in refs.bib made the CSL item's ``int()`` raise."""
    extra = (("journal", "J"), ("year", written)) if written else (("journal", "J"),)
    work = Work(key="k", title="T", authors=("Ann Lee",), entry_type="article", extra=extra)
    tabs = _tabs(cite.citation(work, {}, "@article{k,\n  title = {T},\n}"))
    [item] = json.loads(tabs["CSL-JSON"])
    issued = item.get("issued", {}).get("date-parts", [[None]])[0][0]
    assert issued == plausible_year(written)  # only a plausible year is a CSL date
    [record] = rispy.loads(tabs["RIS"])
    assert record.get("year") == (str(issued) if issued else None)
    shown = tabs["Plain text"]
    for number in ("²⁰²⁰", "٢٠٢٠", "99999"):
        assert number not in shown  # a number that is no year is not printed as one
    for words in ("2020a", "forthcoming"):
        assert (words in shown) == (written == words)  # words a person wrote stay as written
