"""Issue 31: a missing project, a full disk and a read-only folder are one line with a code.

The in-process tests raise the OS's errors where a command would meet them; the tmpfs tests fill
or freeze a real file system (they need root and ``mount``, and skip without them).
"""

from __future__ import annotations

import errno
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostile_kit import dump_record, records_project
from readinglist.cli import main

ONE_LINE = 1  # lines an error prints, and no traceback


def _project(folder: Path) -> Path:
    records = [dump_record(n, f"Paper {n} on sieves", f"We propose sieve {n}.", "Ann Lee") for n in range(2)]
    return records_project(folder, records)


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(list(args))
    return status, capsys.readouterr().err


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("command", ["build", "generate", "import", "export"])
def test_a_missing_root_is_one_line_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "nowhere" / "project"
    status, error = _error(capsys, "--root", str(missing), command)
    assert (status, error) == (1, f"readinglist: error: {missing}: no such project folder [readinglist.no-project]\n")
    assert _files(tmp_path) == []


def test_a_root_that_is_a_file_is_no_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "refs.bib").write_text("", encoding="utf-8")
    status, error = _error(capsys, "--root", str(tmp_path / "refs.bib"), "build")
    assert status == 1 and error.endswith("[readinglist.no-project]\n")


@pytest.mark.parametrize(
    ("raised", "code"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "disk-full"),
        (OSError(errno.EDQUOT, "Disk quota exceeded"), "disk-full"),
        (OSError(errno.EROFS, "Read-only file system"), "unwritable"),
        (PermissionError(errno.EACCES, "Permission denied"), "unwritable"),
    ],
)
def test_os_errors_without_a_file_name_are_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    raised: OSError,
    code: str,
) -> None:
    """A write that fails (``file.write``, not ``open``) raises with no file name: the project names the place."""
    from readinglist.site import generate

    def fail(*args: object, **kwargs: object) -> None:
        raise raised

    project = _project(tmp_path / "p")
    monkeypatch.setattr(generate, "run", fail)
    status, error = _error(capsys, "--root", str(project), "generate")
    assert status == 1 and error.startswith(f"readinglist: error: {project}: ")
    assert error.endswith(f"[readinglist.{code}]\n") and error.count("\n") == ONE_LINE


def test_disk_full_with_a_file_name_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from readinglist.site import generate

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "/p/docs/papers/x.md")

    monkeypatch.setattr(generate, "run", fail)
    assert _error(capsys, "--root", str(_project(tmp_path / "p")), "generate") == (
        1,
        "readinglist: error: /p/docs/papers/x.md: no space left on the device [readinglist.disk-full]\n",
    )


# --- real file systems: a full tmpfs, a read-only one ---------------------------------------------------


def _mount(folder: Path, size: str, *options: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    args = ["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *options]), "tmpfs", str(folder)]
    try:
        return subprocess.run(args, capture_output=True).returncode == 0
    except OSError:
        return False


def _umount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.fixture
def mounts(tmp_path: Path) -> Iterator[list[Path]]:
    """Folders the test mounts (``_mount``): each unmounted afterwards, whatever happened."""
    mounted: list[Path] = []
    yield mounted
    for folder in reversed(mounted):
        _umount(folder)


def _tmpfs(mounts: list[Path], folder: Path, size: str = "4m", *options: str) -> Path:
    if shutil.which("mount") is None or not _mount(folder, size, *options):
        pytest.skip("needs root and mount -t tmpfs")
    mounts.append(folder)
    return folder


def _fill(folder: Path) -> None:
    """Take every free byte of ``folder``'s file system."""
    with (folder / "filler").open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "readinglist", *args], capture_output=True, text=True, timeout=600)


def _one_line(result: subprocess.CompletedProcess[str], code: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "Exception occurred" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == ONE_LINE, result.stderr
    assert result.stderr.startswith("readinglist: error: ") and result.stderr.endswith(f"[readinglist.{code}]\n")


def test_a_full_disk_is_one_line_for_import_and_generate(tmp_path: Path, mounts: list[Path]) -> None:
    disk = _tmpfs(mounts, tmp_path / "disk")
    project = _project(disk / "p")
    (project / "conf" / "sources").mkdir()
    entries = "\n".join(
        f"@article{{lat{n},\n  title = {{Lattice {n}}},\n  author = {{Ann Lee}},\n  year = {{20{n:02}}}\n}}\n"
        for n in range(40)
    )
    (project / "conf" / "sources" / "mine.bib").write_text(entries, encoding="utf-8")
    bib = (project / "refs.bib").read_bytes()
    _fill(disk)
    _one_line(_run("--root", str(project), "import"), "disk-full")
    assert (project / "refs.bib").read_bytes() == bib
    _one_line(_run("--root", str(project), "generate"), "disk-full")


def test_sphinx_on_a_full_or_read_only_output_is_one_line(tmp_path: Path, mounts: list[Path]) -> None:
    """Generating succeeds (docs/ has room); Sphinx then fails to write the site."""
    project = _project(tmp_path / "p")
    full = _tmpfs(mounts, tmp_path / "full", "256k")
    _fill(full)
    _one_line(_run("--root", str(project), "build", "--out", str(full / "html")), "disk-full")
    frozen = _tmpfs(mounts, tmp_path / "frozen", "256k", "ro")
    _one_line(_run("--root", str(project), "build", "--out", str(frozen / "html")), "unwritable")


def test_a_read_only_docs_folder_is_one_line(tmp_path: Path, mounts: list[Path]) -> None:
    project = _project(tmp_path / "p")
    assert _run("--root", str(project), "generate").returncode == 0  # the lock file and the pages are there
    (project / "refs.bib").write_text((project / "refs.bib").read_text().replace("sieve 1", "sieve 2"))
    kept = tmp_path / "docs-copy"
    shutil.copytree(project / "docs", kept)
    docs = _tmpfs(mounts, project / "docs")
    shutil.copytree(kept, docs, dirs_exist_ok=True)
    if subprocess.run(["mount", "-o", "remount,ro", str(docs)], capture_output=True).returncode != 0:
        pytest.skip("cannot remount read-only")
    before = _files(project)
    _one_line(_run("--root", str(project), "build"), "unwritable")
    assert _files(project) == before
