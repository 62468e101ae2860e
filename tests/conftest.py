"""Shared fixtures and helpers: the seed reading list, a seed-imported refs.bib, Sphinx's test
roots, the one way to read a built page (BeautifulSoup), and the browser tests' setup.

Test modules share code only through this module: none imports another test module.

The seed list is a frozen copy under tests/fixtures/seeds/ (dumps, conf/, refs.bib, docs/
essentials), never the repository's live files: adding a paper to this repository's own
refs.bib, or a dump to its conf/sources/, must keep the suite green.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from hypothesis import settings

# Speed is a benchmark figure, never a test: no example may fail for taking long (on a loaded
# machine a 200 ms deadline failed an example that takes 0.5 ms).
settings.register_profile("readinglist", deadline=None)
settings.load_profile("readinglist")

# pyproject's addopts already passes ``-p sphinx.testing.fixtures``; naming the plugin here too is
# harmless (pytest skips a plugin that is already registered) and keeps the suite working when it
# runs without those addopts (``pytest -o addopts=''``).
pytest_plugins = ("sphinx.testing.fixtures",)

# The repository's own reading list: what the tests must never read or write (see _live_list_untouched).
_REPO = Path(__file__).resolve().parent.parent
LIVE_LIST = tuple(str(_REPO / name) for name in ("refs.bib", ".refs.bib.lock", "conf", "docs"))
# The repository's tools, not its list: tests of the serve benchmark run the noxfile's session.
TOOLS = {name: _REPO / name for name in ("noxfile.py", "benchmarks")}
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = FIXTURES / "seeds"  # a reading-list project: refs.bib, conf/ (with the dumps), docs/ essentials
SOURCES_DIR = SEEDS / "conf" / "sources"
SEED_NAMES = ("jun-yang", "wei-lin", "xin-liu")


# The slowest tests, by node id (a module, or one test): `nox -s tests` leaves them out (-m "not slow")
# and `nox -s tests_slow` runs them (-m slow); CI runs both sessions, so every test runs. Chosen by
# `pytest --durations` (485 s of test time in all on 2 idle cores; these, 270 s of it): every test
# that drives Chromium, builds killed and rebuilt, and the single tests of 10 s or more.
SLOW = (
    "tests/test_browser",  # every test_browser*.py: Chromium on a built site
    "tests/test_a11y.py",  # axe-core on every kind of page, in three colour schemes
    "tests/test_search_facets.py",  # Pagefind's filters and sorts, in Chromium
    "tests/test_search_relevance.py",  # the relevance set, searched in Chromium
    "tests/test_build_safety.py",  # builds killed with real signals at every stage, then healed
    "tests/test_rebuild.py",  # builds one after another, each timed by its files
    "tests/test_zotero_site.py::test_a_thousand_items_sync_into_a_new_list_that_builds_with_zero_warnings",
    "tests/test_hostile_site.py::test_arbitrary_records_render_exactly_and_inject_nothing",  # hypothesis builds
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-fixtures",
        action="store_true",
        help="rewrite the stored expected outputs under tests/fixtures/ (*.expected.json, pages/) from what "
        "the code gives now, instead of comparing them; then review the change with git diff tests/fixtures",
    )


class Stored:
    """Stored expected outputs (tests/fixtures/): ``check`` compares what the code gives with the
    stored file byte for byte, or, under ``pytest --update-fixtures``, rewrites the file instead."""

    def __init__(self, update: bool) -> None:
        self.update = update
        self.updated: list[Path] = []  # the files it rewrote

    def check(self, path: Path, actual: str) -> None:
        data = actual.encode("utf-8")
        if self.update:
            if not path.is_file() or path.read_bytes() != data:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                self.updated.append(path)
            return
        assert path.is_file(), f"{path} is not stored yet: run pytest --update-fixtures and review it"
        expected = path.read_bytes().decode("utf-8")
        assert actual == expected, f"{path} is not what the code gives: if that is meant, run pytest --update-fixtures"

    def check_json(self, path: Path, value: object, indent: int = 2) -> None:
        """``value`` as the stored files write JSON: indented, UTF-8, one final newline."""
        self.check(path, json.dumps(value, indent=indent, ensure_ascii=False) + "\n")


_STORED: list[Stored] = []  # the session's, for the terminal summary


@pytest.fixture(scope="session")
def stored(pytestconfig: pytest.Config) -> Stored:
    """The session's stored outputs: compared, or rewritten with ``--update-fixtures``."""
    _STORED.append(Stored(bool(pytestconfig.getoption("--update-fixtures"))))
    return _STORED[-1]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("--update-fixtures"):
        rewritten = [path for session in _STORED for path in session.updated]
        terminalreporter.section("--update-fixtures")
        for path in rewritten:
            terminalreporter.write_line(f"rewrote {path}")
        terminalreporter.write_line(f"{len(rewritten)} stored outputs rewritten; review them: git diff tests/fixtures")


