"""The built site in a real browser: search (Pagefind) finds papers by title, abstract, author and notes.

Uses Debian's chromium through Playwright (no browser download); skipped where either is
missing, and run by .ci/run, which installs both.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CHROMIUM, RESULTS_SHOWN, build_site, chromium, copy_seeds

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed reading list (tests/fixtures/seeds), copied and built in a temporary folder."""
    return build_site(copy_seeds(tmp_path_factory.mktemp("browser") / "seeds"))


@pytest.fixture(scope="module")
def page(site: str) -> Iterator[object]:
    with chromium() as browser:
        yield browser.new_page()


def _results(page: object) -> list[str]:
    page.wait_for_function(RESULTS_SHOWN, timeout=15_000)  # type: ignore[attr-defined]
    links = page.locator(".pagefind-ui__result-link")  # type: ignore[attr-defined]
    return [href for href in links.evaluate_all("els => els.map(e => e.getAttribute('href'))")]


def _search(page: object, site: str, query: str) -> list[str]:
    page.goto(f"{site}/search.html?q={query}")  # type: ignore[attr-defined]
    return _results(page)


def _finds(results: list[str], expected: str) -> bool:
    return any(href.split("#")[0].split("?")[0].endswith(expected) for href in results)


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
    assert _finds(results, expected), results


def test_sidebar_search_box_shows_pagefind_results(page: object, site: str) -> None:
    page.goto(f"{site}/papers/lin2020dapple.html")  # type: ignore[attr-defined]
    page.fill("input.sidebar-search", "FusionStitching")  # type: ignore[attr-defined]
    page.press("input.sidebar-search", "Enter")  # type: ignore[attr-defined]
    page.wait_for_url("**/search.html?*")  # type: ignore[attr-defined]
    assert _finds(_results(page), "papers/zhengfusionstitching.html")
    assert page.input_value(".pagefind-ui__search-input") == "FusionStitching"  # type: ignore[attr-defined]


def test_search_page_from_a_file_says_to_serve_the_site(page: object, built: Path) -> None:
    page.goto((built / "search.html").as_uri() + "?q=DAPPLE")  # type: ignore[attr-defined]
    notice = page.locator("#search-needs-http")  # type: ignore[attr-defined]
    notice.wait_for(state="visible")
    assert "nox -s serve" in notice.inner_text() and "python -m http.server" in notice.inner_text()


def test_every_paper_is_reachable_from_the_landing_page(page: object, site: str) -> None:
    seen: set[str] = set()
    queue = [f"{site}/index.html"]
    while queue:
        url = queue.pop()
        if url in seen or not url.startswith(site) or "/_" in url:
            continue
        seen.add(url)
        page.goto(url)  # type: ignore[attr-defined]
        # Every link, those in a graph's SVG too (an SVG link's href is an object: read the attribute).
        script = "els => els.map(e => new URL(e.getAttribute('href'), document.baseURI).href.split('#')[0])"
        hrefs = page.locator("article a[href]").evaluate_all(script)  # type: ignore[attr-defined]
        queue.extend(h for h in hrefs if h.endswith(".html") and "/papers/" not in url)
        seen.update(h for h in hrefs if "/papers/" in h)
    assert len({u for u in seen if "/papers/" in u}) == 28


def test_math_renders_as_mathml(page: object, site: str) -> None:
    page.goto(f"{site}/papers/gaovacl.html")  # type: ignore[attr-defined]
    assert page.locator("article math").count() >= 1  # type: ignore[attr-defined]
    page.goto(f"{site}/papers/lin2019c3.html")  # type: ignore[attr-defined]
    assert page.locator("h1 sup").inner_text() == "3"  # type: ignore[attr-defined]


def test_every_bibliography_entry_links_to_its_page(page: object, site: str) -> None:
    page.goto(f"{site}/bibliography.html")  # type: ignore[attr-defined]
    entries = page.locator("article div.citation").evaluate_all(  # type: ignore[attr-defined]
        "els => els.map(e => [e.id, Array.from(e.querySelectorAll('a'), a => a.href)])"
    )
    assert len(entries) == 28
    for cite_id, hrefs in entries:
        target = f"{site}/papers/{cite_id.removeprefix('cite-')}.html"
        assert target in hrefs, (cite_id, hrefs)
        response = page.goto(target)  # type: ignore[attr-defined]
        assert response is not None and response.ok and page.locator("article h1").count() == 1  # type: ignore[attr-defined]


def test_the_abstract_is_open_on_a_wide_screen_and_closed_on_a_phone(page: object, site: str) -> None:
    """Issue 14: the problem, approach and result lines come first; on a phone the abstract
    below them starts closed, and a tap opens it."""
    abstract = "details.readinglist-abstract"
    try:
        for width, is_open in ((1280, True), (390, False)):
            page.set_viewport_size({"width": width, "height": 900})  # type: ignore[attr-defined]
            page.goto(f"{site}/papers/lin2018eenmf.html")  # type: ignore[attr-defined]
            page.wait_for_load_state("load")  # type: ignore[attr-defined]
            assert page.locator(abstract).evaluate("d => d.open") is is_open  # type: ignore[attr-defined]
        page.click(f"{abstract} > summary")  # type: ignore[attr-defined]
        assert page.locator(abstract).evaluate("d => d.open") is True  # type: ignore[attr-defined]
        text = page.locator("#summary").inner_text()  # type: ignore[attr-defined]
        assert "Approach:" in text and "significantly outperforms the baseline" in text
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})  # type: ignore[attr-defined]  # Playwright's default
