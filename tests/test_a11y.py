"""Everyone, every device: axe-core on the built site, the phone menu by keyboard, no 404s.

The browser tests use Debian's chromium through Playwright and axe-core 4, which .ci/run
installs into tests/node_modules/ (``npm install --prefix tests axe-core@4``); they are skipped where
either is missing. axe runs on every page in light mode, and on one page of each kind in dark
mode and at a phone's 390 px (every page in all three modes takes minutes, and the markup of
one kind of page does not change between pages). The markup and meta-tag tests need no browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from sphinx.application import Sphinx

from conftest import AXE, AXE_RUN, attr, browser_only, build_site, chromium, copy_seeds, soup
from readinglist.site.sphinx_ext import citemeta, records
from readinglist.site.sphinx_ext.a11y import accessible

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# One page of each kind; alyamkinlowpower has an inferred category (the dark-mode badge).
SAMPLE = [
    "index.html", "papers/lin2020dapple.html", "papers/alyamkinlowpower.html", "topics/index.html",
    "topics/ml-systems.html", "topics/ml-systems/compilers.html", "authors/index.html", "authors/l.html",
    "tags/index.html", "tags/scheduling.html", "bibliography.html", "years.html", "queue.html",
    "search.html", "guide.html", "develop/architecture.html", "genindex.html",
]  # fmt: skip
# The search page searched, and browsed by a filter with no term (pagefind-merged.js: browse).
SEARCHES = {"results": "q=pipeline", "browsing": "year=2019"}


def test_markup_fixes() -> None:
    body = (
        '<p class="caption" role="heading"><aside class="sidebar-drawer"><div role="list">'
        '<div class="citation" id="cite-x" role="doc-biblioentry"></div></div>'
        '<div class="highlight"><pre><span></span>@misc{x}</pre></div>'
        '<h2 id="wei-lin"><span id="author-wei-lin"></span>Wei Lin</h2>'
        '<a class="reference internal" href="#wei-lin"><span id="author-wei-lin"></span>Wei Lin</a>'
        '<div class="sd-card-body docutils">\n<p class="sd-card-text"><strong>DAPPLE</strong></p></div>'
    )
    fixed = accessible("authors/l", body)
    assert '<p class="caption" role="heading" aria-level="2">' in fixed
    assert 'role="listitem"' in fixed and "doc-biblioentry" not in fixed
    assert '<pre tabindex="0">' in fixed and 'aria-label="Site navigation"' in fixed
    assert fixed.count('id="author-wei-lin"') == 1  # the table of contents no longer repeats it
    assert '<p class="sd-card-text" role="heading" aria-level="3"><strong>DAPPLE' in fixed


def test_record_text_cannot_forge_the_markup_that_is_rewritten() -> None:
    escaped = "&lt;div class=&quot;highlight&quot;&gt;&lt;pre&gt; role=&quot;doc-biblioentry&quot;"
    assert accessible("papers/x", escaped) == escaped
    # Pygments leaves quotes as they are in a code block: a title in the BibTeX block stays as written.
    code = '<span class="s">{x role="doc-biblioentry"}</span>'
    assert accessible("papers/x", code) == code


def test_citation_meta_tags_name_only_what_the_source_gives() -> None:
    record = {
        "title": 'A "quoted" <b>title</b>', "title_inferred": False, "listed_authors": ["Wei Lin", "Jun Yang"],
        "authors": ["Wei Lin", "Jun Yang", "Xin Liu"],
        "et_al": True, "year": 2020, "doi": "10.1145/1", "eprint": "2007.01045",
    }  # fmt: skip
    tags = citemeta.tags(record)
    assert [c for n, c in tags if n == "citation_author"] == ["Wei Lin", "Jun Yang"]  # et al. adds no one
    assert ("citation_pdf_url", "https://arxiv.org/pdf/2007.01045") in tags
    assert '<meta name="citation_title" content="A &quot;quoted&quot; &lt;b&gt;title&lt;/b&gt;" />' in (
        citemeta.meta_html(record)
    )
    inferred = citemeta.tags({**record, "title_inferred": True, "doi": "", "eprint": "", "year": None})
    assert [n for n, _ in inferred] == ["citation_author", "citation_author"]  # no invented title


def test_a_page_record_is_read_from_its_own_line(tmp_path: Path) -> None:
    """records.json's lines begin with their url: a page's record is its line's, parsed alone."""
    (tmp_path / "records.json").write_text(
        '[\n{"url": "papers/a.html", "key": "a"},\n{"url": "papers/b.html", "key": "b", "broken\n'
        '{"url": "papers/c.html", "key": "c"}\n]\n',
        encoding="utf-8",
    )
    app = cast(Sphinx, SimpleNamespace(srcdir=str(tmp_path)))
    assert records.record(app, "papers/a") == {"url": "papers/a.html", "key": "a"}
    assert records.record(app, "papers/c") == {"url": "papers/c.html", "key": "c"}
    assert records.record(app, "papers/b") is None  # not JSON: no record, as for a page without one
    assert records.record(app, "papers/d") is None


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(copy_seeds(tmp_path_factory.mktemp("a11y") / "seeds"))


