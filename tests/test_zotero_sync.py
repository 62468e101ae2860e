"""``readinglist sync zotero`` against a local server that answers as the Zotero Web API v3 does
(``zotero_kit.FakeZotero``: paging, ``since``, 304, deletions, collections, a wrong key, another
library, 429 with ``Backoff``). No test reaches the network.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from readinglist.cli import main
from readinglist.config import load_config
from readinglist.fetch import zotero_state
from readinglist.fetch.zotero_sync import Options, run
from readinglist.project import init
from readinglist.render import zotero as from_zotero
from readinglist.sources import zotero_items
from readinglist.store import bibfile
from zotero_kit import FakeZotero, item, notes_and_highlights, served

KEY = "s3cretKEY"


@pytest.fixture
def zotero() -> Iterator[tuple[FakeZotero, str]]:
    library = FakeZotero(KEY)
    with served(library) as url:
        yield library, url


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "list"
    init(root)
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    return root


def sync(root: Path, url: str, **options: Any) -> Any:
    waits: list[float] = options.pop("waits", [])
    return run(load_config(root), Options("users/1", api_url=url, sleep=waits.append, **options))


def synced_items(library: FakeZotero, project: Path, url: str, count: int) -> dict[str, str]:
    """``count`` items put in the library and synced; each item's citation key."""
    for n in range(count):
        library.put(item(n))
    sync(project, url)
    return zotero_state.load_state(project).keys


def files(root: Path) -> dict[str, int]:
    """Every file and its modification time; the store's lock file (the importer's, taken by a dry run too) aside."""
    found = (p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".lock"))
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in found}


def test_first_sync_imports_every_item_and_records_where_it_reached(zotero: Any, project: Path) -> None:
    library, url = zotero
    for n in range(250):
        library.put(item(n, extra="Citation Key: smith2019pipe" if n == 7 else ""))
    summary = sync(project, url)
    works = {w.key: w for w in bibfile.load(project / "refs.bib").works()}
    assert len(works) == 250
    assert "smith2019pipe" in works  # Better BibTeX's key is kept
    pages = [entry for entry in library.log if entry[0] == "/users/1/items"]
    assert [sent for _, _, sent in pages] == [100, 100, 50]  # 100 a page, following Link
    state = zotero_state.load_state(project)
    assert state.version == library.version and len(state.keys) == 250
    assert state.keys["ITEM0007"] == "smith2019pipe"
    assert len(summary.new) == 250


def test_a_second_sync_with_no_change_makes_one_request_and_writes_nothing(zotero: Any, project: Path) -> None:
    library, url = zotero
    for n in range(30):
        library.put(item(n))
    sync(project, url)
    before, asked = files(project), len(library.log)
    summary = sync(project, url)
    assert len(library.log) - asked == 1 and library.log[-1][1] == 304
    assert files(project) == before
    assert summary.up_to_date and "up to date" in summary.lines()[0]


def test_changes_additions_and_deletions_are_fetched_alone_and_each_reported(zotero: Any, project: Path) -> None:
    library, url = zotero
    keys = synced_items(library, project, url, 40)
    asked = len(library.log)
    for n in range(5):
        library.put(item(n, volume=str(n + 10)))  # changed upstream: a field refs.bib lacks
    for n in range(100, 103):
        library.put(item(n))
    for n in (20, 21):
        library.delete(f"ITEM{n:04d}")
    summary = sync(project, url)
    fetched = [entry for entry in library.log[asked:] if entry[0] == "/users/1/items"]
    assert [sent for _, _, sent in fetched] == [8]
    assert any(entry[0] == "/users/1/deleted" for entry in library.log[asked:])
    assert len(summary.new) == 3 and len(summary.changed) == 5 and len(summary.removed) == 2
    assert all("volume" in line for line in summary.changed)
    assert {keys["ITEM0020"], keys["ITEM0021"]} == {line.split("`")[1] for line in summary.removed}
    works = {w.key: w for w in bibfile.load(project / "refs.bib").works()}
    assert len(works) == 43  # deleted upstream, kept here without --prune
    assert dict(works[keys["ITEM0003"]].extra)["volume"] == "13"


def test_prune_removes_the_deleted_items(zotero: Any, project: Path) -> None:
    library, url = zotero
    gone = synced_items(library, project, url, 10)["ITEM0004"]
    library.delete("ITEM0004")
    summary = sync(project, url, prune=True)
    assert "removed (--prune)" in summary.removed[0]
    assert gone not in {w.key for w in bibfile.load(project / "refs.bib").works()}
    assert "ITEM0004" not in zotero_state.load_state(project).keys


