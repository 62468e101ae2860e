"""Sphinx starts before the pages are generated and reads them only once they are complete (site/early.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hostile_kit import dump_record, records_project
from readinglist.cli import main
from readinglist.errors import Code, ReadingListError
from readinglist.site import child, early, generate

Events = list[str]


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> Events:
    """When Sphinx starts (early: with the pipe's setting) and when the generator renders."""
    log: Events = []
    real_start, real_wait, real_render = child.start, child.wait, generate._render

    def start(argv: list[str], *args: Any, **kwargs: Any) -> subprocess.Popen[str]:
        if argv[1:3] == ["-m", early.SPHINX]:
            log.append("sphinx early" if any(a.startswith(early.SETTING) for a in argv) else "sphinx")
        return real_start(argv, *args, **kwargs)

    def wait(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
        result = real_wait(process)
        if list(process.args)[1:3] == ["-m", early.SPHINX]:  # type: ignore[arg-type]
            log.append(f"sphinx exit {result.returncode}")
        return result

    def render(*args: Any, **kwargs: Any) -> tuple[int, int]:
        log.append("render")
        return real_render(*args, **kwargs)

    monkeypatch.setattr(child, "start", start)
    monkeypatch.setattr(child, "wait", wait)
    monkeypatch.setattr(generate, "_render", render)
    return log


def _project(tmp_path: Path) -> tuple[Path, Path]:
    records = [
        dump_record(n, f"Paper {n} on lattices", f"We propose sieve {n} for lattices.", "Ann Lee") for n in range(2)
    ]
    return records_project(tmp_path / "project", records), tmp_path / "site"


def _build(root: Path, out: Path) -> int:
    return main(["--root", str(root), "build", "--out", str(out)])


def _status(root: Path, status: str) -> None:
    note = root / "docs" / "notes" / "hostile1.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text(f"---\nstatus: {status}\n---\nMy note.\n", encoding="utf-8")


def test_sphinx_starts_before_the_pages_render_and_builds_what_they_became(tmp_path: Path, events: Events) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0
    _status(root, "reading")
    assert _build(root, out) == 0
    _status(root, "read")
    events.clear()
    assert _build(root, out) == 0
    assert events == ["sphinx early", "render", "sphinx exit 0"]
    page = (out / "papers" / "hostile1.html").read_text(encoding="utf-8")
    badges = re.findall(r'class="sd-sphinx-override sd-badge[^"]*">([^<]*)<', page)
    assert "Read" in badges and "Reading" not in badges  # the status the generator had just written


def test_a_body_edit_renders_nothing_and_lets_the_waiting_sphinx_go_on(tmp_path: Path, events: Events) -> None:
    root, out = _project(tmp_path)
    _status(root, "read")
    assert _build(root, out) == 0
    note = root / "docs" / "notes" / "hostile1.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nA second thought.\n", encoding="utf-8")
    events.clear()
    assert _build(root, out) == 0
    assert events == ["sphinx early", "sphinx exit 0"]
    assert "A second thought." in (out / "papers" / "hostile1.html").read_text(encoding="utf-8")


def test_when_rendering_fails_the_waiting_sphinx_exits_having_written_nothing(
    tmp_path: Path, events: Events, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    def failing(*args: Any, **kwargs: Any) -> tuple[int, int]:
        events.append("render")
        raise ReadingListError("cannot write", root / "docs", code=Code.UNWRITABLE)

    monkeypatch.setattr(generate, "_render", failing)
    _status(root, "reading")
    events.clear()
    assert _build(root, out) != 0
    assert events == ["sphinx early", "render", "sphinx exit -15"]  # stopped while it waited
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


def test_a_build_with_nothing_to_do_starts_neither_sphinx_nor_the_generator(
    tmp_path: Path, events: Events, capsys: pytest.CaptureFixture[str]
) -> None:
    root, out = _project(tmp_path)
    assert _build(root, out) == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    events.clear()
    capsys.readouterr()
    assert _build(root, out) == 0
    assert events == []  # every input of both is among the up-to-date check's
    assert "site up to date" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


def test_a_sphinx_that_fails_while_the_pages_are_generated_fails_the_build(tmp_path: Path, events: Events) -> None:
    root, out = _project(tmp_path)
    conf = root / "docs" / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + "\nraise RuntimeError('broken conf.py')\n", encoding="utf-8")
    assert _build(root, out) != 0
    assert events[0] == "sphinx early" and events[-1] not in ("sphinx exit 0", "sphinx exit -15")