def test_paper_pages_carry_citation_meta_tags(built: Path) -> None:
    page = soup(built / "papers" / "lin2020dapple.html")
    meta = [(attr(m, "name"), attr(m, "content")) for m in page.find_all("meta", attrs={"name": True})]
    [title] = [c for n, c in meta if n == "citation_title"]
    assert title.startswith("DAPPLE: A Pipelined Data Parallel Approach")
    # The arXiv listing names only its profile owner: no first author is claimed (issue 11's honest citations).
    assert [c for n, c in meta if n == "citation_author"] == []
    assert [c for n, c in meta if n == "citation_publication_date"] == ["2020"]
    assert "citation_" not in (built / "index.html").read_text(encoding="utf-8")


def test_no_page_repeats_an_id(built: Path) -> None:
    repeated = {}
    for page in built.rglob("*.html"):
        ids = [attr(element, "id") for element in soup(page).find_all(id=True)]
        if dupes := sorted({i for i in ids if ids.count(i) > 1}):
            repeated[page.relative_to(built).as_posix()] = dupes
    assert repeated == {}


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Any]:
    with chromium() as instance:
        yield instance


def _pages(built: Path) -> list[str]:
    return sorted(p.relative_to(built).as_posix() for p in built.rglob("*.html") if not p.name.startswith("_"))


def _axe(browser: Any, site: str, pages: list[str], **context: Any) -> dict[str, list[str]]:
    page = browser.new_context(**context).new_page()
    found = {}
    for name in pages:
        page.goto(f"{site}/{name}")
        page.add_script_tag(path=str(AXE))
        if violations := page.evaluate(AXE_RUN):
            found[name] = violations
    page.context.close()
    return found


@browser_only
def test_axe_every_page_light(browser: Any, site: str, built: Path) -> None:
    pages = [p for p in _pages(built) if not p.startswith("_")]
    assert len(pages) > 50
    assert _axe(browser, site, pages, viewport=DESKTOP, color_scheme="light") == {}


def test_the_sample_has_a_page_of_every_kind(built: Path) -> None:
    """Every folder of pages, and every page at the top, but the sample's: the dark and phone runs
    see every kind of page."""
    kinds = {p.rsplit("/", 1)[0] if "/" in p else p for p in _pages(built)}
    sampled = {p.rsplit("/", 1)[0] if "/" in p else p for p in SAMPLE}
    assert kinds <= sampled | {"topics/vision"}, kinds - sampled  # a subtopic: topics/ml-systems/compilers


@browser_only
@pytest.mark.parametrize("mode", ["dark", "phone"])
def test_axe_each_kind_of_page(browser: Any, site: str, mode: str) -> None:
    context = {"viewport": PHONE, "color_scheme": "light"} if mode == "phone" else {"color_scheme": "dark"}
    assert _axe(browser, site, SAMPLE, **context) == {}


@browser_only
@pytest.mark.parametrize("view", sorted(SEARCHES))
@pytest.mark.parametrize("mode", ["light", "dark", "phone"])
def test_axe_search_results(browser: Any, site: str, mode: str, view: str) -> None:
    """The search page once Pagefind has drawn its box and results (the box had only a title),
    with every filter group open (a phone opens none by itself)."""
    viewport = PHONE if mode == "phone" else DESKTOP
    page = browser.new_context(viewport=viewport, color_scheme="dark" if mode == "dark" else "light").new_page()
    page.goto(f"{site}/search.html?{SEARCHES[view]}")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=15_000)
    page.locator(".pagefind-ui__filter-checkbox").first.wait_for(state="attached", timeout=15_000)
    page.evaluate("() => document.querySelectorAll('#search details').forEach(d => d.open = true)")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_RUN) == []
    page.context.close()


