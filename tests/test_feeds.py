"""Atom feeds (render/feeds.py) and the topic, tag and whole-list downloads (render/downloads.py)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import feedparser
import pytest
from pybtex.database import parse_string

from conftest import copy_seeds
from readinglist.config import load_config
from readinglist.model import Library, Note
from readinglist.render.downloads import export_files
from readinglist.render.feeds import feed_files
from readinglist.render.pages import site_pages
from readinglist.render.registry import FEED_INDEX as INDEX
from readinglist.site.assemble import build_library

Seeds = tuple[Library, dict[str, str], dict[str, Note]]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Seeds:
    return build_library(load_config(copy_seeds(tmp_path_factory.mktemp("feeds") / "seeds")))


def _meta(notes: dict[str, Note]) -> dict[str, dict[str, Any]]:
    return {slug: note.meta for slug, note in notes.items()}


def test_feeds_are_valid_atom_and_the_same_on_every_run(seeds: Seeds) -> None:
    library, _, notes = seeds
    files = feed_files(library, _meta(notes), {"title": "My list"})
    assert files == feed_files(library, _meta(notes), {"title": "My list"})  # no clock, no randomness
    feeds = [name for name in files if name.endswith(".xml")]
    assert "feeds/all.xml" in feeds and "feeds/topic-ml-systems.xml" in feeds and "feeds/tag-scheduling.xml" in feeds
    for name in feeds:
        feed = feedparser.parse(files[name])
        assert not feed.bozo and feed.feed.id and feed.feed.title.startswith("My list")
        for entry in feed.entries:
            assert entry.id and entry.title and entry.updated and entry.link.startswith("../papers/")


def test_an_entry_is_dated_by_its_note_else_by_its_year(seeds: Seeds) -> None:
    library, _, notes = seeds
    feed = feedparser.parse(feed_files(library, _meta(notes), {})["feeds/all.xml"])
    dated = {e.link: e.updated for e in feed.entries}
    assert dated["../papers/zhoudasgd.html"] == "2024-05-01T00:00:00+00:00"  # its note's added
    undated = next(p for p in library.papers if p.slug not in notes and p.work.year)
    assert dated[f"../papers/{undated.slug}.html"] == f"{undated.work.year}-01-01T00:00:00+00:00"
    assert feed.feed.updated == "2024-05-01T00:00:00+00:00"  # the newest entry's date, not today's
    assert feed.entries[0].link == "../papers/zhoudasgd.html"


def test_a_base_url_makes_every_link_and_id_absolute(seeds: Seeds) -> None:
    library, _, notes = seeds
    text = feed_files(library, _meta(notes), {"base_url": "https://example.org/list/"})["feeds/all.xml"]
    feed = feedparser.parse(text)
    assert feed.feed.id == "https://example.org/list/feeds/all.xml"
    assert all(e.link.startswith("https://example.org/list/papers/") and e.id == e.link for e in feed.entries)


def test_the_index_says_which_page_advertises_which_feed(seeds: Seeds) -> None:
    library, _, notes = seeds
    index = json.loads(feed_files(library, _meta(notes), {})[INDEX])
    assert [name for _, name in index["*"]] == ["all.xml"]
    assert [name for _, name in index["topics/ml-systems"]] == ["topic-ml-systems.xml"]
    assert [name for _, name in index["tags/scheduling"]] == ["tag-scheduling.xml"]
    assert "author-wei-lin.xml" in [name for _, name in index["authors/l"]]


def test_record_text_is_text_in_a_feed(seeds: Seeds) -> None:
    library, _, notes = seeds
    hostile = "<script>alert(1)</script> & ]]> \x00\x1b"
    paper = library.papers[0]
    changed = replace(library, papers=(replace(paper, work=replace(paper.work, title=hostile)), *library.papers[1:]))
    feed = feedparser.parse(feed_files(changed, _meta(notes), {})["feeds/all.xml"])
    assert not feed.bozo
    [entry] = [e for e in feed.entries if e.link == f"../papers/{paper.slug}.html"]
    assert "<script>" not in entry.title_detail.value or entry.title_detail.type == "text/plain"


def test_topics_and_tags_download_as_bib_and_csl_json(seeds: Seeds) -> None:
    library, bibtex, notes = seeds
    files = export_files(library, notes, bibtex, {})
    members = {p.key for p in library.papers if "ml-systems" in p.topics}
    assert set(parse_string(files["downloads/topic-ml-systems.bib"], "bibtex").entries) == members
    assert {item["id"] for item in json.loads(files["downloads/topic-ml-systems.json"])} == members
    assert [item["id"] for item in json.loads(files["downloads/tag-scheduling.json"])] == ["lin2019dl2"]
    assert len(json.loads(files["downloads/reading-list.json"])) == len(library.papers)


def test_the_pages_link_their_downloads(seeds: Seeds) -> None:
    library, bibtex, notes = seeds
    pages = site_pages(library, notes, bibtex, {"title": "T", "description": "D"}, [])
    assert "](/downloads/topic-ml-systems.json)" in pages["topics/ml-systems.md"]
    assert "](/downloads/tag-scheduling.bib)" in pages["tags/scheduling.md"]
    assert "](/downloads/reading-list.json)" in pages["bibliography.md"]
    linked = {link for text in pages.values() for link in re.findall(r"\]\(/(downloads/[^)]+)\)", text)}
    assert len(linked) > 10 and linked <= set(pages)  # every link names a file the generator writes


def test_a_feed_changed_to_bytes_of_the_same_length_is_copied_again(tmp_path: Path) -> None:
    """The site's copy is skipped only when it is newer than its source and as long."""
    import os
    from types import SimpleNamespace

    from readinglist.render.registry import FEEDS
    from readinglist.site.sphinx_ext import feedlinks

    source, out = tmp_path / "docs", tmp_path / "site"
    (source / FEEDS).mkdir(parents=True)
    out.mkdir()
    feed = source / FEEDS / "all.xml"
    feed.write_text("<feed>one</feed>", encoding="utf-8")
    app = SimpleNamespace(srcdir=str(source), outdir=str(out), builder=SimpleNamespace(format="html"))
    feedlinks._copy_feeds(app, None)  # type: ignore[arg-type]
    copy = out / FEEDS / "all.xml"
    assert copy.read_text(encoding="utf-8") == "<feed>one</feed>"
    feed.write_text("<feed>two</feed>", encoding="utf-8")
    later = copy.stat().st_mtime_ns + 1_000_000
    os.utime(feed, ns=(later, later))  # as a generate after the copy would leave it
    feedlinks._copy_feeds(app, None)  # type: ignore[arg-type]
    assert copy.read_text(encoding="utf-8") == "<feed>two</feed>"
