"""``sync zotero --prune`` removes entries through the store (store/remove.py): under its lock,
over the bytes it read, never over a hand edit saved meanwhile, and never an entry that holds
another source (one a person wrote and the sync merged into)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from readinglist.config import load_config
from readinglist.errors import Code, ReadingListError
from readinglist.fetch import zotero_state
from readinglist.fetch.zotero_sync import Options, run
from readinglist.project import init
from readinglist.store import bibfile, remove
from zotero_kit import FakeZotero, item, served

KEY = "k3y"
OURS = "zotero/users/1/items/ITEM0001"
BIB = (
    "% my own comment\n"
    "@article{mine, title = {Mine}, author = {Lee, Ann}, year = {2001}}\n\n"
    "@article{gone, title = {Gone}, author = {Lee, Bo}, year = {2002},\n"
    f"  provenance = {{{OURS}:1 {{zotero}}}}\n}}\n\n"
    "@article{both, title = {Both}, author = {Lee, Cy}, year = {2003},\n"
    f"  provenance = {{mine.bib:4; {OURS.replace('1', '2')}:1 {{zotero}}}}\n}}\n"
)
EDIT = "@misc{typed, title = {Typed while the sync ran}}\n"


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def _keys(path: Path) -> set[str]:
    return {work.key for work in bibfile.load(path).works()}


def test_only_an_entry_from_the_named_source_alone_is_removed_and_the_rest_keeps_its_bytes(bib: Path) -> None:
    wanted = {"gone": OURS, "both": OURS.replace("1", "2"), "mine": OURS, "absent": OURS}
    removal = remove.remove_entries(bib, wanted)
    assert (removal.removed, removal.kept) == (("gone",), ("both", "mine"))
    text = bib.read_text(encoding="utf-8")
    assert "@article{gone" not in text and text.startswith("% my own comment\n@article{mine, title = {Mine}")
    assert text.replace(BIB.split("@article{gone")[1].split("@article{both")[0], "") == text  # nothing else moved


def test_a_hand_edit_saved_between_the_read_and_the_write_is_kept(bib: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decide, edits = remove._decide, [EDIT]

    def edited_meanwhile(store: Any, wanted: Any) -> Any:
        result = decide(store, wanted)  # refs.bib is read and parsed: now the owner saves an edit
        if edits:
            bib.write_text(bib.read_text(encoding="utf-8") + edits.pop(), encoding="utf-8")
        return result

    monkeypatch.setattr(remove, "_decide", edited_meanwhile)
    removal = remove.remove_entries(bib, {"gone": OURS})
    assert removal.removed == ("gone",) and not edits
    assert _keys(bib) == {"mine", "both", "typed"}  # the edit survives; the removal ran again over it
    assert bib.read_text(encoding="utf-8").endswith(EDIT)


def test_a_file_that_keeps_changing_is_one_error_and_keeps_every_edit(
    bib: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decide, saved = remove._decide, list[str]()

    def always_edited(store: Any, wanted: Any) -> Any:
        result = decide(store, wanted)
        saved.append(f"@misc{{edit{len(saved)}, title = {{Edit}}}}\n")
        bib.write_text(bib.read_text(encoding="utf-8") + saved[-1], encoding="utf-8")
        return result

    monkeypatch.setattr(remove, "_decide", always_edited)
    with pytest.raises(ReadingListError) as error:
        remove.remove_entries(bib, {"gone": OURS})
    assert error.value.code == Code.STORE_CHANGED
    assert _keys(bib) == {"mine", "gone", "both"} | {f"edit{n}" for n in range(remove.ATTEMPTS)}


@pytest.fixture
def zotero() -> Iterator[tuple[FakeZotero, str]]:
    library = FakeZotero(KEY)
    with served(library) as url:
        yield library, url


def test_prune_keeps_the_owners_entry_the_sync_merged_into(
    zotero: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library, url = zotero
    root = tmp_path / "list"
    init(root)
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    title = item(1)["title"]
    (root / "refs.bib").write_text(f"@article{{mine2001, title = {{{title}}}, doi = {{10.1234/example.1}}}}\n")
    library.put(item(1))
    library.put(item(2))
    options = Options("users/1", api_url=url, prune=True)
    run(load_config(root), options)
    keys = zotero_state.load_state(root).keys
    assert keys["ITEM0001"] == "mine2001"
    library.delete("ITEM0001")
    library.delete("ITEM0002")
    summary = run(load_config(root), options)
    assert _keys(root / "refs.bib") == {"mine2001"}  # the owner's entry stays; the sync's own is gone
    assert sorted(line.split(", ", 1)[1] for line in summary.removed) == [
        "kept: its entry in refs.bib holds another source too",
        "removed (--prune)",
    ]
    assert zotero_state.load_state(root).keys == {}
