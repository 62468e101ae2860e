"""refs.bib written from the seeds is clean BibTeX: real bibtex and pybtex's strict parser accept it."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path

import pybtex.errors
import pytest
from pybtex.database.input.bibtex import Parser
from pybtex.plugin import find_plugin

BIBTEX = shutil.which("bibtex")


@pytest.fixture
def strict_pybtex() -> Iterator[None]:
    saved = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)
    yield
    pybtex.errors.set_strict_mode(saved)


@pytest.mark.skipif(BIBTEX is None, reason="the bibtex program is not installed (TeX Live's bibtex package)")
def test_real_bibtex_accepts_the_seed_import(seed_bib: Path) -> None:
    assert BIBTEX is not None
    aux = seed_bib.with_suffix(".aux")
    aux.write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{plain}\n", encoding="utf-8")
    result = subprocess.run(
        [BIBTEX, "refs"], cwd=seed_bib.parent, capture_output=True, text=True, timeout=60, check=False
    )
    blg = seed_bib.with_suffix(".blg").read_text(encoding="utf-8", errors="replace")
    assert result.returncode == 0, result.stdout + result.stderr + blg
    assert "Warning--" not in blg, blg
    assert "error message" not in blg, blg
    bbl = seed_bib.with_suffix(".bbl").read_text(encoding="utf-8", errors="replace")
    assert bbl.count("\\bibitem{") == 28


def test_pybtex_strict_parse_and_format_without_warnings(
    seed_bib: Path, strict_pybtex: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = Parser().parse_file(str(seed_bib))
        style = find_plugin("pybtex.style.formatting", "plain")()
        formatted = list(style.format_entries(data.entries.values()))
        texts = [entry.text.render_as("text") for entry in formatted]
    assert len(data.entries) == len(texts) == 28
    assert all(text.strip() for text in texts)
    captured = capsys.readouterr()
    assert captured.out == captured.err == ""
