"""Papers-per-year charts: static SVG, in a light and a dark version, with the numbers as a table.

The landing page splits each year's bar by topic, a topic page by subtopic, an author section
(only for authors with at least ``author_min`` papers) by topic. Each paper counts once, under
its first topic or subtopic in conf/topics.toml's order, so a bar is as tall as the year's
papers. The drawing is ``chartsvg.py``'s; here the counting, the files and the markup. As the
Cite menu's cache (``citecache``), charts are drawn only inside ``drawn``, which ``generate``
opens with the site's settings; a page rendered outside it (a test) has none:

    with drawn(Settings(previous=docs)) as charts:
        page = render(..., chart=chart("topics/vision", "in Vision", papers, subtopic_stack(topic)))
        files.update(charts.files)                      # the SVGs, beside the pages

Two ``<img>`` show the chart, one per theme: furo hides ``only-light`` in dark mode and
``only-dark`` in light mode (its toggle and the system setting alike). A screen reader gets the
alt text, and everyone the numbers in a collapsed table (sphinx-design's dropdown: ``<details>``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..model import Paper, Topic
from .accessors import year_of
from .escape import Md, clean, directive, md_text
from .registry import BY_NAME

FOLDER = BY_NAME["chart"].folder  # under docs/; the generator owns every file in it
DARK = ".dark"  # before the suffix; no chart name holds a dot (topic and author ids do not)
AUTHOR_MIN = 10  # the default: a chart of three papers says no more than their list
OTHER = "In no subtopic"


@dataclass(frozen=True)
class Stack:
    """How a chart splits each year's bar: the groups' labels, and each paper's group (an index)."""

    labels: tuple[str, ...]
    group: Callable[[Paper], int]
    other: bool = False  # the last group is the rest (drawn grey)
    by: str = "topic"  # what splits the bars, as the alt text says it


def topic_stack(topics: Sequence[Topic]) -> Stack:
    index = {t.id: i for i, t in enumerate(topics)}
    return Stack(tuple(t.title for t in topics), lambda p: min((index[t] for t in p.topics if t in index), default=0))


def subtopic_stack(topic: Topic) -> Stack:
    """A topic's bars by subtopic; without subtopics, one bar a year."""
    if not topic.subtopics:
        return Stack(("Papers",), lambda p: 0)
    index = {s.id: i for i, s in enumerate(topic.subtopics)}
    rest = len(index)
    labels = (*(s.title for s in topic.subtopics), OTHER)

    def group(p: Paper) -> int:
        return min((index[s] for s in p.subtopics if s in index), default=rest)

    return Stack(labels, group, other=True, by="subtopic")


@dataclass(frozen=True)
class Counts:
    """Papers per year and group; the years run without gaps from the first to the last."""

    years: tuple[int, ...]
    labels: tuple[str, ...]
    rows: tuple[tuple[int, ...], ...]  # one per group, one count per year
    other: bool
    undated: int  # papers with no year, left out of the chart

    @classmethod
    def of(cls, papers: Sequence[Paper], stack: Stack) -> Counts:
        known = [(year, p) for p in papers if (year := year_of(p.work))]  # only plausible years: no axis from 0
        counted = Counter((year, stack.group(p)) for year, p in known)
        dated = sorted({year for year, _ in counted})
        years = tuple(range(dated[0], dated[-1] + 1)) if dated else ()
        used = sorted({g for _, g in counted})  # groups with no paper here are left out of the legend
        rows = tuple(tuple(counted[(y, g)] for y in years) for g in used)
        other = stack.other and bool(used) and used[-1] == len(stack.labels) - 1
        undated = len(papers) - len(known)
        return cls(years, tuple(stack.labels[g] for g in used), rows, other, undated)


@dataclass(frozen=True)
class Settings:
    """``[site] charts`` and ``author_chart_min``; ``previous`` is docs/, where the last generate's
    charts are: one whose data, labels and drawing code are unchanged is read back, not drawn again
    (matplotlib takes ~60 ms a chart)."""

    enabled: bool = True
    author_min: int = AUTHOR_MIN
    previous: Path | None = None


