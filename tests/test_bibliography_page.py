"""The Bibliography page: each title links to its paper page, the whole list is a .bib download,
and the sidebar keeps the maintainers' documents apart from the reader's pages."""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pybtex.database import Entry, Person, parse_string
from pybtex.style.formatting.plain import Style as PlainStyle

from conftest import attr, cite_tab, copy_seeds, soup
from readinglist.render.bibsets import bib_set, download_link, file_name
from readinglist.render.escape import clean
from readinglist.site.sphinx_ext.biblinks import LinkedStyle
from readinglist.store.bibfile import PRIVATE_FIELDS

SEED_PAPERS = 28


@pytest.fixture(scope="module")
def seed_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(docs, html) of the seed list, generated and built once for this module."""
    from readinglist.cli import main

    project = copy_seeds(tmp_path_factory.mktemp("bibliography") / "seeds")
    out = project / "docs" / "_build" / "html"
    assert main(["--root", str(project), "build", "--no-search", "--out", str(out)]) == 0
    return project / "docs", out


def test_every_bibliography_title_links_to_its_paper_page(seed_site: tuple[Path, Path]) -> None:
    _, out = seed_site
    entries = soup(out / "bibliography.html").find_all("div", class_="citation")
    assert len(entries) == SEED_PAPERS
    for entry in entries:
        slug = attr(entry, "id").removeprefix("cite-")
        hrefs = [href for a in entry.find_all("a") if "/papers/" in f"/{(href := attr(a, 'href'))}"]
        assert hrefs == [f"papers/{slug}.html"], (slug, entry)
        assert (out / hrefs[0]).is_file()


def test_the_whole_list_downloads_as_the_public_bibtex_of_the_pages(seed_site: tuple[Path, Path]) -> None:
    docs, out = seed_site
    downloads = [attr(a, "href") for a in soup(out / "bibliography.html").find_all("a", download=True)]
    [download] = [href for href in downloads if href.endswith(".bib")]  # and its CSL-JSON twin (test_feeds.py)
    assert (out / download).is_file() and len(downloads) == 2
    data = parse_string((out / download).read_text(encoding="utf-8"), "bibtex")
    blocks = [_bibtex_block(path) for path in sorted((docs / "papers").glob("*.md"))]
    assert len(data.entries) == len(blocks) == SEED_PAPERS  # one entry per paper
    pages = parse_string("\n\n".join(blocks), "bibtex")
    assert data.to_string("bibtex") == pages.to_string("bibtex")  # what each paper page shows
    assert not {name.lower() for e in data.entries.values() for name in e.fields} & PRIVATE_FIELDS


def _bibtex_block(page: Path) -> str:
    return cite_tab(page.read_text(encoding="utf-8"), "BibTeX")


def _sidebar_sections(out: Path, page: str) -> dict[str, list[str]]:
    """The sidebar's captions of ``page``, each with the pages its list links to (from the site root)."""
    here = posixpath.dirname(page)  # "#" is the page itself
    sections: dict[str, list[str]] = {}
    for caption in soup(out / page).find_all("span", class_="caption-text"):
        paragraph = caption.find_parent("p")
        links = paragraph.find_next_sibling() if paragraph is not None else None
        assert links is not None and links.name == "ul", caption  # each caption heads the list of its pages
        hrefs = [attr(a, "href") for a in links.find_all("a")]
        sections[caption.get_text()] = [
            page if h == "#" else posixpath.normpath(posixpath.join(here, h)) for h in hrefs
        ]
    return sections


def test_maintainer_documents_have_their_own_sidebar_section(seed_site: tuple[Path, Path]) -> None:
    _, out = seed_site
    for page in ("index.html", "guide.html", "develop/architecture.html", "papers/lin2020dapple.html"):
        sections = _sidebar_sections(out, page)
        assert sections["About"] == ["guide.html"], page
        assert sections["For maintainers"] == ["develop/architecture.html"], page


def _entry(kind: str, **fields: str) -> Entry:
    return Entry(kind, fields=fields, persons={"author": [Person("Doe, Jane")]})


@pytest.mark.parametrize(
    ("kind", "fields", "linked"),
    [
        ("article", {"title": "Sheaves", "journal": "J. Maths", "year": "2020"}, "Sheaves"),
        ("book", {"title": "Sheaves", "publisher": "Pub", "year": "2020"}, "<em>Sheaves</em>"),
        ("inproceedings", {"title": "Sheaves", "booktitle": "Proc. Sheaf", "year": "2020"}, "Sheaves"),
        ("incollection", {"title": "Sheaves", "booktitle": "Sheaf book", "publisher": "P", "year": "2020"}, "Sheaves"),
    ],
)
def test_the_style_links_the_title_and_nothing_else(kind: str, fields: dict[str, str], linked: str) -> None:
    entry = _entry(kind, **fields)
    entry.key = "doe2020sheaves"
    html = LinkedStyle().format_entry("1", entry).text.render_as("html")
    assert [str(a) for a in soup(html).find_all("a")] == [f'<a href="rl:papers/doe2020sheaves">{linked}</a>'], html
    plain = PlainStyle().format_entry("1", entry).text.render_as("text")
    assert LinkedStyle().format_entry("1", entry).text.render_as("text") == plain  # the same words


def test_file_names_are_safe() -> None:
    assert file_name("ML systems / compilers") == "ml-systems-compilers.bib"
    assert file_name("../../etc") == "etc.bib"
    assert file_name("…") == "papers.bib"


@given(st.text())
def test_a_download_link_is_one_link_to_its_file_whatever_its_label(label: str) -> None:
    tokens = MarkdownIt("commonmark").parseInline(download_link("downloads/x.bib", label))[0].children or []
    opened = [t for t in tokens if t.type == "link_open"]
    assert [t.attrs["href"] for t in opened] == ["/downloads/x.bib"]
    text = "".join(t.content for t in tokens if t.type == "text")
    assert " ".join(text.split()) == (" ".join(clean(label).split()) or "BibTeX")


def test_a_set_holds_one_public_entry_per_paper_in_order() -> None:
    class Paper:
        def __init__(self, key: str) -> None:
            self.key = key

    bibtex = {"b": "@misc{b,\n  title = {B},\n}\n", "a": "@misc{a,\n  title = {A},\n}\n", "c": ""}
    path, text = bib_set("Vision", [Paper("b"), Paper("a"), Paper("c")], bibtex)  # type: ignore[list-item]
    assert path == "downloads/vision.bib"
    assert list(parse_string(text, "bibtex").entries) == ["b", "a"]
