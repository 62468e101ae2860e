"""The suite does not depend on this repository's own reading list (issue 10, item 8).

A user who adds a paper to refs.bib or a dump to conf/sources/ must keep ``nox -s tests`` green,
so tests read the frozen copy under tests/fixtures/seeds/ and build in temporary folders. At run
time, conftest's audit hook fails any test that opens or lists the live refs.bib, conf/ or docs/;
this module checks the same statically, and that the frozen copy is a whole project.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import SEEDS, copy_seeds
from readinglist.config import load_config
from readinglist.store import bibfile

TESTS = Path(__file__).resolve().parent
# Ways to reach the repository root from a test module: the live list is one step from there.
REPO_ROOT = re.compile(
    r"\.parent\s*\.parent|\.parents\s*\[\s*[1-9]|\bPath\(\s*[\"'](?:\.\./)*(?:refs\.bib|conf|docs)\b"
)


def test_no_test_module_reaches_the_repository_root() -> None:
    offenders = [
        f"{path.name}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted(TESTS.glob("*.py"))
        if path.name not in {"conftest.py", Path(__file__).name}  # the guard, and this check's own strings
        for text in [path.read_text(encoding="utf-8")]
        for match in REPO_ROOT.finditer(text)
    ]
    assert offenders == [], "use conftest.SEEDS / copy_seeds (tests/fixtures/seeds), not the live list"


def test_conftest_names_the_repository_root_only_to_guard_it() -> None:
    text = (TESTS / "conftest.py").read_text(encoding="utf-8")
    assert len(REPO_ROOT.findall(text)) == 1
    assert [line.strip() for line in text.splitlines() if "_REPO" in line] == [
        "_REPO = Path(__file__).resolve().parent.parent",
        'LIVE_LIST = tuple(str(_REPO / name) for name in ("refs.bib", ".refs.bib.lock", "conf", "docs"))',
        'TOOLS = {name: _REPO / name for name in ("noxfile.py", "benchmarks")}',
    ]


def test_no_test_module_imports_another() -> None:
    """Shared code lives in conftest.py or a helper module (hostile_kit.py), never in a test module: a test
    module imported by another runs its module-level code twice and couples their fixtures."""
    tests = {path.stem for path in TESTS.glob("test_*.py")}
    found = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                found += [f"{path.name}:{node.lineno}: {name}" for name in names if name.split(".")[0] in tests]
    assert len(tests) > 40 and found == []


def test_the_seed_copy_is_a_whole_project(tmp_path: Path) -> None:
    config = load_config(copy_seeds(tmp_path / "seeds"))
    assert [p.name for p in config.source_paths()] == ["jun-yang.txt", "wei-lin.txt", "xin-liu.txt"]
    assert len(bibfile.load(config.bib_path).entries) == 28
    assert (config.docs_path / "conf.py").is_file() and config.taxonomy_path.is_file()
    assert (SEEDS / "docs" / "notes" / "lin2020dapple.md").is_file()
