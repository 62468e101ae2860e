"""refs.bib against writers that take no lock, with real processes: an in-place save (a shell
redirect), an appender that keeps the file open, a store the import may not write, and files that
are no regular file or too large (issue 31). The design is in docs/develop/reliability.md."""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from readinglist.errors import Code, ReadingListError
from readinglist.store import bibfile, importer

HAND = 60
IMPORTED = 40
CLI = [sys.executable, "-m", "readinglist"]
HANG = 60  # seconds: only to stop a hang, never a timing assertion


def _title(rng: random.Random) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8)) for _ in range(6))


def hand_bib(count: int = HAND) -> str:
    rng = random.Random(7)
    return "".join(f"@misc{{hand{i},\n  title = {{{_title(rng)}}},\n  year = {{2001}},\n}}\n\n" for i in range(count))


def csl_json(count: int = IMPORTED) -> str:
    rng = random.Random(8)
    items = [
        {
            "id": f"new{i}",
            "type": "article-journal",
            "title": _title(rng),
            "author": [{"family": f"Writer{chr(65 + i % 26)}", "given": "Ann"}],
            "issued": {"date-parts": [[2020]]},
        }
        for i in range(count)
    ]
    return json.dumps(items)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(hand_bib(), encoding="utf-8")
    (tmp_path / "new.json").write_text(csl_json(), encoding="utf-8")
    return tmp_path


def keys(bib: Path) -> list[str]:
    return [
        line[line.index("{") + 1 : line.index(",")] for line in bib.read_text().splitlines() if line.startswith("@")
    ]


@pytest.fixture
def background() -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
        process: subprocess.Popen[bytes] = subprocess.Popen(args, **kwargs)  # type: ignore[call-overload]
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < deadline, "the writer never reached the expected point"
        time.sleep(0.01)


