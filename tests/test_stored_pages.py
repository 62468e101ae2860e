"""The MyST the generator writes, one page of each kind, from the frozen seeds: compared byte for byte
with a stored copy under tests/fixtures/pages/ (same paths as under docs/).

A change to a page's MyST fails here with the diff; when the change is meant, ``pytest
--update-fixtures`` rewrites the stored copies and ``git diff tests/fixtures`` shows what changed.
A new kind of page (render/registry.py) fails ``test_every_page_kind_has_a_stored_sample`` until
its row in KINDS names a ``sample``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, Stored, copy_seeds
from readinglist.config import load_config
from readinglist.render.registry import BY_NAME, KINDS, samples
from readinglist.site import generate

PAGES = FIXTURES / "pages"
# One page of each kind that the generator writes as MyST: the ``sample`` of its row in KINDS.
SAMPLES = samples()
# The sample paper's data file: its related lists and graph, which its page's blocks name.
DATA_SAMPLE = "related/lin2020dapple.json"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The MyST pages ``readinglist generate`` writes for a copy of the seeds (docs/-relative path to text)."""
    config = load_config(copy_seeds(tmp_path_factory.mktemp("pages") / "seeds"))
    generate.run(config)
    docs = config.docs_path
    return {p.relative_to(docs).as_posix(): p.read_bytes().decode("utf-8") for p in docs.rglob("*.md")} | {
        DATA_SAMPLE: (docs / DATA_SAMPLE).read_bytes().decode("utf-8")
    }


def test_every_page_kind_has_a_stored_sample() -> None:
    assert sorted(SAMPLES) == sorted(kind.name for kind in KINDS if ".md" in kind.suffixes)
    for name, rel in SAMPLES.items():
        assert BY_NAME[name].holds(rel.removesuffix(".md")), (name, rel)
    stored = {p.relative_to(PAGES).as_posix() for p in PAGES.rglob("*") if p.is_file()}
    assert stored - {*SAMPLES.values(), DATA_SAMPLE} == set(), "a stored page that no kind samples: remove it"


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_the_generated_page_is_the_stored_one(pages: dict[str, str], stored: Stored, kind: str) -> None:
    rel = SAMPLES[kind]
    assert rel in pages, f"the seeds no longer generate {rel}: pick another {kind} page in SAMPLES"
    stored.check(PAGES / rel, pages[rel])


def test_the_sample_papers_data_file_is_the_stored_one(pages: dict[str, str], stored: Stored) -> None:
    stored.check(PAGES / DATA_SAMPLE, pages[DATA_SAMPLE])


def test_a_difference_fails_and_names_the_switch(tmp_path: Path) -> None:
    """The comparison is byte for byte (a trailing space counts), and its message says how to update."""
    path = tmp_path / "page.md"
    path.write_text("# Title\n", encoding="utf-8")
    Stored(update=False).check(path, "# Title\n")
    with pytest.raises(AssertionError, match="--update-fixtures"):
        Stored(update=False).check(path, "# Title \n")
    Stored(update=True).check(path, "# Title \n")
    assert path.read_text(encoding="utf-8") == "# Title \n"
