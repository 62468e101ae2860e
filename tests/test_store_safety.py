"""refs.bib under concurrency, kills and hostile files: the lock, the changed-since-read check,
leftover temporary files, the file's mode, and one-line errors for files BibTeX reads wrongly."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from readinglist.cli import main
from readinglist.errors import Code, ReadingListError
from readinglist.model import RawRecord
from readinglist.sources import read_dump
from readinglist.store import bibfile, importer
from readinglist.store.identity import Matcher

HAND_EDIT = "\n@misc{mine,\n  title = {By hand},\n}\n"


def _words(seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 9))) for _ in range(2000)]


def _sentence(rng: random.Random, words: list[str], length: int) -> str:
    return " ".join(rng.choice(words) for _ in range(length)).capitalize()


def pairs_dump(path: Path, owner: str, count: int, seed: int) -> Path:
    """An author-profile dump (owner line, then author line / abstract pairs) of ``count`` papers."""
    rng, words = random.Random(seed), _words(seed)
    lines = [owner, ""]
    for i in range(count):
        lines += [f"{owner}, Coauthor {chr(65 + i % 26)}ronson et al.", "", _sentence(rng, words, 50) + ".", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def listing_dump(path: Path, owner: str, count: int, seed: int) -> Path:
    """An arXiv-listing dump (year, title, abstract, category blocks) of ``count`` papers."""
    rng, words = random.Random(seed), _words(seed)
    lines = [f"Publications and source records attributed to {owner}.", ""]
    for _ in range(count):
        lines += [
            f"arXiv{rng.randint(2015, 2024)}",
            _sentence(rng, words, 8),
            _sentence(rng, words, 50) + ".",
            "cs.DC↗",
            "",
        ]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def dumps(tmp_path: Path) -> tuple[Path, Path]:
    return pairs_dump(tmp_path / "ada.txt", "Ada Owner", 300, 1), listing_dump(
        tmp_path / "bea.txt", "Bea Owner", 300, 2
    )


def _sources_in(bib: Path) -> set[tuple[str, int]]:
    return {(s.file, s.line) for w in bibfile.load(bib).works() for s in w.sources}


def _records_of(*dumps: Path) -> set[tuple[str, int]]:
    return {(r.source.file, r.source.line) for d in dumps for r in read_dump(d, d.name)}


def _editing_during_merge(monkeypatch: pytest.MonkeyPatch, bib: Path, times: int) -> list[int]:
    """Make a "person" append an entry to refs.bib after the import read it, ``times`` times."""
    calls: list[int] = []
    original: Callable[..., object] = importer._merge_all

    def merge_then_edit(records: list[RawRecord], matcher: Matcher) -> object:
        result = original(records, matcher)
        if len(calls) < times:
            calls.append(1)
            with bib.open("a", encoding="utf-8") as handle:
                handle.write(HAND_EDIT.replace("mine", f"mine{len(calls)}"))
        return result

    monkeypatch.setattr(importer, "_merge_all", merge_then_edit)
    return calls


# --- the changed-since-read check -----------------------------------------------------------------


def test_hand_edit_saved_during_an_import_is_kept(
    tmp_path: Path, dumps: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bib = tmp_path / "refs.bib"
    importer.run([dumps[0]], bib, tmp_path)
    calls = _editing_during_merge(monkeypatch, bib, times=1)
    report = importer.run([dumps[1]], bib, tmp_path)
    assert calls == [1] and report.added == 300
    assert "mine1" in bibfile.load(bib).entries
    assert _sources_in(bib) == _records_of(*dumps)


def test_a_file_that_keeps_changing_stops_the_import_and_keeps_the_edits(
    tmp_path: Path, dumps: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    bib = tmp_path / "refs.bib"
    _editing_during_merge(monkeypatch, bib, times=importer.ATTEMPTS)
    with pytest.raises(ReadingListError) as error:
        importer.run([dumps[0]], bib, tmp_path)
    assert "\n" not in str(error.value) and (error.value.file, error.value.code) == (str(bib), Code.STORE_CHANGED)
    assert sorted(bibfile.load(bib).entries) == [f"mine{i}" for i in range(1, importer.ATTEMPTS + 1)]
    assert not list(tmp_path.glob(".refs.bib.*.tmp"))


# --- two real imports and a hand edit at once ---------------------------------------------------

# Runs the real command line in another process; after the merge (refs.bib read, not yet written)
# it says so with a file and waits for the test's "go", so the test can edit refs.bib at exactly
# that point and see the other import blocked on the lock meanwhile.
DRIVER = """
import os, sys, time
from pathlib import Path
from readinglist.cli import main
from readinglist.store import importer

