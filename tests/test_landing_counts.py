"""The landing page's counts line: right plurals, and a year span that names one year once."""

from __future__ import annotations

from readinglist.model import Library, Paper, Topic, Work
from readinglist.render.links import year_span
from readinglist.render.pages import index_page

SITE = {"title": "A list", "description": ""}


def _library(years: list[int]) -> Library:
    papers = tuple(
        Paper(Work(key=f"k{i}", title=f"Paper {i}", year=year), f"k{i}", (), False, "", ("t",), "", ())
        for i, year in enumerate(years)
    )
    return Library(papers, (Topic("t", "T", ""),), (), {})


def test_a_list_of_one_year_names_the_year_once() -> None:
    page = index_page(_library([2019, 2019]), SITE, [])
    assert "2 papers · 1 topic · 0 authors · 2019" in page
    assert "2019–2019" not in page


def test_a_list_of_several_years_names_its_span() -> None:
    assert "1 paper · 1 topic · 0 authors" in index_page(_library([2021]), SITE, [])
    assert "3 papers · 1 topic · 0 authors · 2017–2021" in index_page(_library([2021, 2017, 2019]), SITE, [])


def test_year_span() -> None:
    assert year_span([1999]) == "1999"
    assert year_span([1999, 2004]) == "1999–2004"
