"""Builds killed, interrupted or run twice at once: the next build heals, nothing is left behind.

``readinglist build`` runs here as a real process in its own session, killed with real signals.
Where a kill must land at one exact point, a small Sphinx extension in the project (``hook``)
pauses the build or kills it there; it does nothing unless its environment variable is set.
Other kills land after seeded random delays: wherever they land, the outcome must be the same.
"""

from __future__ import annotations

import gzip
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostile_kit import dump_record, indexed_titles, records_project, retitle
from readinglist.cli import main
from readinglist.site.search import BUNDLE, ENTRY, STALE
from readinglist.site.shards import PAPER_BUNDLES, RECORD

HOOK = """
import os, signal, time
from pathlib import Path

def _pause(app):  # RL_PID: where to say which process Sphinx is; RL_GO: wait until it exists
    if os.environ.get("RL_PID"):
        Path(os.environ["RL_PID"]).write_text(str(os.getpid()))
    deadline = time.monotonic() + 120
    while os.environ.get("RL_GO") and not Path(os.environ["RL_GO"]).exists() and time.monotonic() < deadline:
        time.sleep(0.02)

def _kill_at(when):
    def kill(app, *args):
        if os.environ.get("RL_KILL") == when:
            os.killpg(os.getpgrp(), signal.SIGKILL)
    return kill

def setup(app):
    app.connect("builder-inited", _pause, priority=50)
    app.connect("write-started", _kill_at("before-writing"))  # Sphinx has saved its environment
    app.connect("build-finished", _kill_at("after-writing"), priority=1)  # before anything else sees the end
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""
TITLES = {n: f"Paper {n} on graphs" for n in range(3)}
SETTLE = 30.0  # seconds a process gets to start or to exit: a bound for a broken build, never a measurement


def _make(folder: Path) -> Path:
    records = [dump_record(n, title, f"We propose system {n} for graphs.", "Ann Lee") for n, title in TITLES.items()]
    root = records_project(folder, records)
    (root / "hook.py").write_text(HOOK, encoding="utf-8")
    with (root / "docs" / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f'\nsys.path.insert(0, {str(root)!r})  # hook.py\nextensions.append("hook")\n')
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return _make(tmp_path / "project")


_started: list[int] = []  # sessions of the builds a test started


@pytest.fixture(autouse=True)
def _reap() -> Iterator[None]:
    """Whatever a failing test leaves running (a paused Sphinx whose parent is gone) is killed."""
    yield
    for pid in (pid for sid in _started for pid in _session(sid)):
        os.kill(pid, signal.SIGKILL)
    _started.clear()


def _start(root: Path, tmp: Path, **env: str) -> subprocess.Popen[bytes]:
    """``readinglist build`` in a new session (its id is the pid), output to files in ``tmp``."""
    args = [sys.executable, "-m", "readinglist", "--root", str(root), "build"]
    with (tmp / "build.out").open("wb") as out, (tmp / "build.err").open("wb") as err:
        build = subprocess.Popen(args, stdout=out, stderr=err, env={**os.environ, **env}, start_new_session=True)
    _started.append(build.pid)
    return build


def _build(root: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "readinglist", "--root", str(root), "build"], capture_output=True)
    assert result.returncode == 0, result.stderr.decode()


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (zombies are dead: they write nothing)."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(stat_file.parent.name))
    return found


def _wait(condition: object, what: str) -> None:
    deadline = time.monotonic() + SETTLE
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)


def _kill(process: subprocess.Popen[bytes], sig: int, group: bool) -> None:
    if group:
        os.killpg(process.pid, sig)
    else:
        os.kill(process.pid, sig)
    process.wait()
    _wait(lambda: not _session(process.pid), "the build's children to exit")


def _site(out: Path) -> dict[str, bytes]:
    """The published site: every file but Sphinx's own cache.

    Pagefind (1.5) writes a filter's values in a random order, so two clean builds differ in
    its filter files and in the two files that name them by hash (its maintainer: "filter
    indexes will still change", Pagefind issue 638): a filter is compared by what it holds.
    """
    site: dict[str, bytes] = {}
    for p in out.rglob("*"):
        name = p.relative_to(out).as_posix()
        if not p.is_file() or ".doctrees" in p.relative_to(out).parts:
            continue
        bundle, _, inside = name.partition("/filter/")
        if inside and (bundle == BUNDLE or bundle.startswith(f"{PAPER_BUNDLES}/")):
            item = _cbor(gzip.decompress(p.read_bytes())[len(b"pagefind_dcd") :], 0)[0]
            assert isinstance(item, list) and len(item) == 2, f"{name}: not a [name, values] pair"
            filter_name, values = item
            site[f"{bundle}/filter:{filter_name}"] = repr(sorted(map(repr, values))).encode()
        elif not (name.endswith(f"/{ENTRY}") or name.endswith(".pf_meta") or name == RECORD):  # RECORD: mtimes
            site[name] = p.read_bytes()
    return site


def _cbor(data: bytes, at: int) -> tuple[object, int]:
    """The CBOR item at ``at`` (unsigned integers, strings and arrays: what a filter file holds)."""
    major, info = data[at] >> 5, data[at] & 31
    size = {24: 1, 25: 2, 26: 4, 27: 8}.get(info, 0)
    value, at = (int.from_bytes(data[at + 1 : at + 1 + size], "big") if size else info), at + 1 + size
    if major in (2, 3):
        return data[at : at + value].decode() if major == 3 else data[at : at + value], at + value
    if major == 4:
        items = []
        for _ in range(value):
            item, at = _cbor(data, at)
            items.append(item)
        return items, at
    assert major == 0, f"CBOR type {major} in a Pagefind filter"
    return value, at


def _temp_files(root: Path) -> list[Path]:
    return sorted(root.rglob(".*.tmp"))


def _assert_same_as_a_clean_build(root: Path, tmp: Path) -> None:
    clean = _make(tmp / "clean")
    shutil.copy(root / "refs.bib", clean / "refs.bib")
    _build(clean)
    built, expected = _site(root / "docs" / "_build" / "html"), _site(clean / "docs" / "_build" / "html")
    assert sorted(built) == sorted(expected)
    assert [name for name in expected if built[name] != expected[name]] == []
    assert not _temp_files(root)


def test_a_kill_after_sphinx_wrote_the_pages_does_not_leave_the_index_stale(project: Path, tmp_path: Path) -> None:
    _build(project)
    retitle(project, 1, "Lattice sieving at scale")
    killed = _start(project, tmp_path, RL_KILL="after-writing")
    assert killed.wait() == -signal.SIGKILL
    out = project / "docs" / "_build" / "html"
    assert "Lattice sieving at scale" in (out / "papers" / "hostile1.html").read_text(encoding="utf-8")
    assert "Lattice sieving at scale" not in indexed_titles(out)  # the kill came before Pagefind
    assert (out / STALE).is_file()  # marked before the pages were written
    _build(project)
    assert "Lattice sieving at scale" in indexed_titles(out)
    assert not (out / STALE).exists()
    _assert_same_as_a_clean_build(project, tmp_path)


def test_a_kill_before_sphinx_wrote_a_page_rewrites_the_pages_that_depend_on_the_change(
    project: Path, tmp_path: Path
) -> None:
    """Sphinx saved the new environment, then died: the bibliography, which lists the new title but
    whose source did not change, is written again by the next build."""
    _build(project)
    retitle(project, 1, "Lattice sieving at scale")
    assert _start(project, tmp_path, RL_KILL="before-writing").wait() == -signal.SIGKILL
    _build(project)
    _assert_same_as_a_clean_build(project, tmp_path)


def test_builds_killed_at_random_points_rebuild_to_the_same_site(project: Path, tmp_path: Path) -> None:
    _build(project)
    rng = random.Random(9)
    for round, (sig, group) in enumerate([(signal.SIGKILL, True), (signal.SIGKILL, False), (signal.SIGTERM, False)]):
        retitle(project, round % 3, f"Sheaf cohomology round {round}")
        build = _start(project, tmp_path)
        time.sleep(rng.uniform(0.1, 2.0))  # wherever the kill lands, the next build must heal it
        _kill(build, sig, group)
    _build(project)
    assert "Sheaf cohomology round 2" in indexed_titles(project / "docs" / "_build" / "html")
    _assert_same_as_a_clean_build(project, tmp_path)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_only_the_parent_stops_sphinx(project: Path, tmp_path: Path, sig: int) -> None:
    pid_file = tmp_path / "sphinx.pid"
    build = _start(project, tmp_path, RL_PID=str(pid_file), RL_GO=str(tmp_path / "never"))
    _wait(pid_file.exists, "Sphinx to start")
    _kill(build, sig, group=False)  # fails if Sphinx, paused, outlives its parent
    if sig == signal.SIGTERM:  # caught: one line, no traceback
        err = (tmp_path / "build.err").read_text(encoding="utf-8").strip()
        assert (build.returncode, err) == (128 + signal.SIGTERM, "readinglist: terminated")  # err: what beat it


def test_ctrl_c_prints_one_line_and_exits_130(project: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "sphinx.pid"
    build = _start(project, tmp_path, RL_PID=str(pid_file), RL_GO=str(tmp_path / "never"))
    _wait(pid_file.exists, "Sphinx to start")
    os.kill(build.pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the command
    assert build.wait() == 130
    _wait(lambda: not _session(build.pid), "Sphinx to exit")
    errors = (tmp_path / "build.err").read_text(encoding="utf-8")
    assert "Traceback" not in errors and errors.strip().splitlines()[-1] == "readinglist: interrupted"


def test_two_builds_at_once_take_turns(project: Path, tmp_path: Path) -> None:
    go = tmp_path / "go"
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first = _start(project, tmp_path / "first", RL_PID=str(tmp_path / "first.pid"), RL_GO=str(go))
    _wait((tmp_path / "first.pid").exists, "the first build to reach Sphinx")
    second = _start(project, tmp_path / "second")
    waiting = tmp_path / "second" / "build.err"
    _wait(lambda: "waiting for another build" in waiting.read_text(encoding="utf-8"), "the second to wait")
    go.touch()
    assert (first.wait(), second.wait()) == (0, 0)
    out = project / "docs" / "_build" / "html"
    assert (out / BUNDLE / ENTRY).is_file() and not (out / STALE).exists()
    assert set(TITLES.values()) <= indexed_titles(out)


def test_a_plain_sphinx_build_waits_for_a_running_build(project: Path, tmp_path: Path) -> None:
    from readinglist.config import load_config
    from readinglist.site.build import locked

    log = tmp_path / "sphinx.err"
    args = [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(project / "docs"), str(tmp_path / "html")]
    with locked(load_config(project)), log.open("wb") as err:  # as `readinglist build` holds it
        sphinx = subprocess.Popen(args, stderr=err)
        _wait(lambda: "waiting for another build" in log.read_text() or sphinx.poll() is not None, "Sphinx")
        assert sphinx.poll() is None and not (project / "docs" / "papers").exists()  # waits before generating
    assert sphinx.wait() == 0
    assert (project / "docs" / "papers" / "hostile0.md").is_file() and (tmp_path / "html" / "index.html").is_file()


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_leftover_temporary_files_are_removed_and_no_file_is_private(project: Path, umask_022: None) -> None:
    out = project / "docs" / "_build" / "html"
    assert main(["--root", str(project), "build"]) == 0
    leftovers = [
        project / "docs" / "..readinglist-state.k1ll3d.tmp",
        project / "docs" / "..readinglist-manifest.json.k1ll3d.tmp",
        project / "docs" / "..readinglist-inputs.k1ll3d.tmp",
        project / "docs" / "..readinglist-library.pickle.k1ll3d.tmp",
        project / "docs" / "..readinglist-pages.json.k1ll3d.tmp",
        project / "docs" / "papers" / ".hostile0.md.k1ll3d.tmp",
        out / ".records.json.k1ll3d.tmp",
    ]
    theirs = project / "docs" / ".guide.md.k1ll3d.tmp"  # not a file the tool writes: not its to delete
    for path in [*leftovers, theirs]:
        path.write_text("half", encoding="utf-8")
    assert main(["--root", str(project), "build"]) == 0  # inputs unchanged: the cleaning does not depend on them
    assert _temp_files(project) == [theirs]
    written = [p for p in [*(project / "docs").rglob("*"), *out.rglob("*")] if p.is_file()]
    private = [p for p in written if not stat.S_IMODE(p.stat().st_mode) & stat.S_IROTH]
    assert private == [] and out / "records.json" in written


def test_an_emptied_refs_bib_needs_allow_empty(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(project)
    assert main(["--root", root, "generate"]) == 0
    (project / "refs.bib").write_text("\n  \n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--root", root, "generate"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"readinglist: error: {project / 'refs.bib'}: holds no entries")
    assert "--allow-empty" in error
    assert len(list((project / "docs" / "papers").glob("*.md"))) == 3  # nothing deleted
    assert main(["--root", root, "build", "--allow-empty"]) == 0
    assert not list((project / "docs" / "papers").glob("*.md"))


def test_a_new_project_with_an_empty_refs_bib_generates(tmp_path: Path) -> None:
    project = _make(tmp_path / "new")
    (project / "refs.bib").write_text("", encoding="utf-8")
    assert main(["--root", str(project), "generate"]) == 0  # no pages yet: nothing to lose


def test_plain_sphinx_build_refuses_an_emptied_refs_bib(project: Path) -> None:
    from sphinx.cmd.build import build_main

    docs, out = str(project / "docs"), str(project / "html")
    assert main(["--root", str(project), "generate"]) == 0
    (project / "refs.bib").write_text("", encoding="utf-8")
    assert build_main(["-q", "-b", "html", docs, out]) == 2
    assert (project / "docs" / "papers" / "hostile0.md").is_file()
    assert build_main(["-q", "-b", "html", "-D", "readinglist_allow_empty=1", docs, out]) == 0
    assert not (project / "docs" / "papers" / "hostile0.md").exists()


# --- one-line errors ---------------------------------------------------------------------------------


def _error_of(project: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["--root", str(project), *args])
    return status, capsys.readouterr().err


def test_refs_bib_that_is_a_directory_is_one_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "refs.bib").unlink()
    (project / "refs.bib").mkdir()
    status, error = _error_of(project, capsys, "generate")
    assert (status, error) == (
        1,
        f"readinglist: error: {project / 'refs.bib'}: cannot read: Is a directory [readinglist.unreadable]\n",
    )


def test_a_read_only_docs_folder_names_the_file_not_a_temporary(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from readinglist import cache

    def refuse(path: Path, data: bytes, durable: bool = True, **_: object) -> bool:
        raise PermissionError(13, "Permission denied", str(path.parent / f".{path.name}.x1y2z3.tmp"))

    monkeypatch.setattr(cache, "write_bytes_if_changed", refuse)  # as root, chmod cannot make a folder read-only
    status, error = _error_of(project, capsys, "generate")
    target = project / "docs" / cache.FILE
    assert (status, error) == (
        1,
        f"readinglist: error: {target}: cannot write: Permission denied [readinglist.unwritable]\n",
    )


@pytest.mark.parametrize(
    ("raised", "status", "line"),
    [
        (PermissionError(13, "Permission denied", "/p/notes/a.md"), 1, "error: /p/notes/a.md: Permission denied"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_os_errors_and_ctrl_c_are_one_line(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    raised: BaseException,
    status: int,
    line: str,
) -> None:
    from readinglist.site import generate

    def fail(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(generate, "run", fail)
    assert _error_of(project, capsys, "build") == (status, f"readinglist: {line}\n")


def test_a_sigterm_that_an_import_turns_into_its_own_error_still_ends_as_terminated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SIGTERM that lands while a C extension initializes (scipy's, as generate loads the
    enrichment) comes out of the import as "ImportError: initialization failed": still 143, one line."""
    from readinglist import cli

    def interrupted_import(args: object, config: object) -> int:
        try:
            os.kill(os.getpid(), signal.SIGTERM)  # the handler raises inside the "import"
            time.sleep(SETTLE)
        except BaseException as exc:
            raise ImportError("initialization failed") from exc
        return 0

    monkeypatch.setitem(cli.COMMANDS, "export", interrupted_import)
    assert main(["--root", str(tmp_path), "export"]) == 128 + signal.SIGTERM
    assert capsys.readouterr().err == "readinglist: terminated\n"
