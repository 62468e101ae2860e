"""The wheel holds every file of the package: a file read at run time but left out of
pyproject's package-data breaks every install that is not an editable checkout (issue 28:
``site/templates/pagefind-merged.js`` was missing, and no build worked from a wheel).

The wheel is built offline (no build isolation) from a copy of the project, so the checkout
gets no ``build/`` or ``*.egg-info`` and parallel workers never share a folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import TOOLS

ROOT = TOOLS["noxfile.py"].parent  # the project: pyproject.toml, README.md, src/ (its tools, never its list)
PACKAGE = ROOT / "src" / "readinglist"
NOT_SHIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


def package_files() -> set[str]:
    """Every file of the package that is not Python source, as a wheel names it."""
    return {
        "readinglist/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    pytest.importorskip("setuptools", reason="builds the wheel without build isolation (the test extra has it)")
    work = tmp_path_factory.mktemp("wheel")
    project = work / "project"
    shutil.copytree(ROOT / "src", project / "src", ignore=NOT_SHIPPED)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"]
    built = subprocess.run([*command, "-w", str(work / "dist"), str(project)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    [path] = (work / "dist").glob("*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_file_the_package_reads(wheel: zipfile.ZipFile) -> None:
    missing = package_files() - set(wheel.namelist())
    assert not missing, f"not in the wheel (add them to package-data in pyproject.toml): {sorted(missing)}"


def test_the_wheel_holds_the_package_and_its_command(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    assert "readinglist/cli.py" in names and "readinglist/site/sphinx_ext/__init__.py" in names
    [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    assert "readinglist = readinglist.cli:console" in wheel.read(entry_points).decode()


def test_package_files_finds_the_files_a_build_reads() -> None:
    # The comparison above is only as good as this walk: it must see the files the tool opens.
    found = package_files()
    for name in ("site/templates/pagefind-merged.js", "data/acl.csl", "scaffold/noxfile.py.tmpl", "py.typed"):
        assert "readinglist/" + name in found


# Installed in every Python process of the build below (sitecustomize, through PYTHONPATH): the
# generator, Sphinx and their helpers each log every file they open.
AUDIT = """
import os, sys
if os.environ.get("RL_OPENED"):
    _fd = os.open(os.environ["RL_OPENED"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # before the hook: not logged
    def _log(event, args):
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            os.write(_fd, os.fsencode(os.path.abspath(os.fsdecode(args[0]))) + b"\\n")
    sys.addaudithook(_log)
"""


def test_a_build_reads_nothing_of_the_checkout_but_the_package(tmp_path: Path) -> None:
    """A new list, built: every file of this checkout that any of its processes opened is in
    src/readinglist (which the wheel holds whole, above), none elsewhere in the checkout."""
    from readinglist.project import init

    hooks, log, project = tmp_path / "hooks", tmp_path / "opened.txt", tmp_path / "list"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(AUDIT, encoding="utf-8")
    init(project)
    (project / "refs.bib").write_text(ENTRY, encoding="utf-8")
    env = {**os.environ, "RL_OPENED": str(log), "PYTHONPATH": os.pathsep.join([str(hooks), *sys.path])}
    build = subprocess.run([sys.executable, "-m", "readinglist", "build"], cwd=project, env=env, capture_output=True)
    assert build.returncode == 0, build.stderr.decode()
    opened = {Path(line) for line in log.read_text(encoding="utf-8").splitlines()}
    # The interpreter's own environment may sit inside the checkout (nox's .nox/tests): its files are
    # the installed dependencies', not the checkout's.
    environment = Path(sys.prefix).resolve()
    of_checkout = {
        path.relative_to(ROOT).as_posix()
        for path in opened
        if path.is_relative_to(ROOT) and not path.resolve().is_relative_to(environment)
    }
    # An editable install's metadata (src/*.egg-info) is pip's, not the package's: a wheel has its own.
    elsewhere = {name for name in of_checkout if not name.startswith("src/readinglist/") and ".egg-info/" not in name}
    assert elsewhere == set()
    read = {name.removeprefix("src/") for name in of_checkout} & package_files()
    assert {"readinglist/site/templates/pagefind-merged.js", "readinglist/site/templates/page.html"} <= read


ENTRY = """@article{smith2021fast,
  title = {Fast Pipelines for GPU Training},
  author = {Smith, Jane and Doe, John},
  journal = {Journal of Systems},
  year = {2021},
}
"""
