"""The "From Zotero" section (render/zotero.py) and the item table (sources/zotero_items.py).

A note's HTML is untrusted: whatever it holds, the section's MyST parses to paragraphs,
emphasis, lists, headings and http(s) links only, never raw HTML, a role, a directive, math or
a ``javascript:`` link (a hypothesis property over hostile fragments).
"""

from __future__ import annotations

import json
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from docutils import nodes
from hypothesis import given, settings
from hypothesis import strategies as st

from hostile_kit import FRAGMENTS, render
from readinglist.model import Brief, Library, Paper, SourceRef, Work
from readinglist.render.escape import clean
from readinglist.render.paper import paper_page
from readinglist.render.zotero import (
    Annotations,
    as_shown,
    highlight_md,
    load,
    note_md,
    of,
    quote_md,
    sanitise,
    section,
)
from readinglist.sources.zotero_items import extra_fields, item_key_of, source_file, to_record

HTML = [
    "<p>", "</p>", "<em>", "</em>", "<strong>", "</strong>", "<ul>", "</ul>", "<ol>", "</ol>", "<li>", "</li>",
    '<a href="https://example.org/a?b=1&amp;c=2">', '<a href="javascript:alert(1)">', '<a href="JaVaScRiPt:x">',
    '<a href=" javascript:x">', '<a href="data:text/html,x">', '<a href="https://x.org/<script>">', "</a>",
    "<script>alert(1)</script>", "<style>p{}</style>", '<img src=x onerror="alert(2)">', "<iframe src=x>",
    '<span style="x">', "</span>", "<h1>", "</h1>", "<pre>", "</pre>", "<code>", "</code>", "<br>", "<!-- c -->",
    "<![CDATA[x]]>", "&lt;script&gt;", "&#106;avascript:", "{raw}`<b>x</b>`", "```{raw} html", ":::{include} x",
]  # fmt: skip
ALLOWED_NODES = (
    nodes.document, nodes.section, nodes.title, nodes.subtitle, nodes.paragraph, nodes.Text, nodes.emphasis,
    nodes.strong, nodes.bullet_list, nodes.enumerated_list, nodes.list_item, nodes.reference,
)  # fmt: skip
WORK = Work("lee2021", "Sparse attention", ("Lee, Ann",), year=2021, abstract="We study attention.")
PAPER = Paper(WORK, "lee2021", (), False, "", (), "We study attention.", (), brief=Brief("Attention is slow.", "", ""))
LIBRARY = Library((PAPER,), (), (), {"Lee, Ann": "ann-lee"})
URLS = {"ann-lee": "rl:authors/l#ann-lee"}  # each author's section
hostile = st.lists(st.one_of(st.sampled_from(HTML + FRAGMENTS), st.text(max_size=12)), max_size=14).map("".join)


def _check(markdown: str) -> None:
    doc, warnings = render(f"# Paper\n\n{markdown}")  # under the page's title, as it is included
    assert warnings == ""
    for node in doc.findall():
        assert isinstance(node, ALLOWED_NODES), (type(node).__name__, markdown)
        if isinstance(node, nodes.reference):  # a link's text may say "javascript:"; its target never
            assert node["refuri"].startswith(("https://", "http://")), markdown


@settings(max_examples=300, deadline=None)
@given(note=hostile, said=hostile, comment=hostile, page=st.text(max_size=8), colour=st.text(max_size=8))
def test_no_note_or_highlight_puts_markup_in_the_from_zotero_section(
    note: str, said: str, comment: str, page: str, colour: str
) -> None:
    mark = {"text": said, "comment": comment, "color": colour, "page": page, "sort": "1"}
    _check(section(as_shown({"notes": {"N": note}, "highlights": {"A": mark}}, {})))


FIELD_NAMES = st.one_of(st.sampled_from(["Key result", "approach", "Problem", "Method", "Limitation"]), hostile)


