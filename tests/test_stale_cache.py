"""The one cache (readinglist.cache): keys made of what is passed, results that are never stale.

A key is a digest of the inputs as passed: a path by its bytes (not its name), a frozen record
by every field, anything else by its repr, and the code's digest always. A result is served
only under the key it was made under, intact and of the expected type; anything else is made
again. The stale-setting test (test_stale_settings.py) checks the whole generator this way.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist import cache


@dataclass(frozen=True)
class Inputs:
    text: Path
    number: int
    words: tuple[str, ...]


values = st.one_of(st.integers(), st.text(), st.booleans(), st.floats(allow_nan=False), st.tuples(st.text()))


@given(a=values, b=values)
def test_two_inputs_share_a_key_only_when_equal(a: object, b: object) -> None:
    same = repr(a) == repr(b)
    assert (cache.key_of("kind", a) == cache.key_of("kind", b)) == same
    assert cache.key_of("kind", a) != cache.key_of("other kind", a)


def test_a_path_is_keyed_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    one, two = tmp_path / "one.toml", tmp_path / "two.toml"
    one.write_text("a = 1\n", encoding="utf-8")
    two.write_text("a = 1\n", encoding="utf-8")
    assert cache.key_of("k", one) == cache.key_of("k", two)
    before = cache.key_of("k", one)
    one.write_text("a = 2\n", encoding="utf-8")
    assert cache.key_of("k", one) != before
    assert cache.key_of("k", tmp_path / "missing") != before  # an absent file is an input too


@given(number=st.integers(), words=st.lists(st.text(), max_size=3))
def test_every_field_of_a_record_is_in_its_key(number: int, words: list[str]) -> None:
    record = Inputs(Path("/nonexistent/input"), number, tuple(words))
    key = cache.key_of("k", record)
    assert cache.key_of("k", replace(record, number=number + 1)) != key
    assert cache.key_of("k", replace(record, words=(*words, "more"))) != key


def test_the_code_is_in_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.key_of("k", 1)
    monkeypatch.setattr(cache, "code_digest", lambda: "another version")
    assert cache.key_of("k", 1) != before


def test_a_result_is_served_under_its_key_only(tmp_path: Path) -> None:
    made: list[int] = []

    def make(n: int) -> list[int]:
        made.append(n)
        return [n]

    store = cache.Store.open(tmp_path)
    assert store.cached("k", list, make, 1)[::2] == ([1], True)
    store.save()
    again = cache.Store.open(tmp_path)
    assert again.cached("k", list, make, 1)[::2] == ([1], False)  # served from the file
    assert again.cached("k", list, make, 2)[::2] == ([2], True)  # another input: made
    assert again.get("k", cache.key_of("k", 2), dict) is None  # not of the expected type
    assert made == [1, 2]


@pytest.mark.parametrize("damage", [b"", b"readinglist-cache 1\n", b"garbage", b"readinglist-cache 1\n\x80\x05junk"])
def test_a_damaged_file_is_an_empty_cache(tmp_path: Path, damage: bytes) -> None:
    store = cache.Store.open(tmp_path)
    store.put("k", "key", [1])
    store.save()
    (tmp_path / cache.FILE).write_bytes(damage)
    assert cache.Store.open(tmp_path).entries == {}


def test_a_result_not_asked_for_is_written_back_unread(tmp_path: Path) -> None:
    store = cache.Store.open(tmp_path)
    store.put("kept", "key", {"big": "result"})
    store.save()
    again = cache.Store.open(tmp_path)
    again.put("other", "key", [2])
    again.save()
    last = cache.Store.open(tmp_path)
    assert last.get("kept", "key", dict) == {"big": "result"} and last.get("other", "key", list) == [2]


def _save_many(folder: str, kind: str) -> None:
    for n in range(30):
        store = cache.Store.open(Path(folder))
        store.put(kind, "key", list(range(n * 100)))
        store.save()


def test_concurrent_saves_leave_a_whole_file(tmp_path: Path) -> None:
    """Two processes saving at once (no lock held, the worst case): every read sees a whole
    file, one writer's or the other's, never a torn one (atomic renames, readinglist.writer)."""
    writers = [multiprocessing.Process(target=_save_many, args=(str(tmp_path), k)) for k in ("a", "b")]
    for w in writers:
        w.start()
    seen = []
    while any(w.is_alive() for w in writers):
        if (tmp_path / cache.FILE).exists():
            seen.append(cache.Store.open(tmp_path).entries)
    for w in writers:
        w.join()
        assert w.exitcode == 0
    assert all(entries for entries in seen)  # a file that exists always reads whole
