"""A build prints a summary, not every past merge and bibliography note again; ``-v`` lists them (issue 26, part 7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import copy_seeds
from readinglist.config import load_config
from readinglist.model import Library
from readinglist.site import generate
from readinglist.site.generate import GenerateReport


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> GenerateReport:
    report = generate.run(load_config(copy_seeds(tmp_path_factory.mktemp("quiet") / "seeds")))
    assert report.library is not None
    return report


NOTES = tuple(f"refs.bib:{n}: k{n}: @article has no journal: the bibliography lists it as @misc" for n in range(300))


def test_a_build_counts_what_verbose_lists(seeds: GenerateReport) -> None:
    report = replace(seeds, bibliography=NOTES)
    quiet, verbose = report.lines(), report.lines(verbose=True)
    assert len(quiet) == 2, quiet  # the files, then one line of counts
    merges = [line for line in verbose if line.startswith("merged ")]
    versions = [line for line in verbose if line.startswith("linked versions")]
    assert merges and versions  # the seeds merge records and link versions
    assert quiet[1] == (
        f"{len(merges)} merged work{'s' * (len(merges) != 1)}, {len(versions)} group{'s' * (len(versions) != 1)}"
        " of linked versions, 300 bibliography notes (-v lists them)"
    )
    assert [line for line in verbose if line.startswith("refs.bib:")] == list(NOTES)  # every one, none cut
    assert verbose[0] == quiet[0]


def test_nothing_to_count_is_one_line() -> None:
    bare = GenerateReport(Library((), (), (), {}), 3, 0, ())
    assert bare.lines() == bare.lines(verbose=True) == ["0 papers: 3 files written, 0 stale files removed"]


@given(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))
def test_plurals_are_right(seeds: GenerateReport, papers: int, written: int, deleted: int, notes: int) -> None:
    """ "1 paper", "2 papers", "0 papers": never "1 papers" (the issue's complaint) nor "1 files"."""
    assert seeds.library is not None
    plain = [p for p in seeds.library.papers if not p.versions and not any(s.why for s in p.work.sources)]
    library = replace(seeds.library, papers=tuple(plain[:papers]))
    said = GenerateReport(library, written, deleted, (), NOTES[:notes]).lines()
    words = [_said(papers, "paper"), _said(written, "file") + " written", _said(deleted, "stale file") + " removed"]
    assert said[0] == f"{words[0]}: {words[1]}, {words[2]}"
    assert said[1:] == ([f"{_said(notes, 'bibliography note')} (-v lists them)"] if notes else [])


def _said(n: int, noun: str) -> str:
    return {0: f"0 {noun}s", 1: f"1 {noun}", 2: f"2 {noun}s"}[n]
