"""A build with nothing to do starts no Sphinx (site/changes.py), and every change still rebuilds."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hostile_kit import dump_record, records_project
from readinglist.cli import main
from readinglist.config import load_config
from readinglist.site import changes, child, early
from readinglist.site.build import doctrees_path

Runs = list[list[str]]


@pytest.fixture
def sphinx_runs(monkeypatch: pytest.MonkeyPatch) -> Runs:
    """Every Sphinx process a build starts (child.start's argument lists: early or not)."""
    runs: Runs = []
    real = child.start

    def counting(argv: list[str], *args: Any, **kwargs: Any) -> subprocess.Popen[str]:
        if argv[1:3] == ["-m", early.SPHINX]:
            runs.append(argv)
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(child, "start", counting)
    return runs


def _project(tmp_path: Path) -> tuple[Path, Path]:
    records = [
        dump_record(n, f"Paper {n} on lattices", f"We propose sieve {n} for lattices.", "Ann Lee") for n in range(2)
    ]
    return records_project(tmp_path / "project", records), tmp_path / "site"


def _build(root: Path, out: Path, *extra: str) -> int:
    return main(["--root", str(root), "build", "--out", str(out), *extra])


def _note(root: Path, text: str) -> Path:
    note = root / "docs" / "notes" / "hostile1.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text(text, encoding="utf-8")
    return note


def test_a_second_build_starts_no_sphinx_and_says_the_site_is_up_to_date(
    tmp_path: Path, sphinx_runs: Runs, capsys: pytest.CaptureFixture[str]
) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0 and len(sphinx_runs) == 1
    pickle = (doctrees_path(load_config(root), out) / "environment.pickle").stat().st_mtime_ns
    capsys.readouterr()
    assert _build(root, out) == 0
    assert len(sphinx_runs) == 1
    assert "site up to date" in capsys.readouterr().out
    assert (doctrees_path(load_config(root), out) / "environment.pickle").stat().st_mtime_ns == pickle


@pytest.mark.parametrize(
    "change",
    [
        lambda root, out: _note(root, "A note on sieving.\n"),
        lambda root, out: (root / "docs" / "conf.py").write_text(
            (root / "docs" / "conf.py").read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8"
        ),
        lambda root, out: next((out / "papers").glob("*.html")).unlink(),
        lambda root, out: (out / "index.html").write_text("hand-edited", encoding="utf-8"),  # Sphinx's to judge
        lambda root, out: (out / "pagefind" / "pagefind-entry.json").unlink(),
    ],
    ids=["note edited", "conf.py edited", "a page deleted from the site", "a page of the site edited", "index gone"],
)
def test_any_change_to_the_inputs_or_the_site_runs_sphinx_again(
    tmp_path: Path, sphinx_runs: Runs, change: Callable[[Path, Path], object]
) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0
    pages = sorted(p.relative_to(out) for p in out.rglob("*.html"))
    change(root, out)
    assert _build(root, out) == 0
    assert len(sphinx_runs) == 2
    assert sorted(p.relative_to(out) for p in out.rglob("*.html")) == pages  # a deleted page is back
    assert (out / "pagefind" / "pagefind-entry.json").is_file()


def test_a_note_saved_while_sphinx_reads_is_built_by_the_next_build(tmp_path: Path, sphinx_runs: Runs) -> None:
    """The stamp holds the inputs as they were before Sphinx started, not as they are after it."""
    root, out = _project(tmp_path)
    real = child.wait

    def saving_meanwhile(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
        result = real(process)
        if list(process.args)[1:3] == ["-m", early.SPHINX]:  # type: ignore[arg-type]
            _note(root, "Saved while Sphinx ran.\n")  # after Sphinx has read the pages
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(child, "wait", saving_meanwhile)
        assert _build(root, out) == 0
    assert _build(root, out) == 0
    assert len(sphinx_runs) == 2  # the second build did not stop at the stamp
    page = next(p for p in (out / "papers").glob("*.html") if "Saved while Sphinx ran." in p.read_text("utf-8"))
    assert page.is_file()


def test_a_failed_build_leaves_no_stamp(tmp_path: Path, sphinx_runs: Runs) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0
    stamp = doctrees_path(load_config(root), out) / changes.STAMP
    assert stamp.is_file()
    _note(root, "See {ref}`nowhere`.\n")  # a warning, so an error
    assert _build(root, out) == 1 and not stamp.exists()
    assert _build(root, out) == 1  # and the next build tries again
    assert len(sphinx_runs) == 3


def test_the_inputs_name_the_installed_distributions_and_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, out = _project(tmp_path)
    config = load_config(root)
    first = changes.inputs(config, out, ["-b", "html"])
    assert changes.inputs(config, out, ["-b", "html"]) == first
    assert changes.inputs(config, out, ["-b", "html", "-j", "2"]) != first
    monkeypatch.setattr(changes, "_distributions", lambda: ["sphinx-99.0.dist-info"])
    assert changes.inputs(config, out, ["-b", "html"]) != first


def test_notes_in_a_linked_folder_are_watched_through_the_link(tmp_path: Path, sphinx_runs: Runs) -> None:
    """Notes kept in a synced folder, docs/notes a link to it: an edit there is an edit. (The folder
    is in the project: a link out of it is refused, tests/test_site_safety.py.)"""
    root, out = _project(tmp_path)
    synced = root / "synced"
    synced.mkdir()
    (synced / "hostile1.md").write_text("A first note.\n", encoding="utf-8")
    (root / "docs" / "notes").symlink_to(synced, target_is_directory=True)
    assert _build(root, out) == 0
    (synced / "hostile1.md").write_text("A note edited in the synced folder.\n", encoding="utf-8")
    assert _build(root, out) == 0
    assert len(sphinx_runs) == 2
    assert any("edited in the synced folder" in p.read_text("utf-8") for p in (out / "papers").glob("*.html"))


def test_a_link_loop_ends_and_a_dangling_link_counts(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "page.md").write_text("x", encoding="utf-8")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    found = sorted(changes._files(tmp_path, frozenset()))
    assert ("gone", -1, -1) in found
    assert [f[0] for f in found if f[0].endswith("page.md")] == ["a/page.md"]  # the loop leads back: not again


def test_a_store_kept_elsewhere_is_among_the_inputs(tmp_path: Path, sphinx_runs: Runs) -> None:
    """A build whose inputs hold neither generates nor starts Sphinx, so every generator input
    counts, wherever conf/readinglist.toml keeps it."""
    root, out = _project(tmp_path)
    store = root / "library" / "mine.bib"
    store.parent.mkdir()
    (root / "refs.bib").rename(store)
    toml = root / "conf" / "readinglist.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + 'bib = "library/mine.bib"\n', encoding="utf-8")
    assert _build(root, out) == 0
    store.write_text(store.read_text(encoding="utf-8").replace("Paper 1 on lattices", "Paper 1 on sieves"), "utf-8")
    assert _build(root, out) == 0
    assert len(sphinx_runs) == 2
    assert "Paper 1 on sieves" in (out / "papers" / "hostile1.html").read_text(encoding="utf-8")
