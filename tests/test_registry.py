"""The page registry (issue 12, item 6): one table of the kinds of generated files, asked by the
generator, the manifest, the landing page's menu, the page template and ``nox -s serve``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, copy_seeds
from readinglist.config import load_config
from readinglist.project import init
from readinglist.render import registry
from readinglist.render.registry import Search, kind_of, may_write, search_of
from readinglist.site.assemble import build_library, site_files
from readinglist.site.manifest import is_owned_path

# (path under docs/, may the generator own it)
PATHS = [
    ("papers/x.md", True),
    ("topics/ml-systems/compilers.md", True),
    ("authors/l.md", True),
    ("index.md", True),
    ("years.md", True),
    ("bibliography.bib", True),
    ("downloads/reading-list.bib", True),
    ("records.json", True),
    ("guide.md", False),  # a person's page at the root
    ("develop/architecture.md", False),
    ("notes/x.md", False),  # people's notes, whatever the type
    ("papers/x.py", False),  # a type no kind writes there
    ("years.bib", False),
    ("conf.py", False),
    ("../refs.bib", False),
    ("/etc/passwd.md", False),
    ("papers//x.md", False),
]


@pytest.mark.parametrize(("rel", "owned"), PATHS)
def test_the_generator_owns_only_what_a_kind_writes(rel: str, owned: bool) -> None:
    assert is_owned_path(rel) is owned


def test_every_generated_file_of_the_seeds_has_its_kind(tmp_path: Path) -> None:
    config = load_config(copy_seeds(tmp_path / "seeds"))
    library, bibtex, notes = build_library(config)
    files = site_files(config, library, notes, bibtex, [])
    assert files, "the seeds generate files"
    assert [rel for rel in files if not may_write(rel)] == []
    kinds = {kind.name for rel in files if (kind := kind_of(rel.rsplit(".", 1)[0])) is not None}
    assert {"paper", "topic", "author", "year list", "bibliography", "landing page"} <= kinds
    toctree = re.search(r"```\{toctree\}\n:hidden:\n:caption: Browse\n\n(.*?)```", files["index.md"], re.S)
    assert toctree and toctree.group(1).split() == registry.menu()
    assert all(f"{page}.md" in files for page in registry.menu())  # the menu lists pages that exist


def test_search_treats_pages_by_kind() -> None:
    assert search_of("papers/dapple") is Search.PAPER
    assert search_of("authors/l") is Search.NONE
    assert search_of("topics/ml-systems/compilers") is Search.LIGHT
    assert search_of("guide") is Search.FULL  # a hand-written page


def test_serve_ignores_every_generated_file_and_no_hand_written_one() -> None:
    patterns = [re.compile(p) for p in registry.serve_ignores()]
    for rel, owned in PATHS[:10]:
        ignored = any(p.search(f"/repo/docs/{rel}") for p in patterns)
        assert ignored is owned, rel


def test_a_new_lists_gitignore_names_every_kind_of_generated_file(tmp_path: Path) -> None:
    """A kind missing there leaves its files untracked in every list (queue, tags, charts and
    feeds once were), one ``git add -A`` away from being committed: ``init`` writes them from the table."""
    init(tmp_path / "list")
    ignored = set((tmp_path / "list" / ".gitignore").read_text(encoding="utf-8").splitlines())
    for kind in registry.KINDS:
        names = [f"docs/{kind.folder}/"] if kind.folder else [f"docs/{kind.docname}{s}" for s in kind.suffixes]
        assert set(names) <= ignored, kind.name
    assert "docs/_build/" in ignored and "{{" not in "".join(ignored)


def test_each_renderer_a_row_names_is_a_function_of_the_inputs() -> None:
    named = [kind.render for kind in registry.KINDS if kind.render]
    assert len(registry.renderers()) == len(named) and all(callable(r) for r in registry.renderers())
    assert all(r.__name__ == name.partition(":")[2] for r, name in zip(registry.renderers(), named, strict=True))


def test_the_table_imports_no_renderer_and_the_pages_no_scikit_learn() -> None:
    """The renderers import the table (its folders); the table names them by module, found when pages render."""
    probe = (
        "import sys, readinglist.render.registry as r; print('readinglist.render.paper' in sys.modules); "
        "import readinglist.render.pages; print('sklearn' in sys.modules)"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["False", "False"]


def test_every_kind_of_myst_page_names_its_stored_sample() -> None:
    """A new kind of page is one row: its ``sample`` is the page tests/test_stored_pages.py compares."""
    samples = registry.samples()
    assert sorted(samples) == sorted(kind.name for kind in registry.KINDS if ".md" in kind.suffixes)
    for name, rel in samples.items():
        assert registry.BY_NAME[name].holds(rel.removesuffix(".md")), (name, rel)
        assert (FIXTURES / "pages" / rel).is_file(), f"{rel} is not stored: pytest --update-fixtures"
