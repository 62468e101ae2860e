"""``readinglist init DIR`` (issue 10, item 8): a new reading list that builds and tests as it is.

The new project's own tests run here with pytest (fast); its full ``nox`` run installs
readinglist and its dependencies into new virtualenvs (minutes, and the package registry), so it
runs only with READINGLIST_NOX_TEST=1.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from readinglist.cli import main
from readinglist.config import load_config
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.project import DIST, init, requirement
from readinglist.site import generate
from readinglist.sources import FORMATS, source_globs

FILES = [
    ".github/workflows/pages.yml", ".github/workflows/zotero-sync.yml", ".gitignore", ".readthedocs.yaml",
    "README.md", "conf/identity.toml", "conf/readinglist.toml", "conf/sources/README.md", "conf/topics.toml",
    "docs/conf.py", "docs/notes/README.md", "noxfile.py", "refs.bib", "requirements.txt", "tests/test_site.py",
]  # fmt: skip
ENTRY = """
@article{smith2021fast,
  title = {Fast Pipelines for {GPU} Training},
  author = {Smith, Ann and Chen, Bo},
  journal = {Journal of Examples},
  year = {2021},
  abstract = {We propose a pipeline schedule that trains large models 2x faster on GPU clusters.},
}
"""


MISSING = "only the missing files"


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def test_init_writes_a_whole_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "new" / "list"
    assert main(["--root", str(tmp_path), "init", str(root), "--title", 'Ann\'s "papers" \\ notes']) == 0
    assert _files(root) == FILES
    assert f"{len(FILES)} files written" in capsys.readouterr().out
    config = load_config(root)
    assert config.title == 'Ann\'s "papers" \\ notes'  # quotes and backslashes stay text in the TOML
    assert config.bib_path.read_text(encoding="utf-8") == ""
    assert load_taxonomy(config.taxonomy_path)[0].id == "general"  # where a paper no topic claims goes
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "nox -s docs" in readme and "nox -s tests" in readme and requirement() in readme
    assert ".readinglist-cache/" in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert requirement() in (root / "requirements.txt").read_text(encoding="utf-8").splitlines()
    for script in ("noxfile.py", "docs/conf.py", "tests/test_site.py"):
        compile((root / script).read_text(encoding="utf-8"), script, "exec")


def test_readthedocs_and_pages_install_the_requirement_the_readme_names(tmp_path: Path) -> None:
    root = tmp_path / "list"
    init(root)
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "requirements.txt" in readme and f"https://pypi.org/project/{DIST}/" in readme
    assert "python3 -m venv .venv" in readme  # Debian's system Python refuses pip install
    readthedocs = (root / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert "- requirements: requirements.txt" in readthedocs.splitlines()[-1]
    pages = (root / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "run: python -m pip install nox && nox -s docs tests" in pages  # the noxfile installs requirements.txt
    assert '"-r", "requirements.txt"' in (root / "noxfile.py").read_text(encoding="utf-8")


def test_the_requirement_is_the_running_readinglist() -> None:
    # This checkout is installed in place (pip install -e): the new list's sessions install it from here.
    spec = requirement()
    assert DIST == "sphinx-readinglist"  # "readinglist" on the package index is another project
    assert spec.startswith((f"{DIST} @ file://", f"{DIST} @ git+", f"{DIST}=="))
    if spec.startswith(f"{DIST} @ file://"):
        assert Path(spec.removeprefix(f"{DIST} @ file://"), "pyproject.toml").is_file()


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.txt").write_text("mine\n", encoding="utf-8")
    assert main(["--root", str(tmp_path), "init", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    refusal = f"is not empty; choose a new folder, or --force to add {MISSING}"
    assert error == f"readinglist: error: {tmp_path}: {refusal} [readinglist.init-refused]\n"
    assert _files(tmp_path) == ["mine.txt"]


def test_force_adds_only_missing_files_and_overwrites_none(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "README.md").write_text("my own readme\n", encoding="utf-8")
    (tmp_path / "conf" / "topics.toml").write_text("# mine\n", encoding="utf-8")
    report = init(tmp_path, force=True)
    assert set(report.kept) == {"README.md", "conf/topics.toml"}
    assert sorted(report.written) == sorted(set(FILES) - set(report.kept))
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "my own readme\n"
    assert (tmp_path / "conf" / "topics.toml").read_text(encoding="utf-8") == "# mine\n"
    assert not list(tmp_path.rglob("*.tmp"))
    assert init(tmp_path, force=True).written == ()  # a second run finds nothing missing


def test_a_file_where_the_folder_should_be_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x").write_text("", encoding="utf-8")
    assert main(["--root", str(tmp_path), "init", str(tmp_path / "x"), "--force"]) == 1
    assert (
        capsys.readouterr().err
        == f"readinglist: error: {tmp_path / 'x'}: exists and is not a folder [readinglist.init-refused]\n"
    )


def test_a_new_list_builds_with_a_pasted_entry_and_passes_its_own_tests(tmp_path: Path) -> None:
    root = tmp_path / "list"
    init(root, title="Test list")
    with (root / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write(ENTRY)
    build = _run([sys.executable, "-m", "readinglist", "build"], root)  # in the project, as a person runs it
    assert build.returncode == 0, build.stdout + build.stderr
    assert not re.search(r"warning", build.stdout + build.stderr, re.IGNORECASE), build.stdout + build.stderr
    page = root / "docs" / "_build" / "html" / "papers" / "smith2021fast.html"
    assert "Fast Pipelines for GPU Training" in page.read_text(encoding="utf-8")
    shutil.rmtree(root / "docs" / "_build")
    tests = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], root)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "3 passed" in tests.stdout


def test_the_new_lists_own_test_fails_when_an_entry_has_no_page(tmp_path: Path) -> None:
    """Its test is honest: a build that does not give an entry its page fails it."""
    root = tmp_path / "list"
    init(root)
    (root / "refs.bib").write_text(ENTRY, encoding="utf-8")
    site_test = root / "tests" / "test_site.py"
    text = site_test.read_text(encoding="utf-8")
    # Pretend refs.bib holds one more entry than the build saw.
    site_test.write_text(text.replace("keys = set(", 'keys = {"ghost2020"} | set('), encoding="utf-8")
    tests = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], root)
    assert tests.returncode == 1 and "ghost2020" in tests.stdout


def test_the_new_lists_own_test_fails_on_an_orphaned_note(tmp_path: Path) -> None:
    root = tmp_path / "list"
    init(root)
    (root / "refs.bib").write_text(ENTRY, encoding="utf-8")
    (root / "docs" / "notes" / "gone2019.md").write_text("---\nstatus: read\n---\nIts paper left.\n", encoding="utf-8")
    tests = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], root)
    assert tests.returncode == 1, tests.stdout + tests.stderr
    assert "test_no_note_is_orphaned" in tests.stdout and "gone2019" in tests.stdout


@pytest.mark.skipif(not os.environ.get("READINGLIST_NOX_TEST"), reason="installs from the registry: minutes")
def test_nox_docs_and_tests_pass_in_a_new_list(tmp_path: Path) -> None:
    root = tmp_path / "list"
    init(root)
    (root / "refs.bib").write_text(ENTRY, encoding="utf-8")
    nox = _run([sys.executable, "-m", "nox", "-s", "docs", "tests"], root)
    assert nox.returncode == 0, nox.stdout[-3000:] + nox.stderr[-3000:]
    assert (root / "docs" / "_build" / "html" / "papers" / "smith2021fast.html").is_file()


def test_the_generated_toml_files_are_valid(tmp_path: Path) -> None:
    init(tmp_path / "list")
    for name in ("conf/readinglist.toml", "conf/topics.toml", "conf/identity.toml"):
        tomllib.loads((tmp_path / "list" / name).read_text(encoding="utf-8"))


def test_init_ignores_a_broken_config_in_the_folder_it_runs_from(tmp_path: Path) -> None:
    """The new list's settings are its own: a broken conf/ where init runs must not stop it."""
    here = tmp_path / "here"
    (here / "conf").mkdir(parents=True)
    (here / "conf" / "readinglist.toml").write_text("x = [\n", encoding="utf-8")
    assert main(["--root", str(here), "init", str(tmp_path / "new")]) == 0
    assert load_config(tmp_path / "new").title


