"""The wheel holds every file of the package: a file read at run time but left out of
pyproject's package-data breaks every install that is not an editable checkout (issue 28:
``site/templates/pagefind-merged.js`` was missing, and no build worked from a wheel).

The wheel is built offline (no build isolation) from a copy of the project, so the checkout
gets no ``build/`` or ``*.egg-info`` and parallel workers never share a folder.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
