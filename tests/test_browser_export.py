"""Feeds, the Cite menu's formats and the selection, in the built seed site served over HTTP.

Uses Debian's chromium through Playwright (as tests/test_browser.py does); skipped where either
is missing. Feeds are read by feedparser from the served site, as a feed reader would.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rispy
import yaml
from pybtex.database import parse_string

from conftest import AXE, AXE_RUN, CHROMIUM, build_site, chromium, copy_seeds, serving

feedparser = pytest.importorskip("feedparser")
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
ATOM = 'link[rel="alternate"][type="application/atom+xml"]'


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_seeds(tmp_path_factory.mktemp("export") / "seeds")
    build_site(root, "--no-search")
    return root


@pytest.fixture(scope="module")
def site(project: Path) -> Iterator[str]:
    with serving(project / "docs" / "_build" / "html") as base:
        yield base


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Any]:
    with chromium() as instance:
        context = instance.new_context(accept_downloads=True)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
        yield context


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh tab that fails the test on any console error or uncaught exception."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    tab.close()
    assert errors == []


def _feeds(page: Any, url: str) -> dict[str, str]:
    page.goto(url)
    links = page.locator(ATOM).evaluate_all("els => els.map(e => [e.title, e.href])")
    return dict(links)


def _added(project: Path) -> list[tuple[datetime.date, str]]:
    """The seed notes' ``added`` dates, read here from the files themselves, newest first."""
    found = []
    for path in (project / "docs" / "notes").glob("*.md"):
        meta = yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1]) or {}
        if "added" in meta:
            found.append((meta["added"], path.stem))
    return sorted(found, key=lambda ds: (-ds[0].toordinal(), ds[1]))


def _valid(feed: Any) -> None:
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.feed.title and feed.feed.id and feed.feed.updated and feed.entries
    for entry in feed.entries:
        assert entry.id and entry.title and entry.updated and entry.link.startswith("http://127.0.0.1")


def test_every_feed_parses_and_the_site_feed_starts_with_the_newest_additions(
    project: Path, site: str, page: Any
) -> None:
    home = _feeds(page, f"{site}/index.html")
    [(title, url)] = home.items()
    assert url == f"{site}/feeds/all.xml" and title.endswith("newest papers")
    feed = feedparser.parse(url)
    _valid(feed)
    added = _added(project)
    assert len(added) >= 3
    newest = feed.entries[: len(added)]
    assert [e.link.removeprefix(f"{site}/papers/").removesuffix(".html") for e in newest] == [s for _, s in added]
    assert [e.updated[:10] for e in newest] == [str(d) for d, _ in added]
    files = sorted(p.name for p in (project / "docs" / "_build" / "html" / "feeds").glob("*.xml"))
    assert {"all.xml", "topic-ml-systems.xml", "tag-scheduling.xml", "author-wei-lin.xml"} <= set(files)
    for name in files:
        _valid(feedparser.parse(f"{site}/feeds/{name}"))


def test_topic_tag_and_author_pages_advertise_their_feeds(site: str, page: Any) -> None:
    topic = _feeds(page, f"{site}/topics/ml-systems.html")
    assert f"{site}/feeds/topic-ml-systems.xml" in topic.values() and f"{site}/feeds/all.xml" in topic.values()
    tag = _feeds(page, f"{site}/tags/scheduling.html")
    assert f"{site}/feeds/tag-scheduling.xml" in tag.values()
    feed = feedparser.parse(f"{site}/feeds/tag-scheduling.xml")
    assert [e.link for e in feed.entries] == [f"{site}/papers/lin2019dl2.html"]
    authors = _feeds(page, f"{site}/authors/l.html")
    assert f"{site}/feeds/author-wei-lin.xml" in authors.values()
    wei = feedparser.parse(f"{site}/feeds/author-wei-lin.xml")
    assert all(any(a.name == "Wei Lin" for a in e.authors) for e in wei.entries)


def _copy(page: Any, label: str) -> str:
    menu = page.locator(".readinglist-cite")
    menu.locator("label.sd-tab-label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")).click()
    panel = menu.locator(".sd-tab-content:visible")
    panel.locator("pre").hover()
    panel.locator("button.copybtn").click()
    copied: str = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == panel.locator("pre").inner_text().strip()
    return copied


def test_each_cite_format_is_copied_and_parses_back(site: str, page: Any) -> None:
    page.goto(f"{site}/papers/lin2019dl2.html")
    labels = page.locator(".readinglist-cite label.sd-tab-label").all_inner_texts()
    assert [label.strip() for label in labels] == [
        "BibTeX", "BibLaTeX", "RIS", "CSL-JSON", "ACL", "Plain text", "Markdown",
    ]  # fmt: skip
    assert list(parse_string(_copy(page, "BibTeX"), "bibtex").entries) == ["lin2019dl2"]
    biblatex = parse_string(_copy(page, "BibLaTeX"), "bibtex").entries["lin2019dl2"]
    assert "date" in biblatex.fields and "year" not in biblatex.fields
    [item] = json.loads(_copy(page, "CSL-JSON"))
    assert item["id"] == "lin2019dl2" and item["title"].startswith("DL2")
    [record] = rispy.loads(_copy(page, "RIS"))
    assert record["title"] == item["title"] and record["year"] == "2019"
    assert item["title"] in _copy(page, "ACL")


def _tick(page: Any, slug: str) -> None:
    page.locator(f'.readinglist-select input[data-slug="{slug}"]').first.check()


def _download(page: Any) -> str:
    with page.expect_download() as info:
        page.get_by_role("button", name="Download BibTeX").click()
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_a_selection_across_pages_downloads_exactly_the_ticked_papers(site: str, page: Any) -> None:
    page.goto(f"{site}/topics/vision.html")
    assert page.locator(".readinglist-selection").is_hidden()  # nothing ticked yet
    _tick(page, "wang2018graphadaptive")
    _tick(page, "gaovacl")
    page.goto(f"{site}/papers/lin2019dl2.html")  # another page: the ticks are kept
    assert page.locator('.readinglist-select input[data-slug="lin2019dl2"]').is_checked() is False
    _tick(page, "lin2019dl2")
    assert page.get_by_role("status").inner_text() == "3 papers selected"
    if AXE.is_file():  # the panel and the checkboxes in view, in light and dark
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            # The theme's colours change by CSS transitions (the Cite tabs' labels: 0.25 s): axe
            # measured contrast halfway through them on a busy CI machine.
            page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
            page.add_script_tag(path=str(AXE))
            assert page.evaluate(AXE_RUN) == [], scheme
    keys = set(parse_string(_download(page), "bibtex").entries)
    assert keys == {"wang2018graphadaptive", "gaovacl", "lin2019dl2"}
    page.goto(f"{site}/topics/vision.html")
    page.locator('.readinglist-select input[data-slug="gaovacl"]').first.uncheck()
    assert set(parse_string(_download(page), "bibtex").entries) == {"wang2018graphadaptive", "lin2019dl2"}
    page.get_by_role("button", name="Clear selection").click()
    assert page.locator(".readinglist-selection").is_hidden()
