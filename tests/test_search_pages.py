"""Pagefind's copies of the pages (site/searchpages.py): each cut to what Pagefind indexes of it.

The copies must index exactly as the pages do; test_search_facets.py compares the two indexes of
a built site. Here: what a copy keeps and empties, and that record text, which reaches the HTML
escaped, can neither end a copy early nor hide itself from the index.
"""

from __future__ import annotations

import html
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from readinglist.site.search import CUTS
from readinglist.site.searchpages import BODY, END, Copies, cut_down

ABSTRACT = '<section id="abstract"><h2>Abstract</h2><p>{}</p></section>'


def _page(inside: str, *, paper: bool = True, after: str = "") -> str:
    marks = " data-readinglist-paper" if paper else ""
    return (
        '<!doctype html>\n<html class="no-js" lang="fr" data-content_root="../"><head><meta charset="utf-8">'
        '<title>A title</title><link rel="stylesheet" href="x.css"><script src="y.js"></script></head>'
        '<body><nav class="sidebar">Site navigation</nav><article>'
        f'{BODY} data-pagefind-meta="image:"{marks}><section id="the-paper"><h1>The paper</h1>{inside}</section>'
        '<div class="readinglist-facets" hidden><data data-pagefind-filter="year[value]" value="2020"></data></div>'
        f"</div>{END}"
        f"{after}</article><footer>Footer words</footer></body></html>\n"
    )


def test_a_copy_keeps_the_language_the_title_and_the_body_and_nothing_of_the_theme() -> None:
    lean = cut_down(_page(ABSTRACT.format("Abstract words")), CUTS)
    assert lean is not None
    assert '<html class="no-js" lang="fr" data-content_root="../">' in lean  # Pagefind's language
    assert "<title>A title</title>" in lean and "Abstract words" in lean and 'value="2020"' in lean
    for theme in ("Site navigation", "Footer words", "x.css", "y.js"):
        assert theme not in lean


def test_a_paper_keeps_its_left_out_sections_as_empty_elements_and_its_other_sections_whole() -> None:
    related = '<section id="related-papers"><h2>Related papers</h2><svg><g><text>Other title</text></g></svg></section>'
    cite = '<section id="cite"><h2>Cite</h2><div class="highlight"><pre>@article{x,}</pre></div></section>'
    notes = '<section id="notes"><h2>Notes</h2><section id="cite-1"><h3>Cite</h3><p>My own words</p></section>'
    notes += "</section>"
    lean = cut_down(_page(f"<p>Abstract</p>{related}{cite}{notes}"), CUTS)
    assert lean is not None
    # Emptied, not removed: Pagefind records the ids of excluded elements as anchors.
    assert '<section id="related-papers"></section>' in lean and '<section id="cite"></section>' in lean
    assert "Other title" not in lean and "@article" not in lean
    assert "My own words" in lean and '<section id="notes" data-pagefind-weight="2">' in lean


def test_a_section_named_like_a_left_out_one_is_kept_below_the_papers_sections_and_on_other_pages() -> None:
    deeper = '<section id="notes"><h2>Notes</h2><section id="cite"><h3>Cite</h3><p>Kept words</p></section></section>'
    assert "Kept words" in (cut_down(_page(deeper), CUTS) or "")
    listing = '<section id="cite"><h2>Cite</h2><p>Listing words</p></section>'
    assert "Listing words" in (cut_down(_page(listing, paper=False), CUTS) or "")


def test_listing_cards_and_chart_tables_are_emptied_with_what_they_nest() -> None:
    card = '<div class="sd-card sd-shadow-sm docutils"><div class="sd-card-body"><p>Card words</p></div></div>'
    table = (
        '<details class="sd-dropdown sd-card readinglist-chart-table"><summary>Table</summary>'
        "<details><summary>Inner</summary></details><p>Table words</p></details>"
    )
    lean = cut_down(_page(f"<p>Before</p>{card}<p>Between</p>{table}<p>After</p>", paper=False), CUTS)
    assert lean is not None
    assert "Card words" not in lean and "Table words" not in lean
    assert all(words in lean for words in ("Before", "Between", "After"))
    # The chart's image stays: Pagefind leaves out the heading before an excluded img, so a copy
    # without the img would index differently.
    chart = '<img alt="Bar chart" class="only-light readinglist-chart" src="c.svg" />'
    assert chart in (cut_down(_page(chart, paper=False), CUTS) or "")


