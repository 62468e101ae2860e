"""Idempotent builds: building twice makes Sphinx find nothing outdated; a note edit re-reads one page."""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from test_hostile_site import _project, _record


def _run(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    status = build_main(["-N", "-b", "html", "-n", "-W", "--keep-going", str(root / "docs"), str(root / "html")])
    out = capsys.readouterr().out
    assert status == 0, out
    return out


def test_second_build_finds_nothing_outdated_and_a_note_edit_rereads_one_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        _record(n, f"Paper {n} on pipelines", f"We propose system {n} for pipelines.", "Ann Lee") for n in range(3)
    ]
    root = _project(tmp_path, records)
    first = _run(root, capsys)
    assert "0 files written" not in first
    second = _run(root, capsys)
    assert "0 files written" in second
    assert "updating environment: 0 added, 0 changed, 0 removed" in second
    assert "no targets are out of date" in second
    (root / "docs" / "notes").mkdir(exist_ok=True)
    (root / "docs" / "notes" / "hostile1.md").write_text("A note about pipelines.\n", encoding="utf-8")
    third = _run(root, capsys)
    assert "0 added, 1 changed, 0 removed" in third
    (root / "docs" / "notes" / "hostile1.md").write_text("A better note.\n", encoding="utf-8")
    fourth = _run(root, capsys)
    assert "0 files written" in fourth  # the page includes the note; only Sphinx sees the change
    assert "0 added, 1 changed, 0 removed" in fourth