def test_a_collection_and_its_subcollections_only_and_items_moved_out_are_reported(zotero: Any, project: Path) -> None:
    library, url = zotero
    library.collections = {"COLLAAAA": "", "SUBBBBBB": "COLLAAAA", "OTHERCCC": ""}
    library.put(item(1))
    library.put(item(2, collections=["SUBBBBBB"]))
    library.put(item(3, collections=["OTHERCCC"]))
    sync(project, url, collection="COLLAAAA")
    assert set(zotero_state.load_state(project).keys) == {"ITEM0001", "ITEM0002"}
    library.put(item(2, collections=["OTHERCCC"]))
    summary = sync(project, url, collection="COLLAAAA")
    assert len(summary.removed) == 1 and "kept in refs.bib" in summary.removed[0]


def test_backoff_and_429_are_waited_out_with_the_injected_sleep(zotero: Any, project: Path) -> None:
    library, url = zotero
    library.put(item(1))
    library.busy = 2
    waits: list[float] = []
    sync(project, url, waits=waits)
    # Each 429 said Retry-After 2 and Backoff 3: the longer wait, once, before each new try.
    assert waits == [pytest.approx(3.0, abs=0.5)] * 2
    assert len(bibfile.load(project / "refs.bib").works()) == 1
    assert [status for _, status, _ in library.log][:3] == [429, 429, 200]


