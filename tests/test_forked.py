"""The forked helpers (site/child.Forked; site/assemble._pages and enrich_store).

The command line renders the listings that draw charts in a forked copy of itself while it
renders the rest, and reads refs.bib in another while it imports the enrichment's libraries.
Each split must be invisible: the same files, the same memo entries, the same charts and Cite
cache as one process rendering everything, the same library as one process reading refs.bib,
and a helper that fails must cost nothing but time.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, NoReturn

import pytest

from conftest import copy_seeds, generate_in_a_process
from readinglist import cache
from readinglist.config import load_config
from readinglist.render import registry
from readinglist.render.memo import Done
from readinglist.render.notes import load_notes
from readinglist.site import assemble, child
from readinglist.site.assemble import build_library

pytestmark = pytest.mark.skipif(not child.can_fork(), reason="the helper is forked: Linux only")


def _fails() -> NoReturn:
    raise RuntimeError("the helper's work failed")


def _dies() -> NoReturn:
    os._exit(3)


def test_a_helper_hands_back_a_result_larger_than_a_pipe_holds_and_a_failure_is_none() -> None:
    big = "x" * 3_000_000  # a pipe holds 64 KB: a helper writing into one nobody reads would hang
    assert child.Forked(lambda: big + "!").result() == big + "!"
    assert child.Forked(_fails).result() is None
    assert child.Forked(_dies).result() is None
    assert child.Forked(lambda: lambda: None).result() is None  # a result that does not pickle


def test_a_cancelled_helper_is_stopped_and_reaped() -> None:
    helper = child.Forked(lambda: time.sleep(60))
    started = time.monotonic()
    helper.cancel()
    assert time.monotonic() - started < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(helper._pid, os.WNOHANG)  # reaped: no zombie left


def test_a_failing_body_stops_the_copy_beside_it_and_unwanted_there_is_none() -> None:
    pids = []
    with pytest.raises(RuntimeError), child.beside(lambda: time.sleep(60)) as helper:
        assert helper is not None
        pids.append(helper._pid)
        raise RuntimeError("the caller's own work failed")
    with pytest.raises(ChildProcessError):
        os.waitpid(pids[0], os.WNOHANG)  # stopped and reaped
    with child.beside(lambda: 1, wanted=False) as none:
        assert none is None


def _site(tmp_path: Path, seed_bib_text: str, name: str) -> tuple[Any, ...]:
    root = copy_seeds(tmp_path / name, refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    config = load_config(root)
    library, bibtex, notes = build_library(config)
    return config, library, notes, bibtex


def _render(site: tuple[Any, ...], parallel: bool) -> tuple[dict[str, str], dict[str, Any]]:
    """Every file and the memo a render leaves, with or without the helper."""
    config, library, notes, bibtex = site
    files = assemble.site_files(config, library, notes, bibtex, [], memo="write", parallel=parallel)
    key = assemble.render_key(config)
    return files, cache.Store.open(config.docs_path).get(assemble.RENDER, key, dict) or {}


def test_a_render_split_with_the_helper_is_the_render_of_one_process(
    tmp_path: Path, seed_bib_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    results: list[tuple[dict[str, str], Done] | None] = []

    class Watched(child.Forked[Any]):
        def result(self) -> Any:
            found = super().result()
            results.append(found)
            return found

    monkeypatch.setattr(child, "Forked", Watched)
    alone = _render(_site(tmp_path, seed_bib_text, "alone"), parallel=False)
    assert results == []
    split = _render(_site(tmp_path, seed_bib_text, "split"), parallel=True)
    assert len(results) == 1 and results[0] is not None  # the helper rendered its share
    pages, done = results[0]
    apart = {k.folder or k.docname for k in registry.KINDS if k.apart}
    assert pages and all(p.split("/")[0].removesuffix(".md") in apart for p in pages)
    assert done.charts and done.made  # it drew charts and rendered units, taken back here
    assert split[0] == alone[0]  # every file, the charts and the Cite cache among them
    assert split[1] == alone[1] and split[1]  # every memo entry, with its charts and references


def _no_fork(work: object) -> NoReturn:
    raise BlockingIOError("fork: resource temporarily unavailable")


@pytest.mark.parametrize("failure", ["the helper's work", "the fork"])
def test_a_failed_helper_leaves_the_render_whole(
    tmp_path: Path, seed_bib_text: str, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    alone = _render(_site(tmp_path, seed_bib_text, "alone"), parallel=False)
    if failure == "the fork":
        monkeypatch.setattr(child, "Forked", _no_fork)
    else:
        monkeypatch.setattr(assemble, "_apart", lambda render: _fails())
    assert _render(_site(tmp_path, seed_bib_text, "failed"), parallel=True) == alone


def test_only_the_command_line_forks_a_helper_and_only_for_a_changed_library(
    tmp_path: Path, seed_bib_text: str
) -> None:
    """``cli.console`` (own_process) forks when the library was built, not served from its
    cache: one helper reads refs.bib, one renders (after a note edit the listings are served,
    and forking a large process costs more);
    a caller running ``cli.main`` in its own process (a test, a script, which may have threads)
    never forks."""
    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    counting = "forks = []\nos.register_at_fork(before=lambda: forks.append(1))"
    note = root / "docs" / "notes" / "lin2018inceptext.md"
    for turn, (own, built, forks) in enumerate(((True, True, "2"), (True, False, "0"), (False, True, "0"))):
        with open(root / "refs.bib" if built else note, "a", encoding="utf-8") as edited:
            edited.write(f"\n% turn {turn}\n" if built else f"\nTurn {turn}.\n")  # enrich again, or only render
        assert generate_in_a_process(root, own, counting, "len(forks)") == ["0", forks]


def _enriched(tmp_path: Path, seed_bib_text: str, name: str, parallel: bool) -> assemble.Enriched:
    """The seeds with a broken entry (a skip) and a pasted duplicate (a fold) added, enriched."""
    root = copy_seeds(tmp_path / name, refs=False)
    kind, rest = seed_bib_text.split("\n@")[1].split("{", 1)
    pasted = f"@{kind}{{pasted{rest}"  # the first entry again, under another key
    broken = "@article{broken2020,\n  title = {Unclosed,\n"
    (root / "refs.bib").write_text(f"{seed_bib_text}\n{pasted}\n{broken}", encoding="utf-8")
    config = load_config(root)
    return assemble.enrich_store(config, load_notes(config.notes_path), parallel=parallel)


def test_refs_bib_read_by_a_helper_is_the_library_read_in_one_process(
    tmp_path: Path, seed_bib_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    results: list[Any] = []

    class Watched(child.Forked[Any]):
        def result(self) -> Any:
            found = super().result()
            results.append(found)
            return found

    alone = _enriched(tmp_path, seed_bib_text, "alone", parallel=False)
    monkeypatch.setattr(child, "Forked", Watched)
    read = _enriched(tmp_path, seed_bib_text, "read", parallel=True)
    assert len(results) == 1 and results[0] is not None  # the helper read it
    assert any("skipped" in line for line in alone.messages) and any("same work" in line for line in alone.messages)
    assert read == alone  # the papers, their BibTeX, what reading said, the pages and problems


@pytest.mark.parametrize("failure", ["the helper's work", "the fork"])
def test_a_failed_read_helper_leaves_the_library_whole(
    tmp_path: Path, seed_bib_text: str, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    alone = _enriched(tmp_path, seed_bib_text, "alone", parallel=False)
    if failure == "the fork":
        monkeypatch.setattr(child, "Forked", _no_fork)
    else:
        forked = child.Forked
        monkeypatch.setattr(child, "Forked", lambda work: forked(_fails))
    assert _enriched(tmp_path, seed_bib_text, "failed", parallel=True) == alone
