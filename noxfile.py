"""Sessions: docs (build the site), serve (live preview), tests, tests_slow, tests_lowest, lint, bench."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import nox

nox.options.sessions = ["tests", "tests_slow", "lint"]
nox.options.reuse_existing_virtualenvs = True
# uv where it is installed (CI installs it): a session's install takes seconds instead of most of a
# minute, and CI makes five of them. Without uv, nox falls back to virtualenv and pip.
nox.options.default_venv_backend = "uv|virtualenv"
# pip compiles the packages' bytecode as it installs them; uv only when asked. Where
# PYTHONDONTWRITEBYTECODE is set (CI's machines set it), every process would otherwise compile
# Sphinx and docutils again: the suite took half as long again.
os.environ.setdefault("UV_COMPILE_BYTECODE", "1")
HTML = "docs/_build/html"


@nox.session
def docs(session: nox.Session) -> None:
    """Build this repository's reading list into docs/_build/html (warnings are errors)."""
    session.install("-e", ".")
    session.run("readinglist", "build", "--out", HTML, *session.posargs)
    # The guide shows every screenshot, each a small PNG (tests never read docs/: see tests/conftest.py).
    session.run("python", "benchmarks/screenshots.py", "--check")


@nox.session
def serve(session: nox.Session) -> None:
    """Live preview: rebuild on every change to refs.bib, conf/ or docs/, served on localhost."""
    session.install("-e", ".[serve]")
    # The generated files (render/registry.py) are a build's own output, not edits to rebuild for.
    generated = session.run("python", "-c", IGNORES, silent=True) or ""
    session.run(
        "sphinx-autobuild", "docs", HTML, "--watch", "refs.bib", "--watch", "conf", "--watch", "src",
        "--ignore", "*/.readinglist-*",  # the generator's state: manifest, fingerprint, caches, lock
        *[arg for pattern in str(generated).split() for arg in ("--re-ignore", pattern)],
        "-D", "readinglist_exit_frozen=1",  # each rebuild is a process that exits: no last collection
        *session.posargs,
    )  # fmt: skip


IGNORES = "from readinglist.render.registry import serve_ignores; print(*serve_ignores())"


# pytest-xdist, one worker a core; a module's tests stay on one worker, so its built site is built once.
PARALLEL = ("-n", "auto", "--dist", "loadfile")


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite but the slow tests (pytest, hypothesis property tests, Sphinx test roots), on every core."""
    session.install("-e", ".[test]")
    session.run("pytest", *PARALLEL, "-m", "not slow", *session.posargs)


@nox.session
def tests_slow(session: nox.Session) -> None:
    """The slow tests (browsers, builds killed at every stage; tests/conftest.py names them): CI runs both."""
    session.install("-e", ".[test]")
    session.run("pytest", *PARALLEL, "-m", "slow", *session.posargs)


# A dependency with an upper bound is an upstream whose internals readinglist/compat.py relies on.
BOUNDED = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([^,<>=!]+),<")


def lowest_constraints(pyproject: Path = Path("pyproject.toml")) -> list[str]:
    """``name==lower`` for each bounded dependency: pip resolves to the newest, so the lowest are pinned."""
    dependencies = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    found = (BOUNDED.match(d.replace(" ", "")) for d in dependencies)
    return [f"{m.group(1)}=={m.group(2)}" for m in found if m]


@nox.session
def tests_lowest(session: nox.Session) -> None:
    """The fast suite at the lowest versions pyproject.toml allows of the bounded upstreams (Sphinx,
    docutils, MyST-Parser, sphinxcontrib-bibtex, pybtex, Pagefind); ``tests`` runs it at the highest."""
    constraints = Path(session.create_tmp()) / "lowest.txt"
    constraints.write_text("\n".join(lowest_constraints()) + "\n", encoding="utf-8")
    session.install("-c", str(constraints), "-e", ".[test]")
    session.run("python", "-m", "pip", "list", silent=False)  # the versions the run tested, in its log
    session.run("pytest", *PARALLEL, "-m", "not slow", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (lint and format check) and mypy (strict, over src/ and tests/)."""
    session.install("-e", ".[test,lint]", "types-PyYAML")  # mypy checks the tests and their imports too
    session.run("ruff", "check", "src", "tests", "benchmarks", "noxfile.py")
    session.run("ruff", "format", "--check", "src", "tests", "benchmarks", "noxfile.py")
    session.run("mypy")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmark on a synthetic list: ``nox -s bench -- --n 1000`` (options: benchmarks/bench.py --help)."""
    session.install("-e", ".", "pagefind[bin]")  # the wheel ships Pagefind's binary: no download at run time
    if "--serve" in session.posargs:  # sphinx-autobuild, timed from save to reload (benchmarks/serve.py)
        session.install("-e", ".[serve]")
    if "--browser" in session.posargs or "--serve" in session.posargs:
        session.install("playwright")  # drives the system's Chromium; no browser download
    session.run("python", "benchmarks/bench.py", *session.posargs)