@settings(max_examples=150, deadline=None)
@given(note=hostile, said=hostile, comment=hostile, page=st.text(max_size=8), field=FIELD_NAMES)
def test_no_highlight_puts_markup_in_the_pages_summary(
    note: str, said: str, comment: str, page: str, field: str
) -> None:
    """A highlight whose colour the owner maps to a summary field (any name, hostile too) is shown
    in the page's summary, under that field, with its page: as text, never markup."""
    mark = {"text": said, "comment": comment, "color": "#ffd400", "page": page, "sort": "1"}
    found = as_shown({"notes": {"N": note}, "highlights": {"A": mark}}, {"yellow": field})
    page_md = paper_page(PAPER, {PAPER.key: PAPER}, None, "", LIBRARY, URLS, graph=False, zotero=found)
    summary = page_md[page_md.index("## Summary") : page_md.index("## Abstract")]
    _check(summary.replace("## Summary", "", 1))
    if "## From Zotero" in page_md:
        _check(page_md[page_md.index("## From Zotero") : page_md.index("## Related papers")])
    if found.highlights and found.highlights[0].field:  # a field's name may be blank, once cleaned: none
        assert quote_md(found.highlights[0]) in summary


def test_a_mapped_colours_highlights_stand_under_their_summary_field_with_their_page() -> None:
    marks = {
        f"A{n}": {"text": f"claim {n}", "comment": "", "color": colour, "page": str(n + 3), "sort": f"{n}"}
        for n, colour in enumerate(("#ffd400", "#2ea8e5", "#5fb236", "#ff6666", "#aaaaaa"))
    }
    colours = {"yellow": "Key result", "blue": "approach", "#5fb236": "Limitation", "red": "Problem"}
    found = as_shown({"notes": {}, "highlights": marks}, colours)
    paper = replace(PAPER, brief=Brief("", "Plain approach.", ""), key_results=("Faster by 3x.",))
    page = paper_page(paper, {PAPER.key: paper}, None, "", LIBRARY, URLS, graph=False, zotero=found)
    summary = page[page.index("## Summary") : page.index("## Abstract")]
    assert [block.strip() for block in summary.split("\n\n") if block.strip()][1:] == [
        "**Approach:** Plain approach\\.\n- “claim 1” \\(highlighted on p\\. 4\\)",
        "**Key results:**",
        "- Faster by 3x\\.\n- “claim 0” \\(highlighted on p\\. 3\\)",
        "**Problem:**\n- “claim 3” \\(highlighted on p\\. 6\\)",  # no line of its own: after the lines
        "**Limitation:**\n- “claim 2” \\(highlighted on p\\. 5\\)",
    ]
    zotero = page[page.index("## From Zotero") : page.index("## Related papers")]
    assert "Gray highlight** \\(p\\. 7\\): “claim 4”" in zotero and "claim 0" not in zotero  # shown once


def test_a_page_without_zotero_annotations_is_as_it_was() -> None:
    plain = paper_page(PAPER, {PAPER.key: PAPER}, None, "", LIBRARY, URLS, graph=False)
    assert paper_page(PAPER, {PAPER.key: PAPER}, None, "", LIBRARY, URLS, graph=False, zotero=Annotations()) == plain
    assert "From Zotero" not in plain and "highlighted" not in plain


@settings(max_examples=200, deadline=None)
@given(note=hostile)
def test_a_notes_text_reaches_the_page_as_the_sanitised_html_says_it(note: str) -> None:
    shown = note_md(note)
    doc, _ = render(f"# Paper\n\n{shown}")
    visible = " ".join(doc.astext().removeprefix("Paper").split())
    texts: list[str] = []
    parser = _Text(texts)
    parser.feed(sanitise(note))
    parser.close()
    assert visible == clean("".join(texts))