def run_cli(root: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    command = [*CLI, "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=HANG, check=False, cwd=root, **kwargs)  # type: ignore[call-overload,no-any-return]


def one_line_error(result: subprocess.CompletedProcess[str], code: Code) -> str:
    assert result.returncode == 1, (result.stdout, result.stderr)
    # A notice that the command waited for a writer may come first: progress, not the error.
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("readinglist: waiting for")]
    assert len(lines) == 1 and lines[0].startswith("readinglist: error: "), result.stderr
    assert lines[0].endswith(f"[{code.shown}]"), result.stderr
    return lines[0]


def landed_or_refused(result: subprocess.CompletedProcess[str], bib: Path, hand: set[str]) -> None:
    """Every hand entry is kept; the import either merged into them or refused in one line."""
    found = keys(bib)
    assert hand <= set(found), f"lost {len(hand - set(found))} hand entries: {result.stderr}"
    assert len(found) == len(set(found))
    if result.returncode == 0:
        assert len(found) == len(hand) + IMPORTED, result.stderr
    else:
        one_line_error(result, Code.STORE_BUSY)
        assert len(found) == len(hand)


# --- writers that take no lock ------------------------------------------------------------------


def test_an_import_during_an_in_place_save_keeps_every_hand_entry(
    project: Path, background: Callable[..., subprocess.Popen[bytes]]
) -> None:
    bib = project / "refs.bib"
    shutil.copy(bib, project / "saved.bib")
    # The shell truncates refs.bib at once and writes it back a moment later, as in the report.
    writer = background("sh", "-c", "(sleep 1; cat saved.bib) > refs.bib", cwd=project)
    wait_until(lambda: bib.stat().st_size == 0)
    result = run_cli(project, "import", "new.json")
    assert writer.wait(HANG) == 0
    landed_or_refused(result, bib, {f"hand{i}" for i in range(HAND)})


def test_an_append_held_open_across_an_import_is_kept(
    project: Path, background: Callable[..., subprocess.Popen[bytes]]
) -> None:
    bib = project / "refs.bib"
    script = 'for i in 1 2 3; do printf "@misc{app$i,\\n  title = {Appended by hand $i},\\n}\\n\\n"; sleep 0.4; done'
    writer = background("sh", "-c", f"({script}) >> refs.bib", cwd=project)
    wait_until(lambda: "app1" in bib.read_text())
    result = run_cli(project, "import", "new.json")
    assert writer.wait(HANG) == 0
    landed_or_refused(result, bib, {f"hand{i}" for i in range(HAND)} | {"app1", "app2", "app3"})


# Runs the command line with a short wait for a writer to finish, so a writer that outlasts it
# is refused without the test waiting ten seconds.
SHORT_WAIT = (
    "import sys; from readinglist.store import busy; busy.WAIT = 0.3; "
    "from readinglist.cli import main; sys.exit(main(sys.argv[1:]))"
)


def test_a_writer_that_keeps_refs_bib_open_stops_the_import_in_one_line(
    project: Path, background: Callable[..., subprocess.Popen[bytes]]
) -> None:
    bib = project / "refs.bib"
    before = bib.read_bytes()
    holder = background("sh", "-c", "exec 3>>refs.bib; touch held; sleep 60", cwd=project)
    wait_until(lambda: (project / "held").exists())
    command = [sys.executable, "-c", SHORT_WAIT, "--root", str(project), "import", "new.json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=HANG, check=False, cwd=project)
    line = one_line_error(result, Code.STORE_BUSY)
    assert f"is open for writing by PID {holder.pid} (sh)" in line
    assert bib.read_bytes() == before and not list(project.glob(".refs.bib.*.tmp"))


def test_an_append_between_the_check_and_the_rename_is_put_back_and_merged(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last gap: a process that opens, appends and closes in the instant before the rename."""
    bib = project / "refs.bib"
    original = importer._ready_to_replace

    def then_append(*args: object) -> None:
        original(*args)  # type: ignore[arg-type]
        if "late" not in bib.read_text():
            with bib.open("a", encoding="utf-8") as handle:
                handle.write("@misc{late,\n  title = {Saved in the last instant},\n}\n")

    monkeypatch.setattr(importer, "_ready_to_replace", then_append)
    report = importer.run([project / "new.json"], bib, project)
    found = keys(bib)
    assert set(found) >= {f"hand{i}" for i in range(HAND)} | {"late"}
    assert len(found) == HAND + IMPORTED + 1 and report.added == IMPORTED


def test_a_writer_that_opens_refs_bib_just_before_the_rename_is_kept(
    project: Path, monkeypatch: pytest.MonkeyPatch, background: Callable[..., subprocess.Popen[bytes]]
) -> None:
    """It writes into the file the rename replaces: the import waits for it, puts its bytes back, merges again."""
    bib = project / "refs.bib"
    original = importer._ready_to_replace
    entry = "@misc{held,\\n  title = {Written into the replaced file},\\n}\\n"
    started: list[subprocess.Popen[bytes]] = []

    def then_open(*args: object) -> None:
        original(*args)  # type: ignore[arg-type]
        if not started:
            script = f"exec 3>>refs.bib; touch opened; sleep 0.3; printf '{entry}' >&3"
            started.append(background("sh", "-c", script, cwd=project))
            wait_until(lambda: (project / "opened").exists())

    monkeypatch.setattr(importer, "_ready_to_replace", then_open)
    report = importer.run([project / "new.json"], bib, project)
    assert started[0].wait(HANG) == 0
    found = keys(bib)
    assert set(found) >= {f"hand{i}" for i in range(HAND)} | {"held"}
    assert len(found) == HAND + IMPORTED + 1 and report.added == IMPORTED


# --- a store the import may not write -------------------------------------------------------------


def test_a_read_only_refs_bib_is_refused_in_one_line(project: Path) -> None:
    bib = project / "refs.bib"
    bib.chmod(0o444)
    before = bib.read_bytes()
    line = one_line_error(run_cli(project, "import", "new.json"), Code.UNWRITABLE)
    assert f"{bib}: " in line
    assert bib.read_bytes() == before and stat.S_IMODE(bib.stat().st_mode) == 0o444


NOBODY = 65534
# The interpreter and its packages may live where only root can read (/root/.pyenv): the driver
# first imports into a scratch folder as root, which loads every module an import uses, then
# becomes ``nobody`` and runs the command line.
AS_NOBODY = """
import contextlib, io, os, shutil, sys, tempfile
from readinglist.cli import main
warm = tempfile.mkdtemp()
with contextlib.redirect_stdout(io.StringIO()):
    main(["--root", warm, "import", sys.argv[1]])
shutil.rmtree(warm)
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
sys.exit(main(sys.argv[2:]))
"""


def run_as_nobody(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", AS_NOBODY, str(root / args[-1]), "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=HANG, check=False, cwd=root)


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder user ``nobody`` can write into (pytest's own folder is root's alone)."""
    if os.geteuid() != 0:
        pytest.skip("needs root, to run the import as another user")
    folder = Path(tempfile.mkdtemp(prefix="readinglist-shared-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def test_a_read_only_refs_bib_is_refused_for_its_owner(shared_folder: Path) -> None:
    bib = shared_folder / "refs.bib"
    bib.write_text(hand_bib(), encoding="utf-8")
    (shared_folder / "new.json").write_text(csl_json(), encoding="utf-8")
    os.chown(bib, NOBODY, NOBODY)
    bib.chmod(0o444)
    one_line_error(run_as_nobody(shared_folder, "import", "new.json"), Code.UNWRITABLE)
    assert bib.read_text() == hand_bib() and stat.S_IMODE(bib.stat().st_mode) == 0o444


def test_a_shared_refs_bib_keeps_its_owner(shared_folder: Path) -> None:
    """``alice:team 664``, imported into by Bob of team: refused, naming the owner, not taken over."""
    bib = shared_folder / "refs.bib"
    bib.write_text(hand_bib(), encoding="utf-8")
    (shared_folder / "new.json").write_text(csl_json(), encoding="utf-8")
    os.chown(bib, 0, NOBODY)
    bib.chmod(0o664)
    result = run_as_nobody(shared_folder, "import", "new.json")
    assert "owned by root" in one_line_error(result, Code.UNWRITABLE)
    info = bib.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (0, NOBODY, 0o664)
    assert bib.read_text() == hand_bib() and not list(shared_folder.glob(".refs.bib.*.tmp"))


def test_root_keeps_the_owner_and_group_of_refs_bib(project: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    bib = project / "refs.bib"
    os.chown(bib, NOBODY, NOBODY)
    importer.run([project / "new.json"], bib, project)
    assert (bib.stat().st_uid, bib.stat().st_gid, len(keys(bib))) == (NOBODY, NOBODY, HAND + IMPORTED)


# --- files that are no regular file, or too large -------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    subprocess.run([*CLI, "init", str(root)], check=True, capture_output=True, timeout=HANG)
    (root / "new.json").write_text(csl_json(3), encoding="utf-8")
    return root


def files(root: Path) -> dict[str, tuple[int, int]]:
    """Every file but the lock sidecars (and folders, which hold them), with its size and modification time."""
    return {
        p.relative_to(root).as_posix(): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in root.rglob("*")
        if not p.name.endswith(".lock") and not p.is_dir()
    }


def _fifo(bib: Path) -> None:
    os.mkfifo(bib)


def _zero(bib: Path) -> None:
    bib.symlink_to("/dev/zero")


def _huge(bib: Path) -> None:
    with bib.open("wb") as handle:
        handle.truncate(20 * 1024**3)  # sparse: 20 GB long, no block on disk


def _capped(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line in ``site`` under ``ulimit -v``: a read of a whole huge file fails at once
    with MemoryError instead of swapping."""
    command = " ".join([*CLI, "--root", str(site), *args])
    return subprocess.run(
        ["sh", "-c", f"ulimit -v 4000000; exec {command}"],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
        cwd=site,
    )


@pytest.mark.parametrize(
    ("make", "code", "problem"),
    [
        (_fifo, Code.UNREADABLE, "not a regular file (a FIFO)"),
        (_zero, Code.UNREADABLE, "not a regular file (a device)"),
        (_huge, Code.TOO_LARGE, "too large"),
    ],
    ids=["fifo", "dev-zero", "20-GB"],
)
@pytest.mark.parametrize("command", ["import", "generate"])
def test_a_refs_bib_that_is_no_regular_file_or_too_large_is_one_line(
    site: Path, make: Callable[[Path], None], code: Code, problem: str, command: str
) -> None:
    bib = site / "refs.bib"
    bib.unlink()
    make(bib)
    before = files(site)
    result = _capped(site, command, *(["new.json"] if command == "import" else []))
    assert problem in one_line_error(result, code)
    assert files(site) == before


def test_a_20_gb_source_is_one_line(site: Path) -> None:
    _huge(site / "big.bib")
    result = _capped(site, "import", "big.bib")
    assert "too large" in one_line_error(result, Code.TOO_LARGE)


# --- a half-saved refs.bib read by generate --------------------------------------------------------


@pytest.mark.parametrize("tolerant", [False, True], ids=["strict", "tolerant"])
def test_a_refs_bib_read_mid_save_is_read_again(
    tmp_path: Path, background: Callable[..., subprocess.Popen[bytes]], tolerant: bool
) -> None:
    bib = tmp_path / "refs.bib"
    head, tail = "@misc{a,\n  title = {Alpha},\n}\n\n@misc{b,\n  title = {Be", "ta},\n}\n"
    bib.write_text("", encoding="utf-8")
    writer = background("sh", "-c", f"(printf '{head}'; sleep 0.5; printf '{tail}') > refs.bib", cwd=tmp_path)
    wait_until(lambda: bib.read_text() == head)
    try:
        store = bibfile.load(bib, tolerant=tolerant)
    except ReadingListError as exc:
        pytest.fail(f"a half-saved file was blamed on the user: {exc}")
    assert writer.wait(HANG) == 0
    assert (list(store.entries), store.skipped) == (["a", "b"], [])
