"""The related-work graph in a real browser: drawn, its nodes link to the right pages, Tab reaches
them, and axe finds nothing critical or serious, in light and dark.

Uses Debian's chromium through Playwright and axe-core (tests/node_modules, from .ci/run);
skipped where either is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CHROMIUM, build_site, chromium, copy_seeds, serving

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = pytest.mark.skipif(CHROMIUM is None or not AXE.is_file(), reason="needs chromium and axe-core (.ci/run)")
PAPER = "papers/lin2018fusionstitching.html"  # three versions of one system and content links
TOPIC = "topics/ml-systems.html"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(build_site(copy_seeds(tmp_path_factory.mktemp("graph") / "seeds"))) as base:
        yield base


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Any]:
    with chromium() as instance:
        yield instance


# An SVG link's ``href`` is an SVGAnimatedString: the attribute, resolved against the page.
NODES = """() => [...document.querySelectorAll("figure.rl-graph svg a")].map(a => ({
  href: new URL(a.getAttribute("href"), location.href).href,
  name: a.querySelector("title").textContent, box: a.getBoundingClientRect().width}))"""
RELATED = """() => [...document.querySelectorAll("#related-papers ul.readinglist-links > li > p > a")]
  .map(a => a.href)"""


@pytest.mark.parametrize("name", [PAPER, TOPIC])
def test_graph_nodes_link_to_the_right_pages(browser: Any, site: str, name: str) -> None:
    page = browser.new_page()
    page.goto(f"{site}/{name}")
    nodes = page.evaluate(NODES)
    assert len(nodes) >= 2 and all(n["box"] > 0 for n in nodes)  # drawn, not only in the markup
    if name == PAPER:  # the graph's nodes are the papers the related lists name
        assert sorted(n["href"] for n in nodes) == sorted(page.evaluate(RELATED))
    for node in nodes:  # each node opens the page of the paper it names
        page.goto(node["href"])
        title = page.locator("article h1").first.inner_text().strip().rstrip("#").strip()
        assert node["name"].startswith(title[:40]), (node, title)
    page.close()


def test_tab_reaches_every_node_of_the_graph(browser: Any, site: str) -> None:
    page = browser.new_page()
    page.goto(f"{site}/{PAPER}")
    expected = len(page.evaluate(NODES))
    assert expected >= 2
    reached = []
    for _ in range(300):
        page.keyboard.press("Tab")
        href = page.evaluate("() => document.activeElement.closest('figure.rl-graph svg a')?.getAttribute('href')")
        if href:
            reached.append(href)
        elif reached:
            break  # past the graph
    assert len(reached) == expected and len(set(reached)) == expected
    page.close()


AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "critical" || v.impact === "serious").map(v => `${v.id}: ${v.nodes.length}`)"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_a_graph(browser: Any, site: str, scheme: str) -> None:
    page = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844}).new_page()
    for name in (PAPER, TOPIC):
        page.goto(f"{site}/{name}")
        assert page.locator("figure.rl-graph").count() == 1
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(AXE_RUN) == [], name
    page.context.close()
