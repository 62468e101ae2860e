"""Real Sphinx builds of the test roots (tests/roots/test-<case>/) with the project's extensions.

One root per case, as sphinxcontrib-bibtex's tests have: ``basic`` is a tiny list of four ordinary
papers with a note, ``hostile`` puts a record whose text attacks the site beside an ordinary one.
Each root is the project root and the Sphinx source folder at once (``readinglist_root = "."``,
``docs = "."``). Every test gets its own app on its own copy of the root (``copy_test_root=True``,
and conftest's ``sphinx_test_tempdir`` is the test's own ``tmp_path``), so no test sees another's
build, whatever order they run in; the assertions one build can answer share that build.
"""

from __future__ import annotations

import json
import pickle
import re
import sys
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urldefrag

import pytest
from bs4 import Tag
from sphinx.testing.util import SphinxTestApp

from conftest import attr, find, main_content, soup, words
from readinglist.latex import to_text
from readinglist.model import Work
from readinglist.store import bibfile

GENERATED_DOWNLOAD = re.compile(r"(reading-list|(topic|tag)-[a-z0-9-]+)\.(bib|json)")  # render/downloads.py
ROOTS = Path(__file__).parent / "roots"

pytestmark = [
    pytest.mark.sphinx("html", testroot="basic", copy_test_root=True),
    # myst-parser's own use of deprecated Sphinx APIs: not this project's concern
    pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API modifications"),
]
HOSTILE = pytest.mark.sphinx("html", testroot="hostile", copy_test_root=True)


def _works(root: str) -> dict[str, Work]:
    """A root's records, read from its refs.bib independently of the generator."""
    return {w.key: w for w in bibfile.load(ROOTS / f"test-{root}" / "refs.bib").works()}


WORKS = _works("basic")
HOSTILE_TITLE = "<script>alert(1)</script> Hostile Record"


def resolve(page: Path, href: str) -> tuple[Path, str]:
    target, fragment = urldefrag(href)
    return (page.parent / target).resolve(), fragment


def _built(app: SphinxTestApp) -> Path:
    """Build ``app`` (its first build: a fresh copy of its root) with no warning; its output folder."""
    app.build()
    assert app.statuscode == 0
    assert app.warning.getvalue() == ""
    return Path(app.outdir)


def test_roots_are_what_the_tests_assume() -> None:
    for root in (ROOTS / "test-basic", ROOTS / "test-hostile"):
        assert (root / "conf.py").is_file() and (root / "conf" / "readinglist.toml").is_file()
        assert not (root / "papers").exists(), "a test root must never be built in place"
    assert sorted(WORKS) == ["doe2020pruning", "kim2022curved", "roe2019scene", "smith2021pipelines"]
    assert sorted(_works("hostile")) == ["mallory2022hostile", "roe2019scene"]
    assert _works("hostile")["mallory2022hostile"].title == HOSTILE_TITLE


def test_each_test_builds_its_own_copy_of_the_root(app: SphinxTestApp, tmp_path: Path) -> None:
    """The isolation the rest of the module relies on: the app's source folder is this test's own copy."""
    assert Path(app.srcdir) == tmp_path / "basic" and (tmp_path / "basic" / "conf.py").is_file()
    assert not list(Path(app.outdir).rglob("*.html"))  # nothing built before this test


# --- the pages -------------------------------------------------------------------------------------


def test_every_paper_gets_its_page_and_the_listings_link_them(app: SphinxTestApp) -> None:
    outdir = _built(app)
    assert {p.stem for p in (outdir / "papers").glob("*.html")} == set(WORKS)
    _assert_paper_page(outdir)
    _assert_topic_cards(outdir)
    _assert_bibliography(outdir)
    _assert_records(outdir)


def _assert_paper_page(outdir: Path) -> None:
    page = outdir / "papers" / "smith2021pipelines.html"
    main = main_content(page)
    work = WORKS["smith2021pipelines"]
    assert words(find(main, "h1")).startswith("Fast Pipelines for Training Large Models")

    authors = next(p for p in main.find_all("p") if words(p).startswith("Authors:"))
    links = {words(a): resolve(page, attr(a, "href")) for a in authors.find_all("a")}
    assert set(links) == {"Jane Smith", "John Doe"} == set(work.authors)
    for name, (target, anchor) in links.items():
        assert target.parent == outdir / "authors" and target.is_file()
        heading = find(main_content(target), id=anchor).parent  # the author's section on the initial's page
        assert heading is not None and heading.name == "h2" and words(heading).startswith(name)
        assert heading.parent is not None
        assert "Fast Pipelines for Training Large Models" in words(heading.parent)

    abstract = find(main, "section", id="abstract")
    assert words(find(abstract, "p")) == " ".join(to_text(work.abstract).split())

    assert "My note about Piper: the overlap trick is the whole paper." in words(find(main, "section", id="notes"))

    bibliography = outdir / "bibliography.html"
    citations = {
        attr(n, "id"): words(n).casefold() for n in main_content(bibliography).find_all("div", class_="citation")
    }
    cited = [resolve(page, attr(a, "href")) for a in main.find_all("a", href=re.compile(r"bibliography\.html#"))]
    hits = [frag for target, frag in cited if target == bibliography and frag in citations]
    assert len(hits) == 1
    assert "fast pipelines for training large models" in citations[hits[0]]


