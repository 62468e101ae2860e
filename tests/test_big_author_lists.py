"""Large author lists cost bounded work (issue 31, item 12).

Twenty collaboration papers of 5,000 authors each made ``generate`` draw a chart for every
author and write an Atom feed for every author with two papers, each entry naming all 5,000:
more than 10 minutes and gigabytes of feeds. Now a chart and a feed are for the ``MOST``
authors with the most papers (at least ``author_chart_min`` and ``author_feed_min``), charts of
the same numbers are drawn once, and a paper's page and feed entries name the first ``FEW``
authors and how many others. The tests count files, links and drawings, never seconds.
"""

from __future__ import annotations

import re
from pathlib import Path

import feedparser
import pytest

from readinglist.cli import main
from readinglist.config import load_config
from readinglist.errors import Code, ReadingListError
from readinglist.model import Paper, Topic, Work
from readinglist.render.authors import FEW, MOST
from readinglist.render.charts import Counts, Settings, chart, drawn, topic_stack
from readinglist.render.cite import citation
from readinglist.render.export import acl

SHARED = MOST + 100  # authors on every paper of the collaboration: more than get a chart or a feed
PAPERS = 6
TOPICS = (Topic("ml", "ML systems", ""),)


def _bib(papers: int, authors: int) -> str:
    names = " and ".join(f"A{j} Family{j}" for j in range(authors))
    return "\n".join(
        f"@article{{collab{i},\n  title = {{Collaboration result {i}}},\n  author = {{{names}}},\n"
        f"  journal = {{Phys. Rev. D}},\n  year = {{{2015 + i}}},\n}}\n"
        for i in range(papers)
    )


@pytest.fixture(scope="module")
def collaboration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated project of PAPERS papers sharing SHARED authors, and a paper of 2 authors with
    one of them, an author with 2 papers (fewer than author_feed_min's default, 3)."""
    root = tmp_path_factory.mktemp("big") / "list"
    assert main(["init", str(root)]) == 0
    lone = "@article{duo,\n  title = {A pair},\n  author = {Bo Two and A0 Family0},\n  year = {2020},\n}\n"
    pair = "@article{duo2,\n  title = {A pair again},\n  author = {Bo Two},\n  year = {2021},\n}\n"
    (root / "refs.bib").write_text(_bib(PAPERS, SHARED) + "\n" + lone + "\n" + pair, encoding="utf-8")
    settings = root / "conf" / "readinglist.toml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("author_chart_min = 10", "author_chart_min = 3"))
    assert main(["--root", str(root), "generate"]) == 0
    return root / "docs"


def test_at_most_most_authors_get_a_feed_and_a_chart(collaboration: Path) -> None:
    feeds = sorted(p.name for p in (collaboration / "feeds").glob("author-*.xml"))
    assert len(feeds) == MOST  # every shared author has PAPERS papers: the first MOST by name
    assert "author-bo-two.xml" not in feeds  # 2 papers: fewer than author_feed_min (3)
    charts = sorted((collaboration / "charts" / "authors").glob("*.svg"))
    assert len(charts) == 2 * MOST  # a light and a dark file each


def test_a_paper_page_names_the_first_few_authors_and_counts_the_others(collaboration: Path) -> None:
    page = (collaboration / "papers" / "collab0.md").read_text(encoding="utf-8")
    [line] = [line for line in page.splitlines() if line.startswith("**Authors:**")]
    assert len(re.findall(r"\]\(rl:authors/", line)) == FEW
    assert line.endswith(f"and {SHARED - FEW} others")
    assert "Family299" in page  # the whole list is in the Cite menu's BibTeX


def test_a_feed_entry_names_the_first_few_authors(collaboration: Path) -> None:
    feed = feedparser.parse((collaboration / "feeds" / "all.xml").read_text(encoding="utf-8"))
    entry = next(e for e in feed.entries if e.link.endswith("collab0.html"))
    assert [a.name for a in entry.authors][-1] == f"and {SHARED - FEW} others"
    assert len(entry.authors) == FEW + 1


def test_charts_of_the_same_numbers_are_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from readinglist.render import chartsvg

    calls: list[object] = []
    real = chartsvg.themed

    def counted(counts: Counts, previous: Path | None) -> tuple[str, str]:
        calls.append(counts)
        return real(counts, previous)

    monkeypatch.setattr(chartsvg, "themed", counted)
    papers = [Paper(Work(f"p{i}", "T", year=2020 + i % 3), f"p{i}", (), False, "", ("ml",), "", ()) for i in range(12)]
    with drawn(Settings()) as made:
        for n in range(50):  # fifty co-authors of the same twelve papers
            assert chart(f"authors/a{n}", f"by A{n}", papers, topic_stack(TOPICS))
    assert len(calls) == 1  # one drawing, shared
    assert len(made.files) == 100 and made.files["charts/authors/a0.svg"] == made.files["charts/authors/a49.svg"]


@pytest.mark.parametrize("value", ["0", "-3", '"three"', "2.5"])
def test_author_feed_min_is_validated(tmp_path: Path, value: str) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "readinglist.toml").write_text(f"[site]\nauthor_feed_min = {value}\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        load_config(tmp_path)
    assert info.value.code == Code.BAD_CONFIG and "author_feed_min" in info.value.message


def test_author_feed_min_is_read(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "readinglist.toml").write_text("[site]\nauthor_feed_min = 2\n", encoding="utf-8")
    assert load_config(tmp_path).author_feed_min == 2


def test_the_styled_references_name_a_long_list_as_the_page_does() -> None:
    """Plain text and Markdown list the first FEW "and others" (formatting every name was most of
    a collaboration list's generate); the ACL reference is the same as from every name; the data
    formats keep them all."""
    names = tuple(f"A{j} Family{j}" for j in range(SHARED))
    work = Work(key="collab", title="A result", authors=names, year=2020, entry_type="article")
    shown = citation(work, {}, "@article{collab,}")
    assert "Family0" in shown.plain and f"Family{FEW - 1}" in shown.plain and f"Family{FEW}," not in shown.plain
    assert "and others" in shown.plain and "and others" in shown.markdown  # pybtex's plain style
    assert shown.acl and shown.acl == acl(shown.csl)
    assert [a["family"] for a in shown.csl["author"]] == [f"Family{j}" for j in range(SHARED)]
