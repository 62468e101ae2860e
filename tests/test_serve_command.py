"""``nox -s serve``: the command line it runs, and what its watcher ignores.

The serve benchmark (benchmarks/serve.py, docs/develop/performance.md) times the command that
the serve session of a noxfile builds; these tests check it is that command, for a new list's
noxfile and this repository's, without starting a server or a browser.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import TOOLS
from readinglist.render import registry
from readinglist.writer import write_if_changed

BENCHMARKS, NOXFILE = TOOLS["benchmarks"], TOOLS["noxfile.py"]


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # its modules import one another by name
    spec = importlib.util.spec_from_file_location("serve_bench", BENCHMARKS / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def expected(*watched: str) -> list[str]:
    ignores = [arg for pattern in registry.serve_ignores() for arg in ("--re-ignore", pattern)]
    return ["sphinx-autobuild", "docs", "docs/_build/html", "--watch", "refs.bib", "--watch", "conf", *watched,
            "--ignore", "*/.readinglist-*", *ignores, "-D", "readinglist_exit_frozen=1", "--port", "8123"]  # fmt: skip


def test_the_benchmark_runs_the_serve_session_of_a_new_lists_noxfile(serve: ModuleType, tmp_path: Path) -> None:
    command = serve.serve_command(serve.SCAFFOLD_NOXFILE, ["--port", "8123"], tmp_path)
    assert command == expected()


def test_this_repositorys_serve_session_also_watches_its_source(serve: ModuleType, tmp_path: Path) -> None:
    """It assumes the repository's root: a reading list has no src/ (sphinx-autobuild would stop)."""
    assert serve.serve_command(NOXFILE, ["--port", "8123"], tmp_path) == expected("--watch", "src")


def test_serve_ignores_the_temporary_files_of_the_generators_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated page at the top of docs/ is written through a temporary file beside it; seen by
    the watcher, it started a second build after every build that wrote one (a status change)."""
    temporaries: list[str] = []
    replace = os.replace

    def recording(src: str, dst: str) -> None:
        temporaries.append(str(src))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", recording)
    docs = tmp_path / "docs"
    for name in ("index.md", "queue.md", "records.json", ".readinglist-manifest.json"):
        write_if_changed(docs / name, "generated\n", durable=False)
    patterns = [re.compile(p) for p in registry.serve_ignores()]
    assert len(temporaries) == 4
    for path in temporaries:
        assert any(p.search(path) for p in patterns), path
    for person in ("guide.md", "notes/x.md", "develop/architecture.md", "notes/.x.md.swp"):
        assert not any(p.search(f"{docs}/{person}") for p in patterns), person