def _assert_topic_cards(outdir: Path) -> None:
    page = outdir / "topics" / "vision.html"
    main = main_content(page)
    assert words(find(main, "h1")).startswith("Vision")
    targets = []
    for card in main.find_all("div", class_="sd-card"):
        [link] = card.find_all("a", class_="sd-stretched-link")
        target, _ = resolve(page, attr(link, "href"))
        assert target.is_file()
        targets.append(target.stem)
        assert to_text(WORKS[target.stem].title) in words(card)
    # The two cs.CV papers, newest first.
    assert targets == ["kim2022curved", "roe2019scene"]


def _assert_bibliography(outdir: Path) -> None:
    entries = [
        words(n).casefold() for n in main_content(outdir / "bibliography.html").find_all("div", class_="citation")
    ]
    assert len(entries) == len(WORKS)
    for work in WORKS.values():
        assert sum(to_text(work.title).casefold() in e for e in entries) == 1, work.key


def _assert_records(outdir: Path) -> None:
    items = json.loads((outdir / "records.json").read_text(encoding="utf-8"))
    assert isinstance(items, list)
    assert sorted(item["key"] for item in items) == sorted(WORKS)
    for item in items:
        work = WORKS[item["key"]]
        assert item["title"] == to_text(work.title)
        assert item["year"] == work.year
        assert item["authors"] == list(work.authors)
        assert (outdir / PurePosixPath(item["url"])).is_file()


def test_bibliography_entries_come_from_the_cache(
    app: SphinxTestApp, make_app: Callable[..., SphinxTestApp], app_params: Any
) -> None:
    from pybtex.richtext import Text
    from pybtex.style import FormattedEntry

    from readinglist import cache
    from readinglist.site.sphinx_ext import bibcache

    outdir = _built(app)
    folder = Path(app.doctreedir)
    entries = cache.Store.open(folder).get(bibcache.KIND, bibcache._key(), dict)
    assert entries is not None and {k[2] for k in entries} == set(WORKS)  # every entry, formatted once
    marked = {k: FormattedEntry(v.key, Text("MARKED IN THE CACHE"), v.label) for k, v in entries.items()}
    store = cache.Store(folder / bibcache.FILE, {})
    store.put(bibcache.KIND, bibcache._key(), marked)
    store.save()
    args, kwargs = app_params
    make_app(*args, **{**kwargs, "freshenv": True}).build()  # a new environment, the same cache
    shown = words(main_content(outdir / "bibliography.html"))
    assert shown.count("MARKED IN THE CACHE") == len(WORKS)


# --- related papers: one node, rendered by the extension -------------------------------------------


def _related(page: Path) -> list[tuple[Path, str]]:
    section = find(main_content(page), "section", id="related-papers")
    links = section.find_all("a", class_="reference")
    assert all(a.parent is not None for a in links)
    return [(resolve(page, attr(a, "href"))[0], words(a.parent)) for a in links if a.parent is not None]


def test_related_papers_link_to_their_pages_and_navigation_is_shared(app: SphinxTestApp) -> None:
    outdir = _built(app)
    seen = 0
    for key in WORKS:
        for target, line in _related(outdir / "papers" / f"{key}.html"):
            other = WORKS[target.stem]
            assert target.is_file() and target.parent == outdir / "papers"
            assert line.startswith(" ".join(to_text(other.title).split())), line  # the title as text
            assert " — " in line  # and why it is related
            seen += 1
    assert seen >= len(WORKS)

    # Pages outside the toctree share one navigation.
    def sidebar(page: Path) -> Tag:
        return find(soup(page), "div", class_="sidebar-tree")

    papers = [sidebar(outdir / "papers" / f"{key}.html") for key in WORKS]
    assert len({str(s) for s in papers}) == 1  # the same tree, to the byte
    assert not papers[0].find_all(class_="current")  # no paper is in the toctree: nothing marked current
    topics = sidebar(outdir / "topics" / "index.html")  # a page in the toctree gets its own, marked
    assert "Topics" in " ".join(words(n) for n in topics.find_all(class_="current"))

    # Sphinx scans every registered target for every document it reads: none per paper or author.
    std = app.env.domaindata["std"]
    targets = [*std["labels"], *std["anonlabels"]]
    assert not [t for t in targets if t.startswith(("paper-", "author-", "cite-"))], targets
    assert len(targets) < 30  # the landing page's, the listings' and Sphinx's own


