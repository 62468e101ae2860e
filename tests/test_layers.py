"""The pipeline's direction: sources -> store -> enrich -> render -> site; no stage imports a later one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import readinglist

PACKAGE = Path(readinglist.__file__).resolve().parent
ORDER = ("sources", "store", "enrich", "render", "site")


def _stages_imported(path: Path) -> set[str]:
    """The stages a module imports, read from its relative imports (lazy ones inside functions too)."""
    depth = len(path.relative_to(PACKAGE).parts) - 1
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = (node.module or "").split(".")
            if node.level == depth + 1 and parts[0] in ORDER:  # from ..stage[.module] import ...
                found.add(parts[0])
            elif node.level == depth + 1 and not node.module:  # from .. import stage
                found.update(a.name for a in node.names if a.name in ORDER)
    return found


@pytest.mark.parametrize("stage", ORDER)
def test_no_stage_imports_a_later_one(stage: str) -> None:
    later = set(ORDER[ORDER.index(stage) + 1 :])
    wrong = {
        str(path.relative_to(PACKAGE)): sorted(_stages_imported(path) & later)
        for path in sorted((PACKAGE / stage).rglob("*.py"))
    }
    assert {k: v for k, v in wrong.items() if v} == {}


ADAPTER = PACKAGE / "site" / "sphinx_ext"
COMPAT = PACKAGE / "compat.py"  # the upstream contracts: Sphinx's inside its functions only
FRAMEWORKS = ("sphinx", "docutils")


def _frameworks_imported(path: Path, lazy: bool = True) -> set[str]:
    """The top-level packages of Sphinx and docutils a module imports (lazy imports too, unless not ``lazy``)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if lazy else tree.body:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in FRAMEWORKS)
    return found


def test_only_the_sphinx_adapter_imports_sphinx_or_docutils() -> None:
    outside = {
        str(path.relative_to(PACKAGE)): sorted(_frameworks_imported(path))
        for path in sorted(PACKAGE.rglob("*.py"))
        if ADAPTER not in path.parents and path != COMPAT
    }
    assert {k: v for k, v in outside.items() if v} == {}
    assert _frameworks_imported(ADAPTER / "links.py") == {"sphinx", "docutils"}  # the check sees imports


def test_the_compatibility_module_loads_sphinx_only_when_the_adapter_calls_it() -> None:
    """Every stage may import ``compat``; its Sphinx imports are inside the functions the adapter calls."""
    assert _frameworks_imported(COMPAT, lazy=False) == set()
    assert _frameworks_imported(COMPAT) == {"sphinx"}  # the check sees the lazy ones
    assert _frameworks_imported(ADAPTER / "links.py", lazy=False) == {"sphinx", "docutils"}


def _shared_imports(path: Path) -> set[str]:
    """The package's top-level modules (``cache``, ``model``...) a module imports, lazy ones too."""
    depth = len(path.relative_to(PACKAGE).parts) - 1
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == depth + 1:
            names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            found.update(name for name in names if (PACKAGE / f"{name}.py").is_file())
    return found


def _reached(module: str, seen: set[str] | None = None) -> set[str]:
    """The stages a top-level module imports, itself or through other top-level modules."""
    seen = set() if seen is None else seen
    seen.add(module)
    path = PACKAGE / f"{module}.py"
    stages = _stages_imported(path)
    for other in _shared_imports(path) - seen:
        stages |= _reached(other, seen)
    return stages


@pytest.mark.parametrize("stage", ORDER)
def test_no_shared_module_takes_a_stage_to_a_later_one(stage: str) -> None:
    """``render`` may import ``cache``, which imports ``store``; a ``store`` module may not import it."""
    later = set(ORDER[ORDER.index(stage) + 1 :])
    wrong = {
        f"{path.relative_to(PACKAGE)} -> {shared}": sorted(_reached(shared) & later)
        for path in sorted((PACKAGE / stage).rglob("*.py"))
        for shared in _shared_imports(path)
    }
    assert {k: v for k, v in wrong.items() if v} == {}
    assert _reached("cache") >= {"store"}  # the check sees a shared module's stages