flags, original = Path(sys.argv[1]), importer._merge_all

def paused(records, matcher):
    result = original(records, matcher)
    (flags / f"read-{os.getpid()}").touch()
    deadline = time.monotonic() + 60  # a safety valve only: the test says "go" long before
    while not (flags / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return result

importer._merge_all = paused
sys.exit(main(sys.argv[2:]))
"""


def _wait_for(condition: Callable[[], bool], processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + 60  # a safety valve, not a timing assertion
    while not condition():
        assert all(p.poll() is None for p in processes), "an import ended early"
        assert time.monotonic() < deadline, "the imports never reached the expected point"
        time.sleep(0.01)


@pytest.fixture
def run_imports(tmp_path: Path) -> Iterator[Callable[[list[Path]], list[subprocess.Popen[bytes]]]]:
    started: list[subprocess.Popen[bytes]] = []
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")

    def start(dumps: list[Path]) -> list[subprocess.Popen[bytes]]:
        for dump in dumps:
            err = (tmp_path / f"{dump.name}.err").open("wb")
            args = [str(tmp_path), "--root", str(tmp_path), "import", str(dump)]
            started.append(
                subprocess.Popen([sys.executable, str(driver), *args], stderr=err, stdout=subprocess.DEVNULL)
            )
        return started

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_two_imports_and_a_hand_edit_at_once_lose_nothing(
    tmp_path: Path, dumps: tuple[Path, Path], run_imports: Callable[[list[Path]], list[subprocess.Popen[bytes]]]
) -> None:
    bib = tmp_path / "refs.bib"
    processes = run_imports(list(dumps))
    errors = [tmp_path / f"{d.name}.err" for d in dumps]
    pids = [p.pid for p in processes]

    def one_read_the_other_waits() -> bool:
        read = [pid for pid in pids if (tmp_path / f"read-{pid}").exists()]
        assert len(read) < 2, "both imports read refs.bib at once: nothing keeps them apart"
        waiting = [e for e in errors if "waiting for another import" in e.read_text(encoding="utf-8")]
        return len(read) == 1 and len(waiting) == 1

    # One import has read refs.bib and holds the lock; the other waits for it; a person saves.
    _wait_for(one_read_the_other_waits, processes)
    with bib.open("a", encoding="utf-8") as handle:
        handle.write(HAND_EDIT)
    (tmp_path / "go").touch()
    assert [p.wait() for p in processes] == [0, 0], [e.read_text(encoding="utf-8") for e in errors]
    assert "mine" in bibfile.load(bib).entries
    assert _sources_in(bib) == _records_of(*dumps)
    assert len(bibfile.load(bib).entries) == 601
    assert not list(tmp_path.glob(".refs.bib.*.tmp"))


# --- temporary files and the file's mode ------------------------------------------------------------


def test_an_import_removes_temporary_files_of_killed_imports_only(tmp_path: Path, dumps: tuple[Path, Path]) -> None:
    killed = tmp_path / ".refs.bib.k1ll3d_.tmp"
    other = tmp_path / ".notes.md.x8y9z0.tmp"
    killed.write_text("@misc{half", encoding="utf-8")
    other.write_text("not the store's", encoding="utf-8")
    importer.run([dumps[0]], tmp_path / "refs.bib", tmp_path)
    assert not killed.exists() and other.exists()


def test_an_import_keeps_the_mode_of_refs_bib(tmp_path: Path, dumps: tuple[Path, Path]) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("", encoding="utf-8")
    bib.chmod(0o664)
    importer.run([dumps[0]], bib, tmp_path)
    assert (bib.stat().st_mode & 0o777, len(bibfile.load(bib).entries)) == (0o664, 300)


def test_a_new_refs_bib_gets_the_umask_mode(tmp_path: Path, dumps: tuple[Path, Path]) -> None:
    old = os.umask(0o002)
    try:
        importer.run([dumps[0]], tmp_path / "refs.bib", tmp_path)
    finally:
        os.umask(old)
    assert (tmp_path / "refs.bib").stat().st_mode & 0o777 == 0o664


# --- one-line errors for files that cannot be read ------------------------------------------------


def _error(bib: Path) -> ReadingListError:
    with pytest.raises(ReadingListError) as error:
        bibfile.load(bib)
    assert "\n" not in str(error.value) and error.value.file == str(bib)
    return error.value


@pytest.mark.parametrize("year", ["²⁰²⁰", "٢٠٢٠", "2020²", "1" * 5000])
def test_a_year_that_is_not_ascii_digits_is_an_unknown_year(tmp_path: Path, year: str) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(f"@misc{{a,\n  title = {{A}},\n  year = {{{year}}},\n}}\n", encoding="utf-8")
    assert [w.year for w in bibfile.load(bib).works()] == [None]


def test_refs_bib_being_a_folder_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "refs.bib").mkdir()
    assert _error(tmp_path / "refs.bib").code == Code.UNREADABLE
    dump = pairs_dump(tmp_path / "ada.txt", "Ada Owner", 2, 1)
    assert main(["--root", str(tmp_path), "import", str(dump)]) == 1
    assert capsys.readouterr().err.strip().endswith("refs.bib: cannot read: Is a directory [readinglist.unreadable]")


def test_an_unreadable_refs_bib_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a,\n  title = {A},\n}\n", encoding="utf-8")
    bib.chmod(0)
    if os.access(bib, os.R_OK):  # root reads anything: make the open fail as it would for a user
        real_open = os.open

        def denied(path: str | Path, *args: int, **kwargs: int) -> int:
            if Path(path) == bib:
                raise PermissionError(13, "Permission denied")
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", denied)
    assert str(_error(bib)) == f"{bib}: cannot read: Permission denied [readinglist.unreadable]"


# --- BibTeX that pybtex reads differently from what the person meant -------------------------------


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        ("  title = {A},\n  year = {2020},\n  title = {B},\n", 3, "title"),
        ("  Title = {A},\n  title = {B},\n", 2, "title"),
        ("  author = {X and Y},\n  note = {a, author = b},\n  AUTHOR = {Z},\n", 3, "author"),
        ('  year = 2020, title = "A, title = {x}", title = {B}\n', 1, "title"),
    ],
    ids=["title", "case", "author", "one-line"],
)
def test_a_duplicate_field_names_the_entry_the_field_and_its_line(
    tmp_path: Path, body: str, line: int, field: str
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(f"@misc{{first,\n  title = {{F}},\n}}\n\n@misc{{k1,\n{body}}}\n", encoding="utf-8")
    error = _error(bib)  # the body starts on line 6
    assert (error.line, error.code) == (line + 5, Code.BAD_BIBTEX)
    assert error.message == f"entry 'k1' has a duplicate '{field}' field"  # which entry and field: the point


@pytest.mark.parametrize(
    ("text", "line", "after"),
    [
        ("@misc{a,\n  title = {A}},\n  year = {2020},\n}\n", 2, 3),
        ("@misc{a,\n  title = {A},\n  year = {2020}},\n}\n", 3, 4),
        ("@misc{z,\n  title = {Z},\n}\n\n@misc{a,\n  title = {A}}\n  year = {2020}\n}\n", 6, 7),
    ],
    ids=["middle-field", "last-field", "second-entry"],
)
def test_an_extra_closing_brace_inside_an_entry_is_reported(tmp_path: Path, text: str, line: int, after: int) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(text + "\n@misc{b,\n  title = {B},\n}\n", encoding="utf-8")
    error = _error(bib)
    assert (error.line, error.code) == (line, Code.BAD_BIBTEX)
    assert f"(line {after})" in error.message and "extra '}'" in error.message  # the likely fix, named


def test_fields_outside_any_entry_are_reported(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("Notes on my list\n\n  title = {Lost},\n\n@misc{b,\n  title = {B},\n}\n", encoding="utf-8")
    assert (_error(bib).line, _error(bib).code) == (3, Code.BAD_BIBTEX)


def test_comments_between_entries_are_still_fine(tmp_path: Path) -> None:
    text = (
        "% my list {work in progress}}\n@comment{jabref-meta: x = {y};}\n\n"
        "Some words, braces {like these} and a comma, or two.\n\n"
        "@string{me = {Ada}}\n@misc{b,\n  title = {B} # { and more},\n  note = me,\n}\n"
    )
    (tmp_path / "refs.bib").write_text(text, encoding="utf-8")
    assert list(bibfile.load(tmp_path / "refs.bib").entries) == ["b"]


def test_an_import_writes_through_a_symlinked_refs_bib(tmp_path: Path) -> None:
    """refs.bib may link into a synced folder: the linked file changes, the link stays a link."""
    from readinglist.store import importer

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "lib.bib").write_text("@misc{mine,\n  title = {By hand},\n}\n", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.symlink_to(shared / "lib.bib")
    source = tmp_path / "new.bib"
    source.write_text("@article{z,\n  author = {E, F},\n  title = {Zeta paper},\n  year = {2021},\n}\n")
    importer.run([source], bib, tmp_path)
    assert bib.is_symlink()
    text = (shared / "lib.bib").read_text(encoding="utf-8")
    assert "By hand" in text and "Zeta paper" in text