def test_a_page_without_a_marked_body_has_no_copy() -> None:
    assert cut_down("<!doctype html><html><body><p>genindex</p></body></html>", CUTS) is None
    assert cut_down(_page("<p>x</p>").replace(END, ""), CUTS) is None


def test_a_shard_copies_only_its_marked_pages_unless_none_is_marked(tmp_path: Path) -> None:
    site, folder = tmp_path / "site", tmp_path / "copies"
    (site / "papers").mkdir(parents=True)
    (site / "papers" / "a.html").write_text(_page("<p>Paper words</p>"), encoding="utf-8")
    unmarked = "<!doctype html><html><body><p>Listing</p></body></html>"
    (site / "years.html").write_text(unmarked, encoding="utf-8")
    copies = Copies(folder, CUTS)
    assert copies.complete(["papers/a.html", "years.html"], site) == folder
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html")) == ["papers/a.html"]
    # Pagefind indexes every page of a run in which no page marks a body: it reads them in the site.
    assert copies.complete(["years.html"], site) == site
    assert not (folder / "years.html").exists()


def test_a_copy_is_kept_made_again_when_its_page_changes_and_removed_when_it_loses_its_body(tmp_path: Path) -> None:
    """The copies are kept between builds (search.COPIES): a page's digest rewrites its copy."""
    folder = tmp_path / "copies"
    copies = Copies(folder, CUTS)
    first = _page(ABSTRACT.format("First words")).encode()
    assert copies.indexed("papers/a.html", first) == (folder / "papers" / "a.html").read_bytes()
    assert b"First words" in (folder / "papers" / "a.html").read_bytes()
    copies.indexed("papers/a.html", _page(ABSTRACT.format("Second words")).encode())
    assert b"Second words" in (folder / "papers" / "a.html").read_bytes()
    unmarked = b"<!doctype html><html><body><p>Listing</p></body></html>"
    assert copies.indexed("papers/a.html", unmarked) == unmarked  # digested whole, as Pagefind would read it
    assert not (folder / "papers" / "a.html").exists()
    assert copies.indexed("papers/b.html", b"\xff\xfe not UTF-8") == b"\xff\xfe not UTF-8"


@given(st.text(), st.text())
def test_record_text_can_neither_end_a_copy_nor_hide_from_it(shown: str, left_out: str) -> None:
    """Record text reaches the HTML escaped (Sphinx escapes every text node): whatever it says,
    for instance the END marker, a section or a card, it stays in the copy where it is indexed,
    and the text of a left-out section stays out."""
    cite = f'<section id="cite"><p>LEFTOUT{html.escape(left_out)}</p></section>'
    sections = ABSTRACT.format(html.escape(shown)) + cite
    lean = cut_down(_page(sections, after=f"<p>{html.escape(shown)}</p>"), CUTS)
    assert lean is not None
    assert f"<p>{html.escape(shown)}</p>" in lean and "LEFTOUT" not in lean
    assert lean.count("<p>") == 1  # the text after END is not in the copy


# The lines under a paper's title as render/templates/paper.md.j2 writes them (Sphinx's HTML).
HEAD = (
    "<p><em>Working title, inferred from the abstract: the source gives none.</em></p>"
    '<p><span class="sd-sphinx-override sd-badge sd-outline-secondary">astro-ph.CO</span> Cosmology and Nongalactic'
    " Astrophysics (inferred: the source gives no category)</p>"
    '<p><span class="sd-badge">Read</span> · <strong>Tags:</strong> <a href="../tags/x.html">{tag}</a></p>'
    '<p><strong>Authors:</strong> <a href="../authors/l.html#wei-lin">{author}</a></p>'
    "<p><strong>Year:</strong> 2020 · <strong>Venue:</strong> {venue}</p>"
    '<p><strong>Links:</strong> <a href="https://doi.org/10.1/x">DOI</a></p>'
    "<p><strong>Source:</strong> author profile of Wei Lin</p>"
    '<p><strong>Topics:</strong> <a href="../topics/x.html">Inferred topic</a></p>'
)


