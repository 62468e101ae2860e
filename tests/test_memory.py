"""The bound on kept doctrees (sphinx_ext/memory.py): less memory, the same pages."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sphinx.application import Sphinx

ROOT = Path(__file__).parent / "roots" / "test-basic"


def _build(make_app: Callable[..., Any], source: Path, overrides: dict[str, Any]) -> tuple[dict[str, bytes], list[int]]:
    """Build a copy of the basic root: its pages, and the kept doctrees counted after each read."""
    shutil.copytree(ROOT, source)
    app = make_app("html", srcdir=source, confoverrides=overrides)
    counts: list[int] = []

    def count(app: Sphinx, *args: Any) -> None:
        counts.append(len(app.env._write_doc_doctree_cache))

    app.connect("source-read", count, priority=900)  # after the bound
    app.connect("env-updated", count, priority=900)
    app.build()
    assert app.statuscode == 0 and app.warning.getvalue() == ""
    app.cleanup()  # docutils' node registry is global: the next app registers the nodes again
    out = Path(app.outdir)
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*.html")}, counts


def test_a_bound_of_one_doctree_keeps_one_and_writes_the_same_pages(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    unbounded, grown = _build(make_app, tmp_path / "a", {})
    bounded, kept = _build(make_app, tmp_path / "b", {"readinglist_doctree_cache": 1})
    assert max(grown) > 1  # without the bound Sphinx keeps every doctree it read
    assert max(kept) <= 1
    assert len(bounded) > 10 and bounded == unbounded


def test_a_build_that_the_process_outlives_leaves_the_collector_alone(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    """``readinglist_exit_frozen`` freezes what the build left (its process exits next); off by default."""
    before = gc.get_freeze_count()
    _build(make_app, tmp_path / "a", {})
    assert gc.get_freeze_count() == before
    try:
        _build(make_app, tmp_path / "b", {"readinglist_exit_frozen": True})
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()  # this process goes on: the test session's objects are collectable again


def _collector_while_reading(make_app: Callable[..., Any], source: Path, overrides: dict[str, Any]) -> list[bool]:
    """Whether the collector was on as each document's reading began, in a build with the tuning on."""
    shutil.copytree(ROOT, source)
    app = make_app("html", srcdir=source, confoverrides={"readinglist_tune_gc": True, **overrides})
    seen: list[bool] = []
    app.connect("source-read", lambda app, docname, source: seen.append(gc.isenabled()))
    try:
        app.build()
        assert app.statuscode == 0 and app.warning.getvalue() == ""
    finally:
        app.cleanup()
        gc.unfreeze()
    assert gc.isenabled()  # restored once the build has finished
    return seen


def test_a_build_reading_few_documents_pauses_the_collector(
    make_app: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from readinglist import memory

    seen = _collector_while_reading(make_app, tmp_path / "a", {})
    assert len(seen) > 10 and not any(seen)
    monkeypatch.setattr(memory, "FEW_DOCUMENTS", 5)  # more to read than that: collected as usual
    assert all(_collector_while_reading(make_app, tmp_path / "b", {}))


def test_a_paused_collector_resumes_once_memory_has_grown(
    make_app: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from readinglist import memory

    monkeypatch.setattr(memory, "PAUSE_MB", -1)  # any growth at all is too much
    seen = _collector_while_reading(make_app, tmp_path / "a", {})
    assert seen[0] is False and all(seen[1:])


@pytest.mark.parametrize(("platform", "peak", "mb"), [("darwin", 3 * 2**20, 3.0), ("freebsd", 3 * 1024, 3.0)])
def test_without_proc_the_peak_is_read_in_the_platforms_unit(
    monkeypatch: pytest.MonkeyPatch, platform: str, peak: int, mb: float
) -> None:
    import builtins
    import resource
    import sys
    from types import SimpleNamespace

    from readinglist import memory

    def no_proc(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no /proc")

    monkeypatch.setattr(builtins, "open", no_proc)
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(resource, "getrusage", lambda who: SimpleNamespace(ru_maxrss=peak))
    assert memory.resident_mb() == mb


def test_what_a_span_allocates_is_moved_to_the_oldest_generation_and_collected_again() -> None:
    """The import's merge (memory.allocating): no collection inside; after it, what it kept is
    old (a first collection of the youngest generation would walk all of it), frozen no more."""
    from readinglist import memory

    class Kept:
        pass

    with memory.allocating():
        assert not gc.isenabled()
        kept = [Kept() for _ in range(1000)]
    assert gc.isenabled() and gc.get_freeze_count() == 0
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(o) in oldest for o in kept)


def test_a_paused_collector_stays_paused_after_a_span() -> None:
    from readinglist import memory

    gc.disable()
    try:
        with memory.allocating():
            kept: list[list[int]] = [[] for _ in range(100)]
        assert not gc.isenabled()
        young = {id(k) for k in kept}
        assert young.isdisjoint(id(o) for o in gc.get_objects(generation=2))
    finally:
        gc.enable()
