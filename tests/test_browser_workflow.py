"""The reading workflow in a real browser (issue 12, item 1): status badges on cards and paper
pages, the reading queue, tag pages and "Recently added or annotated", axe-clean in light, dark
and at 390 px. The expectations come from the seed notes' own front matter, not from the pages.

Uses Debian's chromium through Playwright; skipped where it or axe-core is missing (.ci/run
installs both).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CHROMIUM, SEEDS, build_site, chromium, copy_seeds, serving
from readinglist.render.notes import load_notes

playwright = pytest.importorskip("playwright.sync_api")
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = pytest.mark.skipif(CHROMIUM is None or not AXE.is_file(), reason="needs chromium and axe-core")
NOTES = {slug: note.meta for slug, note in load_notes(SEEDS / "docs" / "notes").items()}
# The papers of the main content's lists and cards, as page names ("papers/x").
PAPER_LINKS = """() => [...document.querySelectorAll("article[role=main] a[href*='papers/']")]
  .map(a => new URL(a.href).pathname.split("/").slice(-2).join("/").replace(/\\.html$/, ""))"""
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "critical" || v.impact === "serious")
  .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(" ")).join(", ")}`)"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The seed list (with its notes' front matter), built and served on loopback."""
    project = copy_seeds(tmp_path_factory.mktemp("workflow") / "seeds")
    with serving(build_site(project, "--no-search")) as base:
        yield base


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Any]:
    with chromium() as instance:
        yield instance


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    yield context.new_page()
    context.close()


def _with_status(status: str) -> set[str]:
    return {f"papers/{slug}" for slug, meta in NOTES.items() if meta.get("status") == status}


def test_a_status_badge_shows_on_cards(page: Any, site: str) -> None:
    page.goto(f"{site}/topics/language-search.html")
    card = page.locator(".sd-card", has=page.locator("a[href$='papers/lin2018transfer.html']"))
    assert card.locator(".sd-badge").inner_text() == "To read"
    page.goto(f"{site}/topics/ml-systems/compilers.html")  # FusionStitching's versions: one card, one badge
    fusion = page.locator(".sd-card", has=page.locator("a[href$='papers/lin2019fusionstitching.html']"))
    assert fusion.locator(".sd-badge").all_inner_texts() == ["To read"]
    page.goto(f"{site}/topics/ml-systems.html")  # counted as Sphinx writes the page (liststatus.py)
    assert "\nProgress: 1 read · 1 reading · 2 to read · 1 skipped.\n" in page.locator("article").inner_text()


def test_a_paper_page_shows_its_status_and_links_its_tags(page: Any, site: str) -> None:
    page.goto(f"{site}/papers/lin2019dl2.html")
    assert "Reading" in page.locator("article[role=main] .sd-badge").all_inner_texts()
    page.get_by_role("link", name="scheduling", exact=True).click()
    page.wait_for_url("**/tags/scheduling.html")
    assert page.evaluate(PAPER_LINKS) == ["papers/lin2019dl2"]


def test_the_queue_lists_exactly_the_to_read_papers(page: Any, site: str) -> None:
    page.goto(f"{site}/index.html")
    page.locator(".sidebar-tree").get_by_role("link", name="Reading queue").click()
    page.wait_for_url("**/queue.html")
    assert set(page.evaluate(PAPER_LINKS)) == _with_status("to-read")
    assert len(_with_status("to-read")) >= 3


def test_a_tag_page_lists_its_papers(page: Any, site: str) -> None:
    page.goto(f"{site}/tags/index.html")
    page.get_by_role("link", name="distributed training").click()
    page.wait_for_url("**/tags/distributed-training.html")
    tagged = {f"papers/{s}" for s, meta in NOTES.items() if "distributed training" in meta.get("tags", [])}
    assert set(page.evaluate(PAPER_LINKS)) == tagged == {"papers/lin2020dapple", "papers/zhoudasgd"}


def test_the_home_page_lists_recent_additions_newest_first(page: Any, site: str) -> None:
    page.goto(f"{site}/index.html")
    assert page.get_by_role("heading", name="Recently added or annotated").is_visible()
    dated = sorted((str(m["added"]), s) for s, m in NOTES.items() if "added" in m)
    links = page.locator("#recently-added-or-annotated li a").evaluate_all(
        "els => els.map(a => a.getAttribute('href'))"
    )
    assert [h.removesuffix(".html") for h in links] == [f"papers/{s}" for _, s in reversed(dated)]


WORKFLOW_PAGES = [
    "queue.html", "tags/index.html", "tags/kernel-fusion.html", "topics/index.html",
    "topics/ml-systems/compilers.html", "papers/lin2019dl2.html", "papers/lin2019aligraph.html", "index.html",
]  # fmt: skip


@pytest.mark.parametrize(
    "context",
    [{"color_scheme": "light"}, {"color_scheme": "dark"}, {"viewport": {"width": 390, "height": 844}}],
    ids=["light", "dark", "phone"],
)
def test_axe_finds_nothing_serious(browser: Any, site: str, context: dict[str, Any]) -> None:
    page = browser.new_context(**context).new_page()
    found = {}
    for name in WORKFLOW_PAGES:
        page.goto(f"{site}/{name}")
        page.add_script_tag(path=str(AXE))
        if violations := page.evaluate(AXE_RUN):
            found[name] = violations
    page.context.close()
    assert found == {}