class Charts:
    """The charts of one generate: ``files`` ({path under docs/: SVG}) and each chart's markup."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.files: dict[str, str] = {}
        # Charts of the same numbers are the same SVGs: drawn once (co-authors of the same papers).
        self._svgs: dict[Counts, tuple[str, str]] = {}

    def chart(self, name: str, subject: str, papers: Sequence[Paper], stack: Stack) -> Md:
        if not self.settings.enabled:
            return Md("")
        counts = Counts.of(papers, stack)
        if not counts.years:
            return Md("")
        from .chartsvg import themed  # matplotlib is imported only when a chart is drawn

        light, dark = f"{FOLDER}/{name}.svg", f"{FOLDER}/{name}{DARK}.svg"
        previous = self.settings.previous and self.settings.previous / light
        if counts not in self._svgs:
            self._svgs[counts] = themed(counts, previous)
        self.files[light], self.files[dark] = self._svgs[counts]
        return _markup(light, dark, subject, counts, stack.by if len(stack.labels) > 1 else "")


_OFF = Charts(Settings(enabled=False))
_current = [_OFF]


@contextmanager
def drawn(settings: Settings) -> Iterator[Charts]:
    """Charts are drawn (or read back) while this is open; ``files`` holds them afterwards."""
    charts = Charts(settings)
    _current[0] = charts
    try:
        yield charts
    finally:
        _current[0] = _OFF


def chart(name: str, subject: str, papers: Sequence[Paper], stack: Stack) -> Md:
    """Markdown for the chart ``name`` (a path under charts/, no suffix); "" outside ``drawn``, when
    charts are off or no paper has a year. ``subject`` ends the table's title ("Papers per year
    in Vision"): record text, escaped here."""
    return _current[0].chart(name, subject, papers, stack)


def current_files() -> dict[str, str]:
    """The SVGs drawn (or read back) so far inside ``drawn``, in order (render/memo.py)."""
    return _current[0].files


def keep(files: dict[str, str]) -> None:
    """Add a served unit's charts (render/memo.py), as drawing them again would; none outside ``drawn``."""
    if _current[0] is not _OFF:
        _current[0].files.update(files)


def author_min() -> int:
    """Authors with fewer papers get no chart."""
    return _current[0].settings.author_min


def _markup(light: str, dark: str, subject: str, counts: Counts, by: str) -> Md:
    span = f"{counts.years[0]}–{counts.years[-1]}" if len(counts.years) > 1 else str(counts.years[0])
    split = f", each bar split by {by}" if by else ""
    what = clean(f"Papers per year {subject}")  # "Papers per year" when the subject is empty
    alt = f"Bar chart: {what[0].lower()}{what[1:]}, {span}{split}. The table below gives the numbers."
    images = [_image(path, alt, theme) for path, theme in ((light, "only-light"), (dark, "only-dark"))]
    title = md_text(f"{what}, as a table")
    table = directive("dropdown", title, _table(counts), ":class-container: readinglist-chart-table")
    return Md("\n\n".join([*images, table]))


def _image(path: str, alt: str, theme: str) -> Md:
    # MyST reads a directive's options as YAML: a JSON string is a YAML double-quoted scalar, so
    # no quote, colon or "#" in an author's name can end the value or start another option.
    quoted = json.dumps(alt, ensure_ascii=False)
    return Md(f"```{{image}} /{path}\n:alt: {quoted}\n:class: {theme} readinglist-chart\n```")


def _table(counts: Counts) -> Md:
    """Only the years with papers, newest first; a Total column when the bars are split."""
    split = len(counts.labels) > 1
    head = ["Year", *map(md_text, counts.labels), *(["Total"] if split else [])]
    lines = ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for i in reversed(range(len(counts.years))):
        cells = [row[i] for row in counts.rows]
        if sum(cells):
            lines.append(f"| {counts.years[i]} | " + " | ".join(map(str, cells + [sum(cells)] * split)) + " |")
    said = "1 more with no year is" if counts.undated == 1 else f"{counts.undated} more with no year are"
    note = md_text(f"{said} not shown.") if counts.undated else ""
    return Md("\n".join(lines) + (f"\n\n{note}" if note else ""))
