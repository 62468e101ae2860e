"""Shared fixtures: the repository's seed dumps, a seed-imported refs.bib, and Sphinx's test roots."""

from __future__ import annotations

from pathlib import Path

import pytest

# pyproject's addopts already passes ``-p sphinx.testing.fixtures``; naming the plugin here too is
# harmless (pytest skips a plugin that is already registered) and keeps the suite working when it
# runs without those addopts (``pytest -o addopts=''``).
pytest_plugins = ("sphinx.testing.fixtures",)

REPO = Path(__file__).resolve().parent.parent
SOURCES_DIR = REPO / "conf" / "sources"
SEED_NAMES = ("jun-yang", "wei-lin", "xin-liu")


def seed_paths() -> list[Path]:
    return [SOURCES_DIR / f"{name}.txt" for name in SEED_NAMES]


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=NAME)`` finds ``test-NAME``."""
    return Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def seed_bib_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """refs.bib as a first import of the three seed dumps writes it (computed once per session)."""
    from readinglist.store import importer

    bib = tmp_path_factory.mktemp("seed-import") / "refs.bib"
    importer.run(seed_paths(), bib, REPO)
    return bib.read_text(encoding="utf-8")


@pytest.fixture
def seed_bib(tmp_path: Path, seed_bib_text: str) -> Path:
    """A private copy of the seed-imported refs.bib."""
    path = tmp_path / "refs.bib"
    path.write_text(seed_bib_text, encoding="utf-8")
    return path