def test_dry_run_prints_the_summary_and_writes_nothing(
    zotero: Any, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library, url = zotero
    library.put(item(1, title="A <i>sparse</i> schedule @someone #12"))
    before = files(project)
    code = main(["--root", str(project), "sync", "zotero", "--user", "1", "--api-url", url, "--dry-run"])
    out = capsys.readouterr().out
    assert code == 0 and files(project) == before
    assert "### New papers (1)" in out and "`A sparse schedule @someone #12`" in out


def _notes_library(library: FakeZotero) -> None:
    library.put(item(1))
    for child in notes_and_highlights("ITEM0001"):
        library.put(child)


def shown(root: Path, key: str) -> str:
    """What the page of ``key`` shows from Zotero: its "From Zotero" section, then its summary's highlights."""
    work = {w.key: w for w in bibfile.load(root / "refs.bib").works()}[key]
    found = from_zotero.of(work, from_zotero.load(root))
    marks = [f"{field}: {mark}" for field, items in found.marks().items() for mark in items]
    return "\n".join([from_zotero.section(found), *marks])


def test_a_note_and_three_highlights_are_kept_for_the_paper_page_and_no_file_is_written_in_docs(
    zotero: Any, project: Path
) -> None:
    library, url = zotero
    _notes_library(library)
    (project / "conf" / "zotero.toml").write_text('[highlights]\nyellow = "Key result"\n', encoding="utf-8")
    sync(project, url)
    assert not (project / "docs" / "_zotero").exists()
    text = shown(project, zotero_state.load_state(project).keys["ITEM0001"])
    assert text.startswith("## From Zotero")
    assert "Key results: “Highlighted claim 0” \\(highlighted on p\\. 3\\)" in text  # in the summary
    assert "Red highlight** \\(p\\. 5\\)" in text and "comment 2" in text  # under "From Zotero"
    assert "[that](<https://example.org/x>)" in text
    assert "javascript" not in text and "alert" not in text and "<" not in text.replace("(<https", "")


@pytest.mark.parametrize(
    ("key", "user", "url", "said"),
    [
        ("wrong", "1", None, "refused the key"),
        (KEY, "2", None, "no library users/2"),
        (KEY, "1", "http://127.0.0.1:9", "cannot reach the Zotero API"),
    ],
)
def test_a_bad_key_an_unknown_library_or_no_network_is_one_line_and_refs_bib_unchanged(
    zotero: Any,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str,
    user: str,
    url: str | None,
    said: str,
) -> None:
    library, served = zotero
    library.put(item(1))
    (project / "refs.bib").write_text("@misc{mine, title = {Mine}}\n", encoding="utf-8")
    before = files(project)
    monkeypatch.setenv("ZOTERO_API_KEY", key)
    code = main(["--root", str(project), "sync", "zotero", "--user", user, "--api-url", url or served])
    err = capsys.readouterr().err
    assert code == 1 and files(project) == before
    assert err.startswith("readinglist: error: zotero: ") and said in err and err.count("\n") == 1


def test_a_highlight_added_upstream_writes_only_the_notes_file(zotero: Any, project: Path) -> None:
    library, url = zotero
    _notes_library(library)
    for n in range(2, 6):
        library.put(item(n))
    sync(project, url)
    before = files(project)
    mark = {"annotationText": "A later claim", "annotationColor": "#2ea8e5", "annotationPageLabel": "9"}
    library.put({"key": "ANNO0009", "itemType": "annotation", "parentItem": "ATTA0001", **mark})
    summary = sync(project, url)
    key = zotero_state.load_state(project).keys["ITEM0001"]
    assert summary.children == [f"`{key}`: 1 new highlight"]
    after = files(project)
    assert sorted(name for name in after if after[name] != before.get(name)) == [
        "conf/zotero-notes.json",
        "conf/zotero-sync.toml",  # the library version reached
    ]
    assert "Blue highlight** \\(p\\. 9\\): “A later claim”" in shown(project, key)


def test_sections_written_by_an_older_sync_are_removed_and_no_other_file(zotero: Any, project: Path) -> None:
    library, url = zotero
    keys = synced_items(library, project, url, 3)
    old = project / "docs" / "_zotero"
    old.mkdir()
    for key in (keys["ITEM0000"], keys["ITEM0001"], "someone-elses"):
        (old / f"{key}.txt").write_text("## From Zotero\n", encoding="utf-8")
    library.put(item(2, volume="3"))
    summary = sync(project, url)
    assert sorted(p.name for p in old.iterdir()) == ["someone-elses.txt"]  # not a name the tool gave
    assert sum("_zotero" in path for path in summary.written) == 2


def test_an_item_moved_to_the_trash_is_reported_as_removed(zotero: Any, project: Path) -> None:
    library, url = zotero
    key = synced_items(library, project, url, 4)["ITEM0002"]
    library.put(item(2, deleted=1))  # the trash: not in /deleted, only a flag on the item
    summary = sync(project, url)
    assert [line.split("`")[1] for line in summary.removed] == [key]


def test_a_library_edited_while_its_pages_are_read_is_read_again(zotero: Any, project: Path) -> None:
    library, url = zotero
    for n in range(150):
        library.put(item(n))
    library.edit_while_read = 1
    sync(project, url)
    pages = [sent for path, _, sent in library.log if path == "/users/1/items"]
    assert pages == [100, 51, 100, 51]  # the version moved after page 1: the listing starts again
    assert zotero_state.load_state(project).version == library.version
    assert len(bibfile.load(project / "refs.bib").works()) == 151


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--user", "12a"], "--user takes a number"),
        (["--group", "1", "--collection", "abc"], "--collection takes a collection key"),
        (["--user", "1", "--api-url", "ftp://example.org"], "--api-url must be an http(s) URL"),
    ],
)
def test_bad_arguments_are_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert main(["--root", str(project), "sync", "zotero", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("readinglist: error: zotero: ") and said in err and err.count("\n") == 1


def test_local_reads_zotero_7s_local_api() -> None:
    from readinglist.fetch import zotero_cli

    args = zotero_cli.options(_parsed(["sync", "zotero", "--group", "7", "--local", "--prune"]))
    assert (args.library, args.api_url, args.prune, args.dry_run) == (
        "groups/7",
        "http://localhost:23119/api",
        True,
        False,
    )


def _parsed(argv: list[str]) -> Any:
    import argparse

    parser = argparse.ArgumentParser()
    from readinglist.fetch.zotero_cli import sync_parser

    sync_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_an_api_that_keeps_asking_to_wait_stops_with_one_line(
    zotero: Any, project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    library, url = zotero
    library.put(item(1))
    library.busy = 99
    waits: list[float] = []
    monkeypatch.setattr("readinglist.fetch.zotero_api.time.sleep", waits.append)
    before = files(project)
    assert main(["--root", str(project), "sync", "zotero", "--user", "1", "--api-url", url]) == 1
    err = capsys.readouterr().err
    assert "asked to wait 5 times in a row" in err and err.count("\n") == 1 and files(project) == before
    assert len(waits) == 4  # a wait between tries (Backoff 3 over Retry-After 2), through the sleep looked up then


def test_items_go_through_the_import_an_existing_entry_is_merged_and_hand_edits_win(zotero: Any, project: Path) -> None:
    library, url = zotero
    title = item(1)["title"]
    mine = f"@article{{mine2001,\n  title = {{{title}}},\n  author = {{Smith1, Ann}},\n"
    mine += "  doi = {10.1234/example.1}\n}\n"
    (project / "refs.bib").write_text(mine, encoding="utf-8")
    library.put(item(1))
    library.put(item(2))
    summary = sync(project, url)
    keys = zotero_state.load_state(project).keys
    assert keys["ITEM0001"] == "mine2001" and len(summary.new) == 1  # the same work: merged into the entry
    works = {w.key: w for w in bibfile.load(project / "refs.bib").works()}
    assert dict(works["mine2001"].extra)["journal"] == "Journal of Examples"  # what it lacked is filled in
    bib = project / "refs.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace(title, "My Own Title"), encoding="utf-8")  # a hand edit
    library.put(item(1, title="A retitled paper upstream"))
    summary = sync(project, url)
    assert summary.changed == ["`mine2001`: title"]
    assert {w.key: w for w in bibfile.load(bib).works()}["mine2001"].title == "My Own Title"  # the hand edit wins
    assert "ITEM0001" in {zotero_items.item_key_of(s.file) for s in works["mine2001"].sources}  # its page finds them


def test_recorded_api_items_become_records_and_a_section(zotero: Any, project: Path) -> None:
    """Items in the shapes the API documents (tests/fixtures/zotero/items.json): a book with a
    Better BibTeX key, a preprint with Zotero 7's citationKey, a note, a PDF, a highlight, an image
    annotation (no text: not shown), and an item in the trash (not imported)."""
    library, url = zotero
    recorded = json.loads((Path(__file__).parent / "fixtures" / "zotero" / "items.json").read_text(encoding="utf-8"))
    for entry in recorded:
        library.put(entry["data"])
    summary = sync(project, url)
    works = {w.key: w for w in bibfile.load(project / "refs.bib").works()}
    assert sorted(works) == ["cohen2006digital", "vaswani2017attention"] and not summary.removed
    book, preprint = works["cohen2006digital"], works["vaswani2017attention"]
    assert (book.entry_type, book.year, dict(book.extra)["publisher"], dict(book.extra)["address"]) == (
        "book",
        2006,
        "University of Pennsylvania Press",
        "Philadelphia",
    )
    assert (preprint.eprint, preprint.doi) == ("1706.03762", "10.48550/arXiv.1706.03762")
    text = shown(project, "cohen2006digital")
    assert (
        "Chapter 3 argues **for** *open* archives; see [the book's site](<https://chnm.gmu.edu/digitalhistory/>)"
        in (text.replace("\\", ""))
    )
    assert "- Preserve early\n- Publish often" in text and "(Cohen and Rosenzweig, 2006)" in text.replace("\\", "")
    assert "**Yellow highlight** \\(p\\. 12\\): “the past on the web is both fragile and abundant” — the book" in text
    assert "p\\. 14" not in text  # the image annotation has no text to show


def test_a_key_is_learnt_from_a_provenance_written_by_hand_too(zotero: Any, project: Path) -> None:
    library, url = zotero
    data = item(1)
    entry = f"@article{{handmade,\n  title = {{{data['title']}}},\n  doi = {{{data['DOI']}}},\n"
    entry += '  provenance = "zotero/users/1/items/ITEM0001:1 {zotero}"\n}\n'  # quoted, not braced as the store writes
    (project / "refs.bib").write_text(entry, encoding="utf-8")
    library.put(data)
    sync(project, url)
    assert zotero_state.load_state(project).keys == {"ITEM0001": "handmade"}


def test_the_summary_names_new_versions_and_keys_not_kept_by_their_final_keys(zotero: Any, project: Path) -> None:
    """From the import's structured report (``ImportReport.placed``), not its wording: a version of
    another paper new in the same sync is named by the key it got, not "the new record from …"."""
    library, url = zotero
    with (project / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write("\n@misc{taken2020,\n  title = {A paper written in by hand},\n  year = {2020},\n}\n")
    library.put(item(1))
    library.put(item(2, itemType="preprint", title=item(1)["title"], creators=item(1)["creators"], DOI="",
                     publicationTitle="", repository="arXiv", date="2000-06-01"))  # fmt: skip
    library.put(item(3, extra="Citation Key: taken2020"))
    summary = sync(project, url)
    keys = zotero_state.load_state(project).keys
    assert summary.versions == [f"`{item(1)['title']}` is a version of `{keys['ITEM0001']}`"], summary.lines()
    assert summary.keys == [f"`taken2020` → `{keys['ITEM0003']}` (the key asked for is taken or no valid BibTeX key)"]
    assert keys["ITEM0003"] != "taken2020" and len(summary.new) == 3
