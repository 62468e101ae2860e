"""The built site in a real browser: search finds papers by title, abstract, author and notes.

Uses Debian's chromium through Playwright (no browser download); skipped where either is
missing, and run by .ci/run, which installs both.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
REPO = Path(__file__).resolve().parent.parent
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The repository's own reading list, built into a temporary folder and served on loopback."""
    from readinglist.cli import main

    out = tmp_path_factory.mktemp("site")
    assert main(["--root", str(REPO), "build", "--out", str(out)]) == 0
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def page(site: str) -> Iterator[object]:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser.new_page()
        browser.close()


def _search(page: object, site: str, query: str) -> list[str]:
    page.goto(f"{site}/search.html?q={query}")  # type: ignore[attr-defined]
    page.wait_for_selector("#search-results p.search-summary")  # type: ignore[attr-defined]
    links = page.locator("#search-results ul.search li a")  # type: ignore[attr-defined]
    return [href for href in links.evaluate_all("els => els.map(e => e.getAttribute('href'))")]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("DAPPLE", "papers/lin2020dapple.html"),  # a title word
        ("pipeline", "papers/lin2020dapple.html"),  # an abstract word
        ("FusionStitching", "papers/zhengfusionstitching.html"),  # in an inferred title
        ("Guoping", "papers/wang2019characterizing.html"),  # an author's name
        ("1F1B", "papers/lin2020dapple.html"),  # a word only in the notes
    ],
)
def test_search_finds(page: object, site: str, query: str, expected: str) -> None:
    results = _search(page, site, query)
    assert any(href.split("#")[0].split("?")[0].endswith(expected) for href in results), results


def test_every_paper_is_reachable_from_the_landing_page(page: object, site: str) -> None:
    seen: set[str] = set()
    queue = [f"{site}/index.html"]
    while queue:
        url = queue.pop()
        if url in seen or not url.startswith(site) or "/_" in url:
            continue
        seen.add(url)
        page.goto(url)  # type: ignore[attr-defined]
        hrefs = page.locator("article a[href]").evaluate_all("els => els.map(e => e.href.split('#')[0])")  # type: ignore[attr-defined]
        queue.extend(h for h in hrefs if h.endswith(".html") and "/papers/" not in url)
        seen.update(h for h in hrefs if "/papers/" in h)
    assert len({u for u in seen if "/papers/" in u}) == 28


def test_math_renders_as_mathml(page: object, site: str) -> None:
    page.goto(f"{site}/papers/gaovacl.html")  # type: ignore[attr-defined]
    assert page.locator("article math").count() >= 1  # type: ignore[attr-defined]
    page.goto(f"{site}/papers/lin2019c3.html")  # type: ignore[attr-defined]
    assert page.locator("h1 sup").inner_text() == "3"  # type: ignore[attr-defined]
