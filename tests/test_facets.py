"""Search facets (site/facets.py): the filters, sort keys and result metadata of a paper page."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from readinglist.site.sphinx_ext.facets import facet_values, markup, note_meta

RECORD = {
    "title": "DAPPLE: A Pipelined Data Parallel Approach",
    "authors": ["Lin, Wei", "Shiqing Fan"],
    "et_al": True,
    "year": 2020,
    "categories": ["cs.DC"],
    "topics": ["ml-systems"],
    "venue": "PPoPP",
    "keywords": ["pipeline parallelism", " "],
}
NOTE = {"status": "read", "tags": ["distributed training", "pipeline parallelism"]}
TOPICS = {"ml-systems": "Machine-learning systems and compilers"}
ELEMENT = re.compile(r'<data data-pagefind-(\w+)="(\w+)\[value\]" value="([^"]*)"></data>')


def _elements(text: str) -> list[tuple[str, str, str]]:
    return [(kind, name, html.unescape(value)) for kind, name, value in ELEMENT.findall(text)]


def test_every_filter_has_its_values() -> None:
    values = facet_values(RECORD, NOTE, TOPICS)
    assert values == {
        "topic": ["Machine-learning systems and compilers"],
        "year": ["2020"],
        "author": ["Lin, Wei", "Shiqing Fan"],  # a comma inside a name keeps it one author
        "category": ["cs.DC"],
        "venue": ["PPoPP"],
        "status": ["read"],
        "tag": ["pipeline parallelism", "distributed training"],  # keywords and note tags, once each
    }


def test_markup_holds_filters_meta_and_sort_keys() -> None:
    elements = _elements(markup(RECORD, NOTE, TOPICS))
    assert ("filter", "year", "2020") in elements
    assert ("filter", "author", "Lin, Wei") in elements
    assert ("meta", "authors", "Lin, Wei, Shiqing Fan et al.") in elements
    assert ("meta", "year", "2020") in elements
    assert ("sort", "year", "2020") in elements
    assert ("sort", "title", "dapple: a pipelined data parallel approach") in elements


def test_a_record_without_year_or_note_still_sorts() -> None:
    elements = _elements(markup({"title": "T", "authors": ["A"]}, {}, {}))
    assert ("sort", "year", "0") in elements  # Pagefind drops pages without the key from sorted views
    assert not [e for e in elements if e[:2] in (("filter", "year"), ("filter", "status"))]


def test_a_malformed_note_value_is_ignored() -> None:
    values = facet_values(RECORD, {"status": 3, "tags": "not a list"}, {})
    assert values["status"] == [] and values["tag"] == ["pipeline parallelism"]


@given(st.text(min_size=1).filter(str.strip))
def test_record_text_cannot_leave_its_attribute(text: str) -> None:
    record = {"title": text, "authors": [text], "year": 2020, "topics": [], "keywords": [text], "venue": text}
    out = markup(record, {"status": text, "tags": [text]}, {})
    assert "<" not in out.replace("<data ", "").replace("</data>", "").replace("<div ", "").replace("</div>", "")
    kinds = {(kind, name): value for kind, name, value in _elements(out)}
    # Pagefind decodes a filter's value once more and its UI shows it as HTML: it reads as the record does.
    stored = html.unescape(kinds[("filter", "author")])  # the attribute was decoded by _elements
    assert "<" not in stored and html.unescape(stored) == text
    assert kinds[("meta", "authors")] == text  # metadata is shown as text


def test_note_meta_reads_front_matter_and_ignores_bad_notes(tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text("---\nstatus: reading\n---\nBody\n", encoding="utf-8")
    (tmp_path / "bad.md").write_text("---\nstatus: [\n", encoding="utf-8")
    assert note_meta(tmp_path, "good") == {"status": "reading"}
    assert note_meta(tmp_path, "bad") == {} and note_meta(tmp_path, "missing") == {}


def test_result_authors_credit_as_the_page_does() -> None:
    """A record whose source names only its profile owner claims no first author in results either."""
    owner_only = {**RECORD, "authors": ["Wei Lin"], "listed_authors": [], "et_al": True}
    assert ("meta", "authors", "with Wei Lin") in _elements(markup(owner_only, {}, TOPICS))
    partial = {**RECORD, "authors": ["Qinggang Zhou", "Jun Yang"], "listed_authors": ["Qinggang Zhou"]}
    assert ("meta", "authors", "Qinggang Zhou et al. (with Jun Yang)") in _elements(markup(partial, {}, TOPICS))