@pytest.mark.sphinx("text", testroot="basic", copy_test_root=True)
def test_related_papers_in_other_builders(app: SphinxTestApp) -> None:
    outdir = _built(app)
    text = (outdir / "papers" / "smith2021pipelines.txt").read_text(encoding="utf-8")
    related = text.split("Related papers")[1].split("Cite")[0]
    assert "* " in related and " — " in related  # a plain bullet list, with the reasons
    assert "readinglist-links" not in text


# --- hostile record text ---------------------------------------------------------------------------


def _hostile_nodes(root: Tag) -> list[str]:
    problems = []
    for node in root.find_all(True):
        for name, value in node.attrs.items():
            text = " ".join(value) if isinstance(value, list) else str(value)
            if text.strip().lower().replace("\n", "").startswith("javascript:"):
                problems.append(f"<{node.name} {name}={text!r}>")
            if name.startswith("on"):
                problems.append(f"<{node.name} {name}=...>")
        if node.name == "script" and ("alert" in node.get_text() or "alert" in str(node.get("src", ""))):
            problems.append("<script>alert")
        if node.name == "img" and node.get("src") == "x":
            problems.append("<img src=x>")
    return problems


@HOSTILE
def test_hostile_record_is_shown_as_text(app: SphinxTestApp) -> None:
    outdir = _built(app)
    works = _works("hostile")
    pages = list(outdir.rglob("*.html"))
    assert len(pages) > len(works)
    for page in pages:
        assert _hostile_nodes(soup(page)) == [], page
    page = outdir / "papers" / "mallory2022hostile.html"
    main = main_content(page)
    assert words(find(main, "h1")).startswith(HOSTILE_TITLE)
    abstract = find(find(main, "section", id="abstract"), "p")
    shown = words(abstract)
    assert shown == " ".join(to_text(works["mallory2022hostile"].abstract).split())
    for literal in ("[x](javascript:alert(1))", "{download}`payload.txt`", "<img src=x onerror=alert(2)>"):
        assert literal in shown
    assert abstract.find(True) is None  # plain text: no links, code or roles
    # The only downloads are the generator's (.bib and CSL-JSON): a record's {download} payload is text.
    names = [p.name for p in (outdir / "_downloads").rglob("*") if p.is_file()]
    assert "reading-list.bib" in names and all(GENERATED_DOWNLOAD.fullmatch(name) for name in names), names
    assert HOSTILE_TITLE in words(main_content(outdir / "topics" / "vision.html"))


# --- search: Pagefind ------------------------------------------------------------------------------


def test_pagefind_indexes_the_article_of_every_paper_and_search_runs_it(app: SphinxTestApp) -> None:
    from readinglist.site.search import PAPER, PAPER_SECTIONS_LEFT_OUT

    outdir = _built(app)
    assert json.loads((outdir / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))["languages"]
    assert (outdir / "pagefind" / "pagefind-ui.js").is_file()
    for key in WORKS:
        main = main_content(outdir / "papers" / f"{key}.html")
        body = find(main, attrs={"data-pagefind-body": True})
        assert words(find(body, "h1")) == words(find(main, "h1")), key  # the article, not the theme around it
        # What Pagefind leaves out (other papers' titles, the BibTeX) is where its selectors look for it.
        assert PAPER in body.attrs, key
        article = find(body, "section", recursive=False)
        sections = {c.get("id"): c for c in article.find_all("section", recursive=False)}
        assert set(PAPER_SECTIONS_LEFT_OUT) <= set(sections), key
        assert "@" in words(sections["cite"]) and "bibliography" in words(sections["cite"])
    # A listing that only repeats the papers' titles, authors and years is left out of the index.
    assert not main_content(outdir / "years.html").find_all(True, attrs={"data-pagefind-body": True})

    page = outdir / "search.html"
    scripts = [str(n.get("src", "")) for n in soup(page).find_all("script")]
    assert "pagefind/pagefind-ui.js" in scripts
    assert not [s for s in scripts if "searchtools" in s or "searchindex" in s], scripts
    text = page.read_text(encoding="utf-8")
    assert "new PagefindUI(" in text and "triggerSearch" in text
    assert "data-pagefind-body" not in text  # the search page itself is not indexed