@browser_only
def test_no_console_errors_and_no_404s(browser: Any, site: str, built: Path) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for name in _pages(built):
        page.goto(f"{site}/{name}", wait_until="load")
        icon = page.locator("link[rel~='icon']").evaluate("e => e.href")  # else the browser asks for /favicon.ico
        assert page.request.get(icon).status == 200, name
    page.context.close()
    assert problems == []


def _focused(page: Any) -> dict[str, Any]:
    focused: dict[str, Any] = page.evaluate("""() => { const e = document.activeElement, r = e.getBoundingClientRect();
      return {toggle: e.dataset.readinglistToggle || "", visible: getComputedStyle(e).visibility === "visible"
        && r.width > 0 && r.right > 0 && r.left < innerWidth, drawer: Boolean(e.closest(".sidebar-drawer"))}; }""")
    return focused


@browser_only
def test_tab_reaches_the_phone_menu_and_no_hidden_link(browser: Any, site: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/papers/lin2020dapple.html")
    for _ in range(6):
        page.keyboard.press("Tab")
        focused = _focused(page)
        assert focused["visible"], focused  # nothing off screen takes focus
        if focused["toggle"] == "__navigation":
            break
    assert focused["toggle"] == "__navigation"
    page.keyboard.press("Enter")
    assert page.locator("#__navigation").is_checked()
    page.wait_for_timeout(300)  # the drawer slides in (250 ms)
    for _ in range(12):  # past the header's buttons, into the open drawer
        page.keyboard.press("Tab")
        if _focused(page)["drawer"]:
            break
    assert _focused(page)["drawer"] and _focused(page)["visible"]
    page.keyboard.press("Escape")
    assert not page.locator("#__navigation").is_checked()
    assert _focused(page)["toggle"] == "__navigation"  # focus left the closed drawer for its button
    page.context.close()


@browser_only
def test_phone_bibtex_copy_button_cards_and_letters(browser: Any, site: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{site}/papers/lin2020dapple.html")
    bibtex = page.locator(".highlight-bibtex pre")
    assert bibtex.get_attribute("tabindex") == "0"
    assert bibtex.evaluate("e => e.scrollWidth <= e.clientWidth")  # wrapped on a phone
    page.locator(".highlight-bibtex button.copybtn").focus()
    page.wait_for_function("() => getComputedStyle(document.activeElement).opacity === '1'", timeout=2_000)
    page.goto(f"{site}/topics/ml-systems.html")
    cards = page.locator("div.sd-card").count()  # paper cards, not the chart table's dropdown (details)
    assert cards > 0 and page.locator("div.sd-card [role=heading]").count() == cards
    page.goto(f"{site}/authors/index.html")
    sizes = page.locator("a.readinglist-letter").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert sizes and all(w >= 24 and h >= 24 for w, h in sizes)
    page.context.close()


@browser_only
@pytest.mark.parametrize("mode", ["light", "dark", "phone"])
def test_cite_menu_and_about_block_by_keyboard(browser: Any, site: str, mode: str) -> None:
    """The Cite tabs switch with the arrow keys, "About this record" opens with Enter, and axe finds
    nothing critical or serious with both in view (a closed block's content is not checked)."""
    viewport = PHONE if mode == "phone" else DESKTOP
    page = browser.new_context(viewport=viewport, color_scheme="dark" if mode == "dark" else "light").new_page()
    page.goto(f"{site}/papers/alyamkinlowpower.html")
    about = page.locator("details.readinglist-about")
    assert not about.evaluate("e => e.open")  # collapsed: out of the reader's way
    about.locator("summary").focus()
    page.keyboard.press("Enter")
    assert about.evaluate("e => e.open") and "Citation key: alyamkinlowpower" in about.inner_text()
    page.locator(".readinglist-cite > input:checked").focus()
    for label in ["BibLaTeX", "RIS", "CSL-JSON", "ACL", "Plain text"]:  # render/cite.py FORMATS, in order
        page.keyboard.press("ArrowRight")
        assert page.locator(".readinglist-cite > input:checked + label").inner_text() == label
    plain = page.locator(".readinglist-cite > input:checked + label + .sd-tab-content pre")
    assert plain.is_visible() and "The state-of-the-art for low-power" in plain.inner_text()
    assert plain.evaluate("e => e.scrollWidth <= e.clientWidth")  # one long line, wrapped
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_RUN) == []
    page.context.close()
