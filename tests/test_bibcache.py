"""The bibliography cache: an unchanged entry is formatted once, a changed one again, identically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pybtex.database import Entry, Person
from pybtex.style.formatting.plain import Style as PlainStyle

from readinglist.site.sphinx_ext import bibcache


class Build:
    """One build's caching "plain" style, whose base counts its calls."""

    def __init__(self, calls: list[str], cache: bibcache.Cache | None = None) -> None:
        # pybtex's own class: a Sphinx build earlier in the session registered a caching "plain".
        class Counting(PlainStyle):  # type: ignore[misc]
            def format_entry(self, label: str, entry: Entry, bib_data: Any = None) -> Any:
                calls.append(entry.key)
                return super().format_entry(label, entry, bib_data)

        self.cache = cache or bibcache.Cache()
        self.style = bibcache.caching(Counting, self.cache)()

    def text(self, label: str, entry: Entry) -> str:
        return str(self.style.format_entry(label, entry).text.render_as("text"))


def _entry(key: str, title: str) -> Entry:
    entry = Entry("article", fields={"title": title, "journal": "J", "year": "2020"})
    entry.key = key
    entry.persons["author"] = [Person("Lin, Wei")]
    return entry


def test_unchanged_entries_are_formatted_once(tmp_path: Path) -> None:
    calls: list[str] = []
    build = Build(calls)
    first = build.text("1", _entry("a", "Pipelines"))
    build.cache.save(tmp_path)
    again = Build(calls)  # a new build: only what was saved survives
    again.cache.load(tmp_path)
    assert again.text("1", _entry("a", "Pipelines")) == first and "Pipelines" in first
    assert calls == ["a"]


@pytest.mark.parametrize("change", ["title", "label", "author"])
def test_a_changed_entry_is_formatted_again(change: str) -> None:
    calls: list[str] = []
    build = Build(calls)
    build.text("1", _entry("a", "Pipelines"))
    entry = _entry("a", "Graphs" if change == "title" else "Pipelines")
    if change == "author":
        entry.persons["author"] = [Person("Liu, Xin")]
    formatted = build.text("2" if change == "label" else "1", entry)
    assert calls == ["a", "a"]
    assert ("Graphs" in formatted) == (change == "title")
    assert ("Liu" in formatted) == (change == "author")


def test_the_saved_cache_keeps_only_the_entries_in_use(tmp_path: Path) -> None:
    build = Build([])
    build.text("1", _entry("a", "Pipelines"))
    build.text("2", _entry("b", "Graphs"))
    build.cache.save(tmp_path)
    build.text("1", _entry("a", "Pipelines"))  # b was removed
    build.cache.save(tmp_path)
    build.cache.load(tmp_path)
    assert [k[2] for k in build.cache.entries] == ["a"]


def test_each_build_formats_into_its_own_cache() -> None:
    """Two apps of one process (tests, a conf.py that builds twice) share no entries."""
    first, second = Build([]), Build([])
    first.text("1", _entry("a", "Pipelines"))
    assert len(first.cache.entries) == 1 and second.cache.entries == {}


def test_a_caching_style_made_caching_again_caches_its_own_base() -> None:
    """A second build registers its style over the first build's: the base is never wrapped twice."""
    calls: list[str] = []
    first = Build(calls)
    again = bibcache.caching(type(first.style), bibcache.Cache())()
    again.format_entry("1", _entry("a", "Pipelines"))
    assert calls == ["a"] and type(again).__mro__[1] is type(first.style).uncached


def test_a_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    (tmp_path / bibcache.FILE).write_bytes(b"not a pickle")
    cache = bibcache.Cache()
    cache.load(tmp_path)
    assert cache.entries == {}


def test_entries_formatted_by_another_pybtex_are_formatted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key holds pybtex's version (and readinglist's code, readinglist.cache.key_of): a new
    pybtex may format an unchanged entry differently."""
    import pybtex

    calls: list[str] = []
    first = Build(calls)
    first.text("1", _entry("a", "Pipelines"))
    first.cache.save(tmp_path)
    monkeypatch.setattr(pybtex, "__version__", pybtex.__version__ + ".post1")
    again = Build(calls)
    again.cache.load(tmp_path)
    assert again.cache.entries == {}
    again.text("1", _entry("a", "Pipelines"))
    assert calls == ["a", "a"]


def test_the_file_of_the_caches_own_format_is_removed_when_saving(tmp_path: Path) -> None:
    (tmp_path / bibcache.OLD_FILE).write_bytes(b"an older version's pickle")
    build = Build([])
    build.cache.load(tmp_path)
    build.text("1", _entry("a", "Pipelines"))
    build.cache.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [bibcache.FILE]


def test_a_renumbered_entry_is_served_under_its_new_label() -> None:
    """pybtex's own format_entry (which "plain" uses) only hands the label on: adding a paper
    renumbers the entries after it, and each is served under its new number, not formatted again."""
    calls: list[str] = []

    class CountingTemplates(PlainStyle):  # type: ignore[misc]
        def get_article_template(self, e: Entry) -> Any:
            calls.append(e.key)
            return super().get_article_template(e)

    style = bibcache.caching(CountingTemplates, bibcache.Cache())()
    before = [style.format_entry(str(n), _entry(k, k.upper())) for n, k in enumerate(["a", "b"], 1)]
    after = [style.format_entry(str(n), _entry(k, k.upper())) for n, k in enumerate(["new", "a", "b"], 1)]
    assert calls == ["a", "b", "new"]
    assert [(f.key, f.label) for f in after] == [("new", "1"), ("a", "2"), ("b", "3")]
    assert [f.text.render_as("text") for f in after[1:]] == [f.text.render_as("text") for f in before]


def test_the_cache_is_unpickled_with_the_collector_paused_and_saved_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10,000 entries' rich texts unpickled with the collector running took three times as
    long; a build may load the file while another saves it, so it is replaced, never rewritten."""
    import gc
    import os
    import pickle

    build = Build([])
    build.text("1", _entry("a", "Pipelines"))
    build.cache.save(tmp_path)
    seen: list[bool] = []
    loads = pickle.loads

    def watched(data: bytes) -> Any:
        seen.append(gc.isenabled())
        return loads(data)

    old = (tmp_path / bibcache.FILE).stat().st_ino
    again = bibcache.Cache()
    with monkeypatch.context() as patched:
        patched.setattr(pickle, "loads", watched)
        again.load(tmp_path)
    assert seen == [False] and gc.isenabled() and len(again.entries) == 1
    Build([], again).text("2", _entry("b", "Graphs"))  # a second entry: the file changes
    again.save(tmp_path)
    assert (tmp_path / bibcache.FILE).stat().st_ino != old
    assert not [p for p in os.listdir(tmp_path) if p != bibcache.FILE]  # no temporary file left


def test_the_cache_is_loaded_before_sphinx_waits_for_the_pages() -> None:
    """The cache is Sphinx's own (the doctree folder) and depends on no generated page: loaded
    while the generator runs, not after it, when the build waits on it (Sphinx calls the
    handlers of one event by priority, lowest first)."""
    from readinglist.site.sphinx_ext import bibliography, generation

    priority: dict[Any, int] = {}

    class App:
        def connect(self, name: str, handler: Any, priority_: int = 500, **kwargs: int) -> None:
            if name == "builder-inited":
                priority[handler] = kwargs.get("priority", priority_)

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    bibliography.setup(App())  # type: ignore[arg-type]
    generation.setup(App())  # type: ignore[arg-type]
    assert priority[bibliography._load] < priority[generation._wait_for_pages]