class _Text(HTMLParser):
    """The text of sanitised HTML, a space where a block (paragraph, list, item) starts or ends."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.texts = texts

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.texts.append(" " if tag in ("p", "li", "ul", "ol") else "")

    def handle_endtag(self, tag: str) -> None:
        self.handle_starttag(tag, [])

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def test_a_note_keeps_its_paragraphs_emphasis_lists_and_safe_links() -> None:
    html = (
        '<div data-schema-version="9"><h1>Reading</h1><p>Read <strong>this</strong> and <em>that</em>, '
        '<a href="https://example.org/p">the paper</a>, not <a href="javascript:alert(1)">this</a>.</p>'
        "<ol><li>first</li><li>second<ul><li>inner</li></ul></li></ol></div>"
    )
    assert note_md(html).split("\n\n") == [
        "Reading",
        "Read **this** and *that*\\, [the paper](<https://example.org/p>)\\, not this\\.",
        "1. first\n1. second\n   - inner",
    ]


def test_a_highlight_says_its_colour_and_its_page_and_a_mapped_one_its_field() -> None:
    mark: dict[str, Any] = {"text": "3x faster", "comment": "", "color": "#FFD400", "page": "12"}
    [shown] = as_shown({"highlights": {"A": mark}}, {}).highlights
    assert highlight_md(shown) == "- **Yellow highlight** \\(p\\. 12\\): “3x faster”"
    [shown] = as_shown({"highlights": {"A": {**mark, "color": "#123456"}}}, {}).highlights
    assert highlight_md(shown) == "- **\\#123456 highlight** \\(p\\. 12\\): “3x faster”"
    [shown] = as_shown({"highlights": {"A": mark}}, {"yellow": "Key result"}).highlights
    assert shown.field == "Key results" and quote_md(shown) == "“3x faster” \\(highlighted on p\\. 12\\)"
    image = {"text": "", "comment": "", "color": "#FFD400", "page": "2"}  # an image or ink annotation: nothing to say
    assert not as_shown({"highlights": {"A": image}}, {}) and section(Annotations()) == ""


def test_load_reads_the_synced_notes_and_what_the_colours_stand_for_now(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    mark = {"text": "claim", "comment": "", "color": "#ffd400", "page": "3", "sort": "1"}
    children = {"attachments": {}, "items": {"ITEM0001": {"notes": {}, "highlights": {"A": mark}}, "ITEM0002": {}}}
    (tmp_path / "conf" / "zotero-notes.json").write_text(json.dumps(children), encoding="utf-8")
    assert list(load(tmp_path)) == ["ITEM0001"]  # an item with nothing to show is not there
    assert load(tmp_path)["ITEM0001"].highlights[0].field == ""
    (tmp_path / "conf" / "zotero.toml").write_text('[highlights]\n"#ffd400" = "Main claim"\n', encoding="utf-8")
    assert load(tmp_path)["ITEM0001"].highlights[0].field == "Main claim"
    work = Work("k", "T", sources=(SourceRef("zotero/users/1/items/ITEM0001", 1), SourceRef("mine.bib", 3)))
    assert of(work, load(tmp_path)) == load(tmp_path)["ITEM0001"] and not of(replace(work, sources=()), {})


def test_an_item_becomes_a_record_by_the_table() -> None:
    data = {
        "key": "ABCD2345",
        "itemType": "conferencePaper",
        "title": "Sparse <i>attention</i> at scale",
        "creators": [
            {"creatorType": "author", "firstName": "Ann", "lastName": "Lee"},
            {"creatorType": "author", "name": "Example Consortium"},
            {"creatorType": "editor", "firstName": "Bo", "lastName": "Chen"},
        ],
        "abstractNote": "We study attention.",
        "proceedingsTitle": "Proceedings of Examples",
        "date": "2021-06-14",
        "DOI": "https://doi.org/10.1234/ABC.5",
        "pages": "1-10",
        "publisher": "ACM",
        "extra": "Citation Key: lee2021sparse\narXiv: 2101.00001v2\ntex.note: x",
        "tags": [{"tag": "attention"}, {"tag": "sparsity"}],
    }
    record = to_record({"key": "ABCD2345", "data": data}, "groups/7")
    assert (record.title, record.key, record.entry_type, record.year) == (
        "Sparse attention at scale",
        "lee2021sparse",
        "inproceedings",
        2021,
    )
    assert record.authors == ("Lee, Ann", "{Example Consortium}")
    assert (record.doi, record.eprint, record.keywords) == ("10.1234/ABC.5", "2101.00001v2", ("attention", "sparsity"))
    assert dict(record.fields) == {
        "pages": "1-10", "booktitle": "Proceedings of Examples", "publisher": "ACM", "editor": "Chen, Bo",
        "month": "June",
    }  # fmt: skip
    assert record.source.render() == "zotero/groups/7/items/ABCD2345:1"
    assert item_key_of(record.source.file) == "ABCD2345" and item_key_of("mine.bib") == ""
    assert source_file("users/1", "K") == "zotero/users/1/items/K"


def test_extra_lines_are_read_as_better_bibtex_writes_them() -> None:
    assert extra_fields("Citation Key: a2020b\n  DOI : 10.1/x \nnot a field\nCitation Key: later") == {
        "citation key": "a2020b",
        "doi": "10.1/x",
    }