def test_pagefind_failure_fails_the_build(app: SphinxTestApp, monkeypatch: pytest.MonkeyPatch) -> None:
    from sphinx.errors import ExtensionError

    from readinglist.site import search

    monkeypatch.setattr(
        search, "command", lambda pages, shard, site: [sys.executable, "-c", "raise SystemExit('no index')"]
    )
    with pytest.raises(ExtensionError, match=r"Pagefind failed \(exit status 1\)") as failed:
        app.build()
    assert str(failed.value).endswith("no index")  # Pagefind's own output, for the reader to act on


def test_a_second_build_of_the_same_app_keeps_the_index(app: SphinxTestApp) -> None:
    """Pages written are counted per build: an app that builds again (as sphinx-autobuild's do) with
    nothing changed leaves Pagefind's index alone."""
    entry = _built(app) / "pagefind" / "pagefind-entry.json"
    before = entry.stat().st_mtime_ns
    app.build()
    assert entry.stat().st_mtime_ns == before


def test_a_stale_mark_forces_a_new_index(tmp_path: Path) -> None:
    from readinglist.site import search

    (tmp_path / search.BUNDLE).mkdir()
    (tmp_path / search.BUNDLE / search.ENTRY).write_text("{}", encoding="utf-8")
    assert search.needed(tmp_path, 0)  # no merged API over the shards yet (a site indexed before shards)
    (tmp_path / "pagefind-merged").mkdir()
    (tmp_path / "pagefind-merged" / "pagefind.js").write_text("", encoding="utf-8")
    assert not search.needed(tmp_path, 0)
    search.mark_stale(tmp_path)  # left by a `readinglist build` whose Pagefind run failed
    assert search.needed(tmp_path, 0)


def test_the_theme_templates_are_compiled_once_and_a_damaged_cache_is_compiled_again(
    app: SphinxTestApp, make_app: Callable[..., Any]
) -> None:
    """templatecache.py: the compiled templates are kept beside the doctrees; a later build of the
    same project loads them, and one whose cache files are damaged writes the same pages."""
    from readinglist.site.sphinx_ext.templatecache import FOLDER

    out = _built(app)
    kept = sorted((Path(app.doctreedir) / FOLDER).glob("*.cache"))
    assert kept, "no compiled template kept"
    before = (out / "index.html").read_bytes()
    for path in kept:
        path.write_bytes(path.read_bytes()[:20])  # cut short: Jinja must compile the source again
    again = make_app("html", srcdir=Path(app.srcdir), freshenv=True)
    again.build(force_all=True)
    assert again.statuscode == 0  # (a second app in one process warns of its nodes registered again)
    assert (Path(again.outdir) / "index.html").read_bytes() == before
    assert all(path.stat().st_size > 20 for path in kept)  # written whole again


def test_a_link_list_read_by_an_older_version_is_still_written(app: SphinxTestApp) -> None:
    """Doctrees outlive an upgrade: a page Sphinx writes again without reading it (a template
    changed, an interrupted build) has the link lists of the version that read it, with no
    ``status``. They are written with their reasons as they were."""
    from readinglist.site.sphinx_ext import linklist

    _built(app)
    # a page whose lists hold their links (a paper page's come from its data file as it is written)
    trees = ((d, app.env.get_doctree(d)) for d in sorted(app.env.found_docs))
    docname, doctree = next((d, t) for d, t in trees if any(n["links"] for n in t.findall(linklist.link_list)))
    lists = [node for node in doctree.findall(linklist.link_list) if node["links"]]
    for node in lists:
        node["links"] = [{k: v for k, v in link.items() if k != "status"} for link in node["links"]]
    reasons = [link["reason"] for node in lists for link in node["links"]]
    linklist.resolve(app, doctree, docname)
    assert [link["reason"] for node in doctree.findall(linklist.link_list) for link in node["links"]] == reasons


