"""A paper page (issue 11): readers see no maintainer hints; those sit in a collapsed "About this
record" block, with titles instead of citation keys; a Cite menu offers BibTeX, plain text and
Markdown, made by pybtex's plain style, each a code block that no record text can break out of."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pybtex.plugin
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser
from pybtex.database.input.bibtex import Parser

from conftest import copy_seeds
from hostile_kit import FRAGMENTS
from readinglist.cache import Store, key_of
from readinglist.chars import strip_unsafe
from readinglist.config import load_config
from readinglist.model import Brief, Library, Work
from readinglist.render import cite, citecache
from readinglist.render.authors import author_urls
from readinglist.render.bibliography import entry_text
from readinglist.render.cards import CARD_WORDS, card, card_list
from readinglist.render.cite import FORMATS, Citation, CiteFormat, cite_menu
from readinglist.render.escape import clean, md_text
from readinglist.render.links import one_line
from readinglist.render.notes import read_note
from readinglist.render.paper import paper_page
from readinglist.site import generate
from readinglist.site.assemble import CITATIONS, build_library

ABOUT = "{dropdown} About this record"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, dict[str, str]]:
    library, bibtex, _ = build_library(load_config(copy_seeds(tmp_path_factory.mktemp("page") / "seeds")))
    return library, bibtex


def _page(seeds: tuple[Library, dict[str, str]], key: str, note_path: Path | None = None) -> str:
    library, bibtex = seeds
    paper = library.by_key()[key]
    note = read_note(note_path) if note_path else None
    return paper_page(paper, library.by_key(), note, bibtex[key], library, author_urls(library))


def _split(page: str) -> tuple[str, str]:
    """(what a reader sees, the collapsed block's text)."""
    reader, about = page.split(ABOUT)
    return reader, about


# --- maintainer hints are out of the reader's way ------------------------------------------------


def test_every_seed_page_keeps_maintainer_hints_in_the_collapsed_block(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    library, _ = seeds
    keys = {p.key for p in library.papers}
    for paper in library.papers:
        reader, about = _split(_page(seeds, paper.key))
        assert not re.search(r"\.txt\\:\d", reader), paper.key  # no "(wei-lin.txt:9)"
        assert "Write them in" not in reader and "refs\\.bib" not in reader and "Set `title`" not in reader
        assert "## Notes" not in reader  # no note: no section
        assert f"docs\\/notes\\/{paper.slug}\\.md" in about and f"Citation key\\: {paper.key}\\." in about
        assert re.search(r"\.txt\\:\d+", about), paper.key  # the source's file and line, for the maintainer
        if paper.categories_inferred:  # neighbours by title, linked: no citation key anywhere
            assert "most similar categorized papers" in about and "(rl:papers/" in about, paper.key
            shown = re.sub(r"\(rl:papers/[^)]*\)", "", about)
            assert not any(re.search(rf"\b{re.escape(k)}\b", shown) for k in keys - {paper.key}), paper.key
            assert "\\(inferred\\: the source gives no category\\)" in reader


def test_a_working_title_is_marked_for_readers_and_explained_to_the_maintainer(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    library, _ = seeds
    inferred = [p for p in library.papers if p.work.title_inferred]
    assert inferred  # the seeds have profile listings without titles
    reader, about = _split(_page(seeds, inferred[0].key))
    assert "*Working title, inferred from the abstract: the source gives none.*" in reader
    assert ":::{note}" not in reader
    assert "Set title in refs\\.bib" in about


def test_the_source_is_named_in_reader_words(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    reader, about = _split(_page(seeds, "lin2019c3"))
    assert "**Source:** author profile of Wei Lin\n" in reader
    assert "author profile of Wei Lin \\(wei\\-lin\\.txt\\:" in about


def test_a_note_gets_its_section_and_the_block_names_its_file(
    seeds: tuple[Library, dict[str, str]], tmp_path: Path
) -> None:
    note = tmp_path / "lin2019c3.md"
    note.write_text("---\nstatus: read\n---\nA solid baseline.\n", encoding="utf-8")
    reader, about = _split(_page(seeds, "lin2019c3", note))
    assert "## Notes" in reader and "{bdg-secondary}`Read`" in reader
    assert "```{include} ../notes/lin2019c3.md" in reader
    assert "Notes\\: from docs\\/notes\\/lin2019c3\\.md\\." in about and "Write them" not in about


# --- the Cite menu ---------------------------------------------------------------------------------

MD = create_md_parser(MdParserConfig(enable_extensions={"colon_fence", "dollarmath"}), RendererHTML)


def _blocks(markdown: str) -> list[Token]:
    return [t for t in MD.parse(markdown) if t.type == "fence"]


def _menu(markdown: str) -> list[tuple[str, str, str]]:
    """(tab label, code block language, code) of each tab, as MyST reads the block: or fail.

    The menu is one ``{readinglist-cite}`` block and nothing else, each line one tab's JSON."""
    tokens = MD.parse(markdown)
    assert [t.type for t in tokens] == ["fence"]
    [menu] = tokens
    assert menu.info == "{readinglist-cite}"
    tabs = [json.loads(line) for line in menu.content.splitlines()]
    assert all(set(tab) == {"label", "lexer", "text"} for tab in tabs)
    return [(tab["label"], tab["lexer"], tab["text"]) for tab in tabs]


def test_topics_name_the_subtopics_a_paper_is_in(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    library, _ = seeds
    placed = [p for p in library.papers if p.subtopics]
    assert placed, "the seed taxonomy has subtopics"
    for paper in placed:
        topics_line = next(line for line in _page(seeds, paper.key).splitlines() if line.startswith("**Topics:**"))
        for sub in paper.subtopics:
            assert f"› [{library_title(library, sub)}](rl:topics/{sub})" in topics_line, topics_line


def library_title(library: Library, topic_id: str) -> str:
    return next(md_text(s.title) for t in library.topics for s in t.subtopics if s.id == topic_id)


def test_the_cite_menu_offers_bibtex_plain_text_and_markdown(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    library, bibtex = seeds
    page = _page(seeds, "lin2020dapple")
    menu = re.search(r"^(`+)\{readinglist-cite\}.*?^\1$", page, re.S | re.M)
    assert menu is not None
    tabs = _menu(menu.group(0))
    assert [(label, lexer) for label, lexer, _ in tabs] == [
        ("BibTeX", "bibtex"),
        ("BibLaTeX", "bib"),
        ("RIS", "text"),
        ("CSL-JSON", "json"),
        ("ACL", "text"),
        ("Plain text", "text"),
        ("Markdown", "markdown"),
    ]
    tabs = [tabs[0], *tabs[-2:]]  # the other formats: tests/test_export.py
    assert tabs[0][2] == bibtex["lin2020dapple"].strip()
    # The plain text is pybtex's plain style on the bibliography's own entry: what the bibliography shows.
    paper = library.by_key()["lin2020dapple"]
    data = Parser().parse_string(entry_text(paper.slug, paper.work, {}))
    style = pybtex.plugin.find_plugin("pybtex.style.formatting", "plain")()
    [formatted] = style.format_entries(data.entries.values())
    assert tabs[1][2] == clean(formatted.text.render_as("text")) and "DAPPLE" in tabs[1][2]
    assert tabs[2][2] == clean(formatted.text.render_as("markdown"))


def test_markdown_links_the_doi_and_arxiv_id(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    library, _ = seeds
    work = replace(
        library.by_key()["lin2019c3"].work,
        doi="10.1145/3458817.3476145",
        eprint="1905.12345",
    )
    tabs = dict((label, text) for label, _, text in _menu(cite_menu(cite.citation(work, {}, ""))))
    assert "BibTeX" not in tabs  # no text, no tab
    assert "[doi:10\\.1145/3458817\\.3476145](https://doi.org/10.1145/3458817.3476145)" in tabs["Markdown"]
    assert "(https://arxiv.org/abs/1905.12345)" in tabs["Markdown"]
    assert "doi:10.1145/3458817.3476145" in tabs["Plain text"]


def test_a_format_is_one_row_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    row = CiteFormat("Key", "text", lambda c: c.work.key)
    monkeypatch.setattr(cite, "FORMATS", (*FORMATS, row))
    tabs = _menu(cite_menu(Citation(Work("k1", "T"), "@misc{k1,\n}", "", "")))
    assert tabs == [("BibTeX", "bibtex", "@misc{k1,\n}"), ("Key", "text", "k1")]


FENCES = [
    "````",
    "`````{tab-item} X",
    "\n```\n",
    "\n:::\n",
    "\n~~~",
    "\u2028",
    "\r",
    '"}\n{"label": "X"',
]
texts = st.lists(st.one_of(st.text(max_size=16), st.sampled_from(FRAGMENTS + FENCES)), max_size=8).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, texts, texts)
def test_no_text_escapes_its_tab(bibtex: str, plain: str, markdown: str) -> None:
    """Whatever a record holds, the menu parses as one block of one JSON line per tab, each
    holding the text (as chars.py keeps it) and nothing else: no fence, directive or markup."""
    given = {"BibTeX": bibtex, "Plain text": plain, "Markdown": markdown}
    menu = cite_menu(Citation(Work("k", "T"), bibtex, plain, markdown))
    expected = [(label, strip_unsafe(text).strip()) for label, text in given.items() if strip_unsafe(text).strip()]
    if not expected:
        assert menu == ""
        return
    assert [(label, text) for label, _, text in _menu(menu)] == expected


def _references(work: Work) -> tuple[str, str]:
    """The entry as pybtex's plain style formats it (without its label), as text and as Markdown."""
    found = cite.citation(work, {}, "")
    return found.plain, found.markdown


def test_formatted_references_are_kept_between_generates() -> None:
    work = Work("k", "A Title", authors=("Ada Lovelace",), year=1843, entry_type="misc")
    fresh = _references(work)
    assert fresh[0] == "Ada Lovelace. A Title. 1843."
    with citecache.kept({}) as cited:
        assert _references(work) == fresh
        [key] = cited.used
    stored = {key: ["kept", "kept too", "kept ACL"]}  # what the next generate finds is what it serves
    with citecache.kept(stored) as cited:
        assert _references(work) == ("kept", "kept too")
        assert cited.used == stored
    assert _references(work) == fresh  # outside a generate: no cache


def test_a_generate_keeps_the_references_it_used(tmp_path: Path) -> None:
    config = load_config(copy_seeds(tmp_path / "seeds"))
    generate.run(config)
    key = key_of(CITATIONS, citecache.versions())  # a new pybtex or citeproc-py: another key
    kept = Store.open(config.docs_path).get(CITATIONS, key, dict)
    assert kept is not None and len(kept) == 28


def test_problem_approach_and_result_come_before_the_abstract(
    seeds: tuple[Library, dict[str, str]],
) -> None:
    """Issue 14: the three lines lead the summary; the abstract follows in a dropdown that
    starts open (readinglist-a11y.js closes it on a phone's screen)."""
    reader, _ = _split(_page(seeds, "gaovacl"))
    lines = [reader.index(f"**{label}:** ") for label in ("Problem", "Approach", "Result")]
    assert lines == sorted(lines) and lines[-1] < reader.index("## Abstract")
    assert "**TL;DR:**" not in reader  # the lines replace it; it stays in records.json and feeds
    dropdown = reader[reader.index("## Abstract") :]
    assert "{dropdown} Full abstract\n:open:\n:class-container: readinglist-abstract" in dropdown
    assert md_text("Improving weight sparsity is a common strategy") in dropdown


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(texts)
def test_summary_lines_are_escaped_on_pages_and_cards(seeds: tuple[Library, dict[str, str]], text: str) -> None:
    library, bibtex = seeds
    paper = replace(library.by_key()["gaovacl"], brief=Brief(text, "Plain approach.", text))
    page = paper_page(paper, library.by_key(), None, bibtex["gaovacl"], library, author_urls(library))
    for label in ("Problem", "Result") if text.strip() else ():
        assert f"**{label}:** {md_text(text)}".rstrip() in page
    summary = card(paper)["summary"]  # text: the extension escapes it (cardlist.py)
    assert ["Approach", "Plain approach."] in summary
    if one_line(text, CARD_WORDS):
        assert ["Problem", one_line(text, CARD_WORDS)] in summary
    [block] = MD.parse(card_list([paper]))  # one block, whatever the text holds
    assert block.info == "{readinglist-cards}" and json.loads(block.content)["summary"] == summary