def test_a_papers_copy_indexes_what_the_paper_says_and_weighs_authors_and_notes() -> None:
    notes = '<section id="notes"><h2>Notes</h2><p>Quokkaphant</p><section id="x"><p><strong>Topics:</strong> mine</p>'
    head = HEAD.format(tag="mytag", author="Wei Lin", venue="OSDI")
    lean = cut_down(_page(head + ABSTRACT.format("Abstract words") + notes + "</section></section>"), CUTS) or ""
    for inferred in ("Working title", "astro-ph", "Cosmology", "Read", "Links", "DOI", "Source", "Inferred topic"):
        assert inferred not in lean
    for said in ("mytag", "OSDI", "2020", "Abstract words", "Quokkaphant", "<strong>Topics:</strong> mine"):
        assert said in lean  # a note's own "Topics:" line is the reader's words
    assert '<p data-pagefind-weight="4"><strong>Authors:</strong>' in lean
    assert '<section id="notes" data-pagefind-weight="2">' in lean
    # Other pages keep every line: a topic page's description is what it says.
    assert "Cosmology" in (cut_down(_page(head, paper=False), CUTS) or "")


@given(st.text(), st.text(), st.text())
def test_record_text_in_a_kept_line_stays_whole_and_cannot_keep_an_inferred_one(
    author: str, venue: str, tag: str
) -> None:
    """The labels are Sphinx's markup: a record's text, escaped, can neither empty a line it is in
    nor keep a line the copy leaves out."""
    head = HEAD.format(tag=html.escape(tag), author=html.escape(author), venue=html.escape(venue))
    lean = cut_down(_page(head), CUTS) or ""
    for text in (author, venue, tag):
        assert html.escape(text) in lean
    assert "Cosmology" not in lean and "Source:" not in lean


def _bundles(site: Path) -> dict[str, int]:
    return {entry.parent.name: entry.stat().st_mtime_ns for entry in site.rglob("pagefind-entry.json")}


def test_a_shard_is_indexed_again_only_when_what_pagefind_indexes_of_it_changed(tmp_path: Path) -> None:
    """A paper page whose related papers alone changed (most of the pages a new paper rewrites)
    leaves its shard's bundle as it was; a change to its abstract indexes the shard again."""
    from readinglist.site import search, shards

    site = tmp_path / "site"
    (site / "papers").mkdir(parents=True)
    related = '<section id="related-papers"><h2>Related papers</h2><p>{}</p></section>'
    paper = site / "papers" / "a.html"
    paper.write_text(_page(ABSTRACT.format("Abstract words") + related.format("Old title")), encoding="utf-8")
    (site / "index.html").write_text(_page("<p>Landing</p>", paper=False), encoding="utf-8")
    search.index(site)
    first = _bundles(site)
    assert len(first) == 2  # the site's and one shard of papers

    paper.write_text(_page(ABSTRACT.format("Abstract words") + related.format("A new paper's title")), encoding="utf-8")
    search.index(site)
    assert _bundles(site) == first
    # The record has the page's new size and time: the next build need not read it again.
    stat = paper.stat()
    assert shards.recorded(site)["0"]["pages"]["papers/a.html"][:2] == [stat.st_size, stat.st_mtime_ns]

    abstract = ABSTRACT.format("Abstract words, edited")
    paper.write_text(_page(abstract + related.format("A new paper's title")), encoding="utf-8")
    search.index(site)
    again = _bundles(site)
    assert again["pagefind"] == first["pagefind"] and again != first


def test_an_index_made_by_an_older_version_is_made_again_though_no_page_changed(tmp_path: Path) -> None:
    """A record whose digests are of another kind (an older cut of the copies) marks the index
    outdated: a build that writes no page indexes every shard again."""
    from readinglist.site import search, shards

    site = tmp_path / "site"
    (site / "papers").mkdir(parents=True)
    (site / "papers" / "a.html").write_text(_page(ABSTRACT.format("Words")), encoding="utf-8")
    (site / "index.html").write_text(_page("<p>Landing</p>", paper=False), encoding="utf-8")
    search.index(site)
    assert not search.needed(site, 0)
    record = shards.recorded(site)
    record["0"]["pages"]["papers/a.html"][-1] = "copy:0123"
    shards.save(site, record)
    assert search.needed(site, 0)
    search.index(site)
    assert not search.needed(site, 0)
    merged = site / "pagefind-merged" / "pagefind.js"  # a script merged by an older version
    today = merged.read_text(encoding="utf-8")
    merged.write_text(today.replace("exactFirst", "older"), encoding="utf-8")
    search.merge_again(site)  # what a build that indexes nothing does
    assert merged.read_text(encoding="utf-8") == today
    written = merged.stat().st_mtime_ns
    search.merge_again(site)
    assert merged.stat().st_mtime_ns == written  # the same bytes: not written again


