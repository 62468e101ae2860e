"""The bibliography cache: an unchanged entry is formatted once, a changed one again, identically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pybtex.plugin
import pytest
from pybtex.database import Entry, Person
from pybtex.style import FormattedEntry

from readinglist.site import bibcache


@pytest.fixture
def style(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[str]]:
    """A caching "plain" style whose base counts its calls."""
    base = pybtex.plugin.find_plugin(bibcache.GROUP, "plain")
    calls: list[str] = []

    class Counting(base):  # type: ignore[valid-type,misc]
        def format_entry(self, label, entry, bib_data=None):  # type: ignore[no-untyped-def]
            calls.append(entry.key)
            return super().format_entry(label, entry, bib_data)

    monkeypatch.setattr(bibcache, "CACHE", bibcache.Cache())
    return bibcache.caching(Counting)(), calls


def _entry(key: str, title: str) -> Entry:
    entry = Entry("article", fields={"title": title, "journal": "J", "year": "2020"})
    entry.key = key
    entry.persons["author"] = [Person("Lin, Wei")]
    return entry


def _text(formatted: FormattedEntry) -> str:
    text = formatted.text.render_as("text")
    assert isinstance(text, str)
    return text


def test_unchanged_entries_are_formatted_once(
    style: tuple[Any, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached, calls = style
    first = _text(cached.format_entry("1", _entry("a", "Pipelines")))
    bibcache.CACHE.save(tmp_path)
    monkeypatch.setattr(bibcache, "CACHE", bibcache.Cache())  # a new build: only what was saved survives
    bibcache.CACHE.load(tmp_path)
    again = _text(cached.format_entry("1", _entry("a", "Pipelines")))
    assert again == first and "Pipelines" in first
    assert calls == ["a"]


@pytest.mark.parametrize("change", ["title", "label", "author"])
def test_a_changed_entry_is_formatted_again(style: tuple[Any, list[str]], change: str) -> None:
    cached, calls = style
    cached.format_entry("1", _entry("a", "Pipelines"))
    entry = _entry("a", "Graphs" if change == "title" else "Pipelines")
    if change == "author":
        entry.persons["author"] = [Person("Liu, Xin")]
    formatted = cached.format_entry("2" if change == "label" else "1", entry)
    assert calls == ["a", "a"]
    assert ("Graphs" in _text(formatted)) == (change == "title")
    assert ("Liu" in _text(formatted)) == (change == "author")


def test_the_saved_cache_keeps_only_the_entries_in_use(style: tuple[Any, list[str]], tmp_path: Path) -> None:
    cached, _ = style
    cached.format_entry("1", _entry("a", "Pipelines"))
    cached.format_entry("2", _entry("b", "Graphs"))
    bibcache.CACHE.save(tmp_path)
    cached.format_entry("1", _entry("a", "Pipelines"))  # b was removed
    bibcache.CACHE.save(tmp_path)
    bibcache.CACHE.load(tmp_path)
    assert [k[2] for k in bibcache.CACHE.entries] == ["a"]


def test_a_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    (tmp_path / bibcache.FILE).write_bytes(b"not a pickle")
    cache = bibcache.Cache()
    cache.load(tmp_path)
    assert cache.entries == {}
