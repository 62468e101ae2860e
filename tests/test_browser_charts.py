"""The papers-per-year charts in a real browser (issue 12, item 3): each theme shows its own chart,
with a title (the alt text) and the numbers as a table, and axe finds nothing serious.

Debian's chromium through Playwright, axe-core from .ci/run's npm install; skipped where missing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import AXE, AXE_RUN, browser_only, build_site, chromium, copy_seeds

pytestmark = browser_only
# One page of each kind with a chart: the landing page (by topic), a topic (by subtopic), and the
# authors' page for L, where Wei Lin (18 papers) has a chart and Xin Liu (6) has none.
PAGES = {
    "index.html": "Papers per year",
    "topics/ml-systems.html": "Papers per year in Machine-learning systems and compilers",
    "topics/ml-systems/compilers.html": "Papers per year in Compilers and kernel fusion",
    "authors/l.html": "Papers per year by Wei Lin",
}
SHOWN = "img.readinglist-chart:visible"
TABLE = "details.readinglist-chart-table"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(copy_seeds(tmp_path_factory.mktemp("charts") / "seeds"))


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Any]:
    with chromium() as instance:
        yield instance


def _shown(page: Any) -> dict[str, Any]:
    shown = page.locator(SHOWN)
    assert shown.count() == 1, page.url
    return dict(shown.evaluate("e => ({alt: e.alt, src: e.currentSrc, width: e.naturalWidth})"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_chart_shows_its_theme_with_a_title(browser: Any, site: str, scheme: str) -> None:
    page = browser.new_context(color_scheme=scheme).new_page()
    for name, title in PAGES.items():
        page.goto(f"{site}/{name}")
        shown = _shown(page)
        assert shown["alt"].startswith(f"Bar chart: {title[0].lower()}{title[1:]}, "), shown
        assert shown["alt"].endswith("The table below gives the numbers.")
        assert shown["width"] > 0 and shown["src"].endswith(".dark.svg") == (scheme == "dark"), shown
        assert page.locator(f"{TABLE} summary").inner_text().strip() == f"{title}, as a table"
    page.context.close()


def test_furos_theme_switch_swaps_the_chart(browser: Any, site: str) -> None:
    page = browser.new_context(color_scheme="light").new_page()
    page.goto(f"{site}/index.html")
    page.evaluate("document.body.dataset.theme = 'dark'")  # what furo's toggle button sets
    assert _shown(page)["src"].endswith(".dark.svg")
    page.context.close()


def test_the_table_gives_every_dated_paper_once(browser: Any, site: str, built: Path) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{site}/index.html")
    table = page.locator(f"{TABLE} table")
    assert not table.is_visible()  # collapsed until asked for
    page.locator(f"{TABLE} summary").click()
    rows = table.evaluate("t => [...t.rows].map(r => [...r.cells].map(c => c.innerText.trim()))")
    head, body = rows[0], rows[1:]
    assert head[0] == "Year" and head[-1] == "Total" and len(head) > 3  # split by topic
    for row in body:
        assert sum(map(int, row[1:-1])) == int(row[-1]), row
    records = json.loads((built / "records.json").read_text(encoding="utf-8"))
    years = Counter(r["year"] for r in records if r["year"])
    assert {int(row[0]): int(row[-1]) for row in body} == years
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_with_the_tables_open(browser: Any, site: str, scheme: str) -> None:
    page = browser.new_context(color_scheme=scheme).new_page()
    found = {}
    for name in PAGES:
        page.goto(f"{site}/{name}")
        page.locator(f"{TABLE} summary").click()
        page.add_script_tag(path=str(AXE))
        if violations := page.evaluate(AXE_RUN):
            found[name] = violations
    page.context.close()
    assert found == {}