@given(st.integers(min_value=0, max_value=200_000))
def test_a_list_has_few_shards_and_none_too_large_for_its_glob(papers: int) -> None:
    """A query fetches one index chunk a word from each shard: at most four up to 10,000 works
    (issue 27), and more only so that no shard holds more pages than one --glob can name."""
    from readinglist.site.shards import MAX_SHARD_PAGES, MAX_SHARDS, count

    shards = count(papers)
    assert shards & (shards - 1) == 0  # a power of two: every paper moves only when the list doubles
    assert papers <= shards * MAX_SHARD_PAGES
    assert shards <= MAX_SHARDS or papers > shards // 2 * MAX_SHARD_PAGES  # more only when needed


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _two_papers(site: Path, words: str) -> None:
    (site / "papers").mkdir(parents=True, exist_ok=True)
    (site / "papers" / "a.html").write_text(_page(ABSTRACT.format(words)), encoding="utf-8")
    (site / "papers" / "b.html").write_text(_page(ABSTRACT.format("Unchanged words")), encoding="utf-8")
    (site / "index.html").write_text(_page("<p>Landing</p>", paper=False), encoding="utf-8")


def _indexed_from_nothing(tmp_path: Path, words: str) -> dict[str, bytes]:
    from readinglist.site import search

    clean = tmp_path / "clean"
    _two_papers(clean, words)
    search.index(clean, tmp_path / "clean-state")
    return _files(clean / "pagefind-papers")


def test_a_shard_indexed_into_its_old_bundle_holds_what_one_made_from_nothing_holds(tmp_path: Path) -> None:
    """Pagefind keeps the fragments it finds (pagefindorder.tidy removes the ones no index names):
    after an edit, the bundle is byte for byte the one a first index of the same pages makes."""
    from readinglist.site import search

    site, state = tmp_path / "site", tmp_path / "state"
    _two_papers(site, "Old words")
    search.index(site, state)
    before = _files(site / "pagefind-papers")
    unchanged = {p: p.stat().st_mtime_ns for p in (site / "pagefind-papers").rglob("*.pf_fragment")}
    _two_papers(site, "New words")
    search.index(site, state)
    after = _files(site / "pagefind-papers")
    assert after != before
    # b's fragment was found in the old bundle, not written again (nor compressed).
    assert any(p.exists() and p.stat().st_mtime_ns == kept for p, kept in unchanged.items())
    assert after == _indexed_from_nothing(tmp_path, "New words")
    assert (state / search.COPIES / "papers" / "a.html").is_file()  # kept for the next build
    assert not (site / search.COPIES).exists()


def test_an_incomplete_bundle_is_made_from_nothing(tmp_path: Path) -> None:
    """A kill leaves a bundle without its entry, and perhaps a fragment cut short, which Pagefind
    would keep as it is (it never writes a hashed file that exists)."""
    from readinglist.site import search, shards

    site, state = tmp_path / "site", tmp_path / "state"
    _two_papers(site, "Old words")
    search.index(site, state)
    bundle = site / "pagefind-papers" / "0"
    (bundle / shards.ENTRY).unlink()
    for fragment in (bundle / "fragment").glob("*"):
        fragment.write_bytes(b"cut short")
    search.index(site, state)
    assert _files(site / "pagefind-papers") == _indexed_from_nothing(tmp_path, "Old words")


def test_a_bundle_whose_files_cannot_be_read_is_made_from_nothing(tmp_path: Path, monkeypatch: object) -> None:
    """A Pagefind that wrote its metadata in another form: the files no index names cannot be
    found, so the bundle is made again from an empty folder rather than keep them."""
    import pytest

    from readinglist.site import pagefindorder, search

    site, state = tmp_path / "site", tmp_path / "state"
    _two_papers(site, "Old words")
    search.index(site, state)
    _two_papers(site, "New words")
    tidied: list[Path] = []

    def unreadable(bundle: Path) -> bool:
        tidied.append(bundle)
        return False

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(pagefindorder, "tidy", unreadable)
    search.index(site, state)
    assert tidied == [site / "pagefind-papers" / "0"]
    monkeypatch.undo()
    got, fresh = _files(site / "pagefind-papers"), _indexed_from_nothing(tmp_path, "New words")
    assert _hashed(got) == _hashed(fresh)  # the old page's fragment is gone
    assert len([name for name in got if name.endswith(".pf_meta")]) == 1


def _hashed(files: dict[str, bytes]) -> dict[str, bytes]:
    """The fragments and index chunks: named by Pagefind from their bytes (the filters are
    named again by pagefindorder.tidy, which this test's stand-in says it cannot read)."""
    return {name: data for name, data in files.items() if "/fragment/" in name or "/index/" in name}
