"""Papers-per-year charts (issue 12, item 3): the counts, the SVG files and the markup that shows them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docutils.parsers.rst.directives.images import Image
from hypothesis import given, settings
from hypothesis import strategies as st
from myst_parser.parsers.directives import parse_directive_text

from conftest import copy_seeds
from readinglist.cli import main
from readinglist.config import load_config
from readinglist.errors import Code, ReadingListError
from readinglist.model import Paper, Topic, Work
from readinglist.render import chartsvg
from readinglist.render.charts import Counts, Settings, chart, drawn, subtopic_stack, topic_stack
from readinglist.render.escape import clean
from readinglist.years import plausible_year

TOPICS = (Topic("ml", "ML systems", ""), Topic("cv", "Vision | images", ""), Topic("nlp", "Language", ""))
SPLIT = Topic("ml", "ML systems", "", subtopics=(Topic("ml/train", "Training", ""), Topic("ml/cc", "Compilers", "")))
IMAGE = re.compile(r"```\{image\} (\S+)\n(.*?)\n```", re.S)


def _paper(i: int, year: int | None, topics: tuple[str, ...], subtopics: tuple[str, ...] = ()) -> Paper:
    work = Work(key=f"p{i}", title=f"P{i}", year=year)
    return Paper(work, f"p{i}", (), False, "", topics, "", (), subtopics=subtopics)


# Mostly plausible years, and some no chart may use (a Mendeley "6", a typo "99999"): issue 26.
YEARS = st.none() | st.integers(1990, 2030) | st.sampled_from([0, 6, 999, 1399, 1400, 99999])
PAPERS = st.lists(st.tuples(YEARS, st.lists(st.sampled_from(["ml", "cv", "nlp"]), min_size=1)), max_size=40)


@given(PAPERS)
def test_each_dated_paper_counts_once_under_its_first_topic(drawn_papers: list[tuple[int | None, list[str]]]) -> None:
    papers = [_paper(i, year, tuple(dict.fromkeys(topics))) for i, (year, topics) in enumerate(drawn_papers)]
    counts = Counts.of(papers, topic_stack(TOPICS))
    dated = [p for p in papers if plausible_year(p.work.year)]  # the others are unknown years, left out
    assert counts.undated == len(papers) - len(dated)
    years = sorted({p.work.year for p in dated if p.work.year})
    assert list(counts.years) == (list(range(years[0], years[-1] + 1)) if years else [])  # no gaps
    order = [t.id for t in TOPICS]
    for y, year in enumerate(counts.years):  # each bar is as tall as the year's papers, split by first topic
        here = [p for p in dated if p.work.year == year]
        by_label = {label: row[y] for label, row in zip(counts.labels, counts.rows, strict=True)}
        expected = {t.title: sum(min(map(order.index, p.topics)) == i for p in here) for i, t in enumerate(TOPICS)}
        assert {k: v for k, v in expected.items() if k in by_label} == by_label
        assert sum(by_label.values()) == len(here)


def test_a_topic_splits_by_subtopic_and_the_rest_is_other() -> None:
    papers = [
        _paper(1, 2020, ("ml",), ("ml/cc",)),
        _paper(2, 2020, ("ml",), ("ml/train", "ml/cc")),  # counted once, under its first subtopic
        _paper(3, 2021, ("ml",)),
    ]
    counts = Counts.of(papers, subtopic_stack(SPLIT))
    assert counts.labels == ("Training", "Compilers", "In no subtopic") and counts.other
    assert counts.rows == ((1, 0), (1, 0), (0, 1))
    single = Counts.of(papers, subtopic_stack(Topic("ml/cc", "Compilers", "")))
    assert single.labels == ("Papers",) and single.rows == ((2, 1),) and not single.other


def test_the_same_data_gives_the_same_bytes_in_both_themes() -> None:
    counts = Counts((2019, 2020, 2021), ("ML systems", "Cost in $ and 50%"), ((1, 0, 2), (0, 3, 1)), False, 0)
    light, dark = chartsvg.themed(counts, None)
    assert (light, dark) == chartsvg.themed(counts, None)  # byte for byte: no rebuild for an unchanged chart
    assert "dc:date" not in light and "Matplotlib v" not in light  # no date, no creator
    assert "<title>Papers per year, 2019–2021</title>" in light
    assert "Cost in $ and 50%" in light  # a "$" is text, not mathtext
    assert light != dark
    for stand_in in chartsvg.THEMES["dark"]:  # the two differ only in the themes' colours
        dark = dark.replace(chartsvg.THEMES["dark"][stand_in], chartsvg.THEMES["light"][stand_in])
    assert dark == light


def test_an_unchanged_chart_is_read_back_not_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = Counts((2020, 2021), ("Papers",), ((1, 2),), False, 0)
    light, dark = chartsvg.themed(counts, None)
    (tmp_path / "x.svg").write_text(light, encoding="utf-8")
    (tmp_path / "x.dark.svg").write_text(dark, encoding="utf-8")

    def no_drawing(counts: Counts) -> str:
        raise AssertionError("drawn again")

    monkeypatch.setattr(chartsvg, "_draw", no_drawing)
    assert chartsvg.themed(counts, tmp_path / "x.svg") == (light, dark)
    with pytest.raises(AssertionError, match="drawn again"):  # new data: drawn again
        chartsvg.themed(Counts((2020, 2021), ("Papers",), ((1, 3),), False, 0), tmp_path / "x.svg")
    with monkeypatch.context() as patched, pytest.raises(AssertionError, match="drawn again"):
        patched.setattr(chartsvg, "MATPLOTLIB", "0.0")  # another matplotlib: drawn again
        chartsvg.themed(counts, tmp_path / "x.svg")
    (tmp_path / "x.dark.svg").unlink()
    with pytest.raises(AssertionError, match="drawn again"):  # half a pair is no cache
        chartsvg.themed(counts, tmp_path / "x.svg")


def test_no_chart_outside_generate_or_when_switched_off() -> None:
    papers = [_paper(1, 2020, ("ml",))]
    assert chart("index", "", papers, topic_stack(TOPICS)) == ""
    with drawn(Settings(enabled=False)) as charts:
        assert chart("index", "", papers, topic_stack(TOPICS)) == ""
    assert charts.files == {}
    with drawn(Settings()) as charts:
        assert chart("index", "", [_paper(1, None, ("ml",))], topic_stack(TOPICS)) == ""  # no year, no chart


def test_markup_shows_each_theme_and_the_numbers_as_a_table() -> None:
    papers = [_paper(1, 2020, ("ml",)), _paper(2, 2022, ("cv",)), _paper(3, None, ("ml",))]
    with drawn(Settings()) as charts:
        markup = chart("authors/jane", "by Jane *Doe*", papers, topic_stack(TOPICS))
    assert sorted(charts.files) == ["charts/authors/jane.dark.svg", "charts/authors/jane.svg"]
    images = IMAGE.findall(markup)
    assert [path for path, _ in images] == ["/charts/authors/jane.svg", "/charts/authors/jane.dark.svg"]
    assert [":class: only-light" in o for _, o in images] == [True, False]
    assert "```{dropdown} Papers per year by Jane \\*Doe\\*\\, as a table" in markup
    assert "| Year | ML systems | Vision \\| images | Total |" in markup  # a "|" in a title is no new cell
    assert "| 2022 | 0 | 1 | 1 |\n| 2020 | 1 | 0 | 1 |" in markup  # years with papers only, newest first
    assert "1 more with no year is not shown\\." in markup  # one, not "1 more … are"


@settings(max_examples=200)
@given(st.text())
def test_any_name_is_one_alt_text_and_no_option_of_its_own(name: str) -> None:
    papers = [_paper(1, 2020, ("ml",))]
    with pytest.MonkeyPatch.context() as patch, drawn(Settings()):
        patch.setattr(chartsvg, "themed", lambda counts, previous: ("", ""))  # the markup only: no drawing
        markup = chart("authors/x", f"by {name}", papers, topic_stack(TOPICS))
    (path, options), _ = IMAGE.findall(markup)
    parsed = parse_directive_text(Image, path, options)
    assert not parsed.warnings and set(parsed.options) == {"alt", "class"}
    assert parsed.options["alt"].startswith(clean(f"Bar chart: papers per year by {name}"))


def test_the_switch_is_validated(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    settings_file = tmp_path / "conf" / "readinglist.toml"
    settings_file.write_text("[site]\ncharts = false\nauthor_chart_min = 3\n", encoding="utf-8")
    config = load_config(tmp_path)
    assert not config.charts and config.author_chart_min == 3
    settings_file.write_text('[site]\ncharts = "no"\n', encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        load_config(tmp_path)
    assert info.value.code == Code.BAD_CONFIG


def test_generate_writes_the_charts_and_removes_them_when_switched_off(tmp_path: Path) -> None:
    project = copy_seeds(tmp_path / "seeds")
    assert main(["--root", str(project), "generate"]) == 0
    charts = project / "docs" / "charts"
    assert (charts / "index.svg").is_file() and (charts / "index.dark.svg").is_file()
    assert (charts / "topics" / "ml-systems.svg").is_file() and (
        charts / "topics" / "ml-systems" / "compilers.svg"
    ).is_file()
    assert (charts / "authors" / "wei-lin.svg").is_file()  # 18 papers
    assert not (charts / "authors" / "jun-yang.svg").exists()  # 6 papers: fewer than author_chart_min (10)
    assert "## Papers per year" in (project / "docs" / "index.md").read_text(encoding="utf-8")
    settings_file = project / "conf" / "readinglist.toml"
    settings_file.write_text(settings_file.read_text(encoding="utf-8") + "charts = false\n", encoding="utf-8")
    assert main(["--root", str(project), "generate"]) == 0
    assert not any(charts.rglob("*.svg"))  # the generator's files: removed with the switch
    assert "Papers per year" not in (project / "docs" / "index.md").read_text(encoding="utf-8")