def test_a_new_lists_sources_and_readmes_come_from_the_formats_table(tmp_path: Path) -> None:
    """conf/readinglist.toml globs a file type per import format (sources.FORMATS), and the READMEs
    name every format; the README in conf/sources/ is no source."""
    root = tmp_path / "list"
    init(root)
    config = load_config(root)
    assert list(config.sources) == source_globs()
    assert set(config.sources) == {f"conf/sources/*{suffix}" for f in FORMATS for suffix in f.suffixes}
    assert config.source_paths() == []
    for readme in ("README.md", "conf/sources/README.md"):
        text = " ".join((root / readme).read_text(encoding="utf-8").split())
        assert all(f.files in text for f in FORMATS), readme
        assert "{{" not in text, readme


def test_a_new_lists_gitignore_ignores_every_file_a_generate_writes(tmp_path: Path) -> None:
    """After a generate, git sees only the files a person keeps: what init wrote (refs.bib among them)."""
    root = tmp_path / "list"
    init(root)
    with (root / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write(ENTRY)
    generate.run(load_config(root))
    assert (root / "docs" / "papers" / "smith2021fast.md").is_file()
    assert _run(["git", "init", "-q"], root).returncode == 0
    status = _run(["git", "status", "--porcelain", "--untracked-files=all"], root)
    assert sorted(line[3:] for line in status.stdout.splitlines()) == FILES, status.stdout + status.stderr