def test_sphinx_does_not_search_the_generators_data_folders_for_sources(app: SphinxTestApp) -> None:
    """Feeds, charts, downloads and the paper pages' data files hold no page: Sphinx's search for
    sources leaves their files untested (16,500 at 10,000 works), while the pages still use them."""
    from sphinx.util.matching import get_matching_files

    from readinglist.site.sphinx_ext.settings import DATA_FOLDERS

    out = _built(app)
    source = Path(app.srcdir)
    assert set(DATA_FOLDERS) == {"feeds", "charts", "downloads", "related"}
    held = [f for f in DATA_FOLDERS if any((source / f).iterdir())]
    assert held, "the test root generated none of them"
    searched = {PurePosixPath(p).parts[0] for p in get_matching_files(source, ["**"], app.config.exclude_patterns)}
    assert not searched & set(DATA_FOLDERS)
    assert any(out.joinpath("_downloads").rglob("*.bib"))  # a topic's BibTeX, found by reference


def test_the_citations_are_not_saved_and_a_later_build_makes_them_again(
    app: SphinxTestApp, make_app: Callable[..., Any]
) -> None:
    """sphinxcontrib-bibtex makes its citations again at every env-updated: the saved environment
    holds none, and a later build from it writes the bibliography with every entry."""
    import os

    out = _built(app)
    entries = len(soup(out / "bibliography.html").select("[id^=cite-]"))
    assert entries > 1
    saved = pickle.loads((Path(app.doctreedir) / "environment.pickle").read_bytes())
    assert saved.domaindata["cite"]["citations"] == [] and saved.domaindata["cite"]["bibliographies"]
    source = Path(app.srcdir) / "bibliography.md"
    later = source.stat().st_mtime + 10
    os.utime(source, (later, later))  # read and written again by the next build
    again = make_app("html", srcdir=Path(app.srcdir))
    again.build()
    assert again.statuscode == 0
    assert len(soup(Path(again.outdir) / "bibliography.html").select("[id^=cite-]")) == entries


def test_the_saved_tocs_are_packed_and_a_page_written_from_them_has_the_same_contents(
    app: SphinxTestApp, make_app: Callable[..., Any]
) -> None:
    """packedtocs.py: the saved environment holds each page's table of contents as bytes, and a
    later build that writes every page without reading one (``-a``) unpacks them: each page's
    "On this page" list is what the first build wrote."""
    from readinglist.site.sphinx_ext.packedtocs import PackedTocs

    out = _built(app)
    paper = next(d for d in sorted(app.env.found_docs) if d.startswith("papers/"))
    toc = [a.get_text() for a in soup(out / f"{paper}.html").select(".toc-tree a")]
    assert len(toc) > 2, f"{paper} has too short a contents list to test: {toc}"
    saved = pickle.loads((Path(app.doctreedir) / "environment.pickle").read_bytes())
    assert isinstance(saved.tocs, PackedTocs) and saved.tocs.keys() == app.env.tocs.keys()
    assert all(isinstance(raw, bytes) for raw in dict.values(saved.tocs))
    assert saved.tocs[paper].astext() == app.env.tocs[paper].astext()
    pages = {p: p.read_bytes() for p in out.rglob("*.html")}
    again, read = make_app("html", srcdir=Path(app.srcdir)), []
    again.connect("source-read", lambda _app, docname, _source: read.append(docname))
    again.build(force_all=True)  # -a: every page written again, from the saved environment
    assert again.statuscode == 0 and read == []
    assert [a.get_text() for a in soup(out / f"{paper}.html").select(".toc-tree a")] == toc
    assert {p: p.read_bytes() for p in out.rglob("*.html")} == pages


def test_packed_tocs_unpack_once_and_pack_what_was_changed() -> None:
    """A toc looked up is unpacked in place (section numbers are set on it); one never looked up
    keeps its bytes through a save; ``get`` unpacks as a lookup does."""
    from docutils import nodes

    from readinglist.site.sphinx_ext.packedtocs import PackedTocs

    tocs = PackedTocs({"a": nodes.bullet_list("", nodes.list_item("", nodes.Text("A")))})
    tocs["b"] = nodes.bullet_list("", nodes.list_item("", nodes.Text("B")))
    loaded = pickle.loads(pickle.dumps(tocs, pickle.HIGHEST_PROTOCOL))
    assert type(loaded) is PackedTocs and all(isinstance(v, bytes) for v in dict.values(loaded))
    untouched = dict.__getitem__(loaded, "b")
    loaded["a"]["classes"].append("numbered")  # changed in place, as Sphinx numbers sections
    assert loaded.get("a") is loaded["a"] and loaded.get("x") is None and "x" not in loaded
    again = pickle.loads(pickle.dumps(loaded, pickle.HIGHEST_PROTOCOL))
    assert again["a"]["classes"] == ["numbered"] and again["a"].astext() == "A"
    assert dict.__getitem__(pickle.loads(pickle.dumps(loaded)), "b") == untouched and again["b"].astext() == "B"