def seed_paths() -> list[Path]:
    return [SOURCES_DIR / f"{name}.txt" for name in SEED_NAMES]


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=NAME)`` finds ``test-NAME``: one project per case."""
    return Path(__file__).parent / "roots"


@pytest.fixture
def sphinx_test_tempdir(tmp_path: Path) -> Path:
    """Where sphinx.testing copies a test root (``copy_test_root=True``): this test's own folder.

    sphinx.testing's own is one folder for the whole session, so every test of a root built into the
    same copy and saw the builds of the tests before it; here each test starts from the root as committed.
    """
    return tmp_path


@pytest.fixture(scope="session")
def seed_bib_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """refs.bib as a first import of the three seed dumps writes it (computed once per session)."""
    from readinglist.store import importer

    bib = tmp_path_factory.mktemp("seed-import") / "refs.bib"
    importer.run(seed_paths(), bib, SEEDS)
    return bib.read_text(encoding="utf-8")


@pytest.fixture
def seed_config(tmp_path: Path, seed_bib_text: str) -> Any:
    """The seed project in a folder of its own, its refs.bib as the first import writes it."""
    from readinglist.config import load_config

    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    return load_config(root)


@pytest.fixture
def seed_bib(tmp_path: Path, seed_bib_text: str) -> Path:
    """A private copy of the seed-imported refs.bib."""
    path = tmp_path / "refs.bib"
    path.write_text(seed_bib_text, encoding="utf-8")
    return path


def generate_in_a_process(root: Path, own_process: bool, setup: str, report: str) -> list[str]:
    """``cli.main([... "generate"], own_process=...)`` on ``root`` in a new interpreter, after
    ``setup`` (code; ``os``, ``gc`` and ``sys`` are imported): its status and the value of
    ``report`` (an expression), as printed. ``cli.console`` passes ``own_process``; a test must
    not, in its own process (generate would tune the collector and fork)."""
    script = (
        f"import gc, os, sys\nfrom readinglist import cli\n{setup}\n"
        "status = cli.main(['--root', sys.argv[1], 'generate'], own_process=sys.argv[2] == 'own')\n"
        f"print(status, {report})\n"
    )
    mode = "own" if own_process else "shared"
    done = subprocess.run([sys.executable, "-c", script, str(root), mode], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-2:]


def generate_again(docs: Path, *, results: bool = False) -> None:
    """The next generate runs in full: its inputs' stamp cleared (site/changes.py), and with
    ``results`` every cached result dropped, as if the state file held only the manifest."""
    from readinglist.site import changes, manifest

    store = manifest.open_state(docs)
    changes.unstamp(store)
    if results:
        store.entries.clear()
    store.save()


def copy_seeds(dest: Path, *, refs: bool = True, sources: bool = True, notes: bool = True) -> Path:
    """A private copy of the seed project at ``dest``, to import into, generate and build in."""
    skip = [name for name, keep in (("sources", sources), ("notes", notes), ("refs.bib", refs)) if not keep]
    shutil.copytree(SEEDS, dest, ignore=shutil.ignore_patterns("README.md", *skip))
    return dest


@pytest.fixture
def seed_project(tmp_path: Path) -> Path:
    """A private copy of the seed project, with its committed refs.bib."""
    return copy_seeds(tmp_path / "seeds")


_live_reads: list[str] = []


def _is_live(path: str) -> bool:
    return any(path == top or path.startswith(top + os.sep) for top in LIVE_LIST)


def _audit(event: str, args: tuple[object, ...]) -> None:
    # Every open and every folder listing of this process: a test that reads the live list (a
    # cwd-relative "refs.bib", a `main([...])` without --root) is caught however it got the path.
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], str | bytes | os.PathLike):
        path = os.path.abspath(os.fsdecode(args[0]))
        if _is_live(path):
            _live_reads.append(path)


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def _live_list_untouched() -> Iterator[None]:
    """Fail a test that opened or listed this repository's refs.bib, conf/ or docs/."""
    # Not cleared before the test: what module-scoped fixtures and imports read counts too.
    yield
    if _live_reads:
        found = sorted(set(_live_reads))
        del _live_reads[:]
        pytest.fail(f"the test read the repository's own list, not tests/fixtures/seeds: {found[:5]}")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches the arXiv API or Crossref: unless a test serves them itself, their base
    URLs are a closed port on this machine (subprocesses inherit the environment)."""
    monkeypatch.setenv("READINGLIST_ARXIV_API", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("READINGLIST_CROSSREF_API", "http://127.0.0.1:9/works/")


# --- a built page, as BeautifulSoup reads it (every test that parses HTML goes through these) ------


def directive_lines(markdown: str, name: str) -> list[dict[str, Any]]:
    """The JSON objects of every ``{name}`` block of a generated page (``readinglist-cite``,
    ``readinglist-cards``, ``readinglist-links``: data the extension renders as one node)."""
    blocks = re.findall(rf"^(`{{3,}})\{{{re.escape(name)}\}}\n(.*?)\n\1$", markdown, re.S | re.M)
    return [json.loads(line) for _, body in blocks for line in body.splitlines()]


def cite_tab(markdown: str, label: str) -> str:
    """The text of one tab of a paper page's Cite menu (``BibTeX``, ``Plain text``, ...)."""
    [text] = [tab["text"] for tab in directive_lines(markdown, "readinglist-cite") if tab["label"] == label]
    return str(text)


def soup(page: Path | str) -> BeautifulSoup:
    """A built page (a path) or a piece of markup (a string), parsed by BeautifulSoup's html.parser."""
    return BeautifulSoup(page.read_text(encoding="utf-8") if isinstance(page, Path) else page, "html.parser")


def words(node: Tag) -> str:
    """The text of ``node`` as a reader reads it: each run of whitespace one space."""
    return " ".join(node.get_text().split())


def find(node: Tag, name: str | None = None, **attrs: Any) -> Tag:
    """The first element below ``node`` that matches (BeautifulSoup's ``find``); fails the test if none."""
    found = node.find(name, **attrs)
    assert isinstance(found, Tag), f"no <{name or '*'} {attrs}> in <{node.name}>"
    return found


def attr(node: Tag, name: str) -> str:
    """The value of a single-valued attribute (``href``, ``id``, ``src``…); fails the test if it is missing."""
    value = node.get(name)
    assert isinstance(value, str), f"<{node.name}> has no {name}= (or a list of values)"
    return value


def main_content(page: Path) -> Tag:
    """The article of a built page (furo's ``<article role="main">``), without the theme around it."""
    return find(soup(page), "article", role="main")


# --- the built site in a browser (the browser tests share these instead of each writing its own) ---
CHROMIUM = shutil.which("chromium")  # Debian's package (.ci/run installs it); Playwright downloads none
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"  # from .ci/run's npm install
browser_only = pytest.mark.skipif(CHROMIUM is None or not AXE.is_file(), reason="needs chromium and axe-core (.ci/run)")
# axe-core's serious and critical violations on the page, one line each.
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "critical" || v.impact === "serious")
  .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(" ")).join(", ")}`)"""
# Pagefind's UI says "N results for ..." and then fills in the first five results one by one.
RESULTS_SHOWN = """() => {
  const message = document.querySelector(".pagefind-ui__message")?.textContent ?? "";
  const found = /^(\\d+) results? for/.exec(message);
  if (message.startsWith("No results")) return true;
  const shown = document.querySelectorAll(".pagefind-ui__result-link").length;
  return found !== null && shown >= Math.min(Number(found[1]), 5);
}"""


# The seed list has 28 papers, one shard of the search index at the usual shard size: the browser
# tests build it with 4 papers a shard (4 shards of papers), so every search runs on merged shards.
SHARD_PAGES = "4"


def build_site(project: Path, *options: str) -> Path:
    """``readinglist build`` of ``project`` (-n -W --keep-going, and ``options``); its HTML folder."""
    from readinglist.cli import main
    from readinglist.site.shards import SIZE_ENV

    out = project / "docs" / "_build" / "html"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SIZE_ENV, SHARD_PAGES)
        assert main(["--root", str(project), "build", *options, "--out", str(out)]) == 0
    return out


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(built: Path) -> Iterator[str]:
    """The module's built site (its ``built`` fixture) served on loopback: Pagefind loads its index over HTTP."""
    with serving(built) as base:
        yield base


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``folder`` served on loopback (Pagefind loads its index over HTTP); the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright (the test is skipped without Playwright)."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
