"""Issue 31: every reader keeps hostile text intact, and every bound gives one line while the rest imports.

Each test is a repro of the issue: a CSL-JSON title with ``<`` and ``>``, lists and numbers where
strings go, a non-object item, deep nesting, a NUL byte in one BibTeX entry, a malformed pair in
a dump, an ``@string`` bomb (in a source and typed into refs.bib), a field of megabytes, and a
``%`` in a name.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from pybtex.database import Person
from pybtex.database.input.bibtex import Parser

from readinglist.errors import Code, ReadingListError
from readinglist.latex import to_text
from readinglist.model import RawRecord, ReadResult, SourceRef
from readinglist.sources import arxiv_listing, author_pairs, bibtex, read_source
from readinglist.sources.bounds import MAX_FIELD, MAX_VALUE
from readinglist.store import bibfile, importer
from readinglist.store.names import display_name, stored_name

GOOD = "@misc{good2020,\n  title = {A Good Entry},\n  author = {Doe, Jane},\n  year = {2020},\n}\n"


def _read(tmp_path: Path, name: str, data: str | bytes) -> ReadResult:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return read_source(path, name)


def _balanced(latex: str) -> bool:
    depth = 0
    for i, ch in enumerate(latex):
        escaped = i > 0 and latex[i - 1] == "\\"
        depth += (ch == "{" and not escaped) - (ch == "}" and not escaped)
        if depth < 0:
            return False
    return depth == 0


def _stored_titles(tmp_path: Path, source: Path) -> list[str]:
    bib = tmp_path / "refs.bib"
    importer.run([source], bib, tmp_path)
    return sorted(to_text(w.title) for w in bibfile.load(bib).works())


# --- 3. a CSL-JSON title with "<" and ">" ------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "text"),
    [
        ("<i>x < y</i> when z > 1", "x < y when z > 1"),
        ("Bounds for k < 3 and n > 2", "Bounds for k < 3 and n > 2"),
        ("a<b and c>d", "a<b and c>d"),
        ("<b>bold <i>and italic</i></b> x<sup>2</sup>", "bold and italic x2"),
        ('<span class="nocase">iPhone</span> <3', "iPhone <3"),
        ("an <i>unclosed tag", "an <i>unclosed tag"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),
    ],
)
def test_csl_title_keeps_every_character_outside_its_tags(tmp_path: Path, title: str, text: str) -> None:
    source = tmp_path / "x.json"
    source.write_text(json.dumps([{"id": "k", "type": "article-journal", "title": title}]), encoding="utf-8")
    record = read_source(source, "x.json").records[0]
    assert _balanced(record.title), record.title
    assert to_text(record.title).replace("²", "2") == text
    assert [t.replace("²", "2") for t in _stored_titles(tmp_path, source)] == [text]


# --- 11. lists and numbers where strings go ------------------------------------------------------------


def test_csl_lists_and_numbers_are_text_never_a_python_repr(tmp_path: Path) -> None:
    item = {"id": "k", "type": "book", "title": ["A", "list"], "volume": 12, "page": 3.5, "note": {"x": 1}}
    record = _read(tmp_path, "x.json", json.dumps([item])).records[0]
    fields = dict(record.fields)
    assert (record.title, fields["volume"], fields["pages"]) == ("A, list", "12", "3.5")
    assert "note" not in fields  # an object is no text at all
    assert not any("[" in v or "{'" in v for v in (record.title, *fields.values()))


# --- 11. one bad item never rejects the file ----------------------------------------------------------


def test_a_non_object_item_is_skipped_with_its_line_even_first(tmp_path: Path) -> None:
    text = '[\n  5,\n  {"id": "a", "title": "A"},\n  "text",\n  {"id": "b", "title": "B"}\n]\n'
    result = _read(tmp_path, "x.json", text)
    assert [r.title for r in result.records] == ["A", "B"]
    assert [(s.line, "not a CSL-JSON item" in s.reason) for s in result.skipped] == [(2, True), (4, True)]


def test_deeply_nested_csl_json_is_one_line_and_the_rest_imports(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = f'[\n{{"id": "a", "title": "A", "note": {deep}}},\n{{"id": "b", "title": "B"}}\n]\n'
    result = _read(tmp_path, "x.json", text)
    assert [r.title for r in result.records] == ["B"]
    assert [(s.line, s.key) for s in result.skipped] == [(2, "a")]
    assert "nested" in result.skipped[0].reason


def test_a_deeply_nested_single_object_is_one_error(tmp_path: Path) -> None:
    text = '{"title": "A", "note": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ReadingListError) as info:
        _read(tmp_path, "x.json", text)
    assert info.value.code in (Code.TOO_LARGE, Code.BAD_CSL_JSON)


def test_a_nul_byte_in_one_bibtex_entry_does_not_reject_the_file(tmp_path: Path) -> None:
    result = _read(tmp_path, "x.bib", "@misc{bad, title = {A\x00B}}\n" + GOOD)
    titles = {r.key: r.title for r in result.records}
    assert titles["good2020"] == "A Good Entry"
    assert "\x00" not in "".join(titles.values())  # removed, as chars.py removes every C0 control


def test_a_nul_byte_in_a_profile_dump_is_still_binary(tmp_path: Path) -> None:
    with pytest.raises(ReadingListError) as info:
        _read(tmp_path, "x.txt", "Ada Owner\n\nA. Author, B. Author et al.\n\nSome abs\x00tract.\n")
    assert (info.value.line, info.value.code) == (5, Code.BINARY_FILE)


PAIRS = "Ada Owner\nA. Author, B. Author\nFirst abstract.\n{}\nC. Author\nThird abstract.\n"


@pytest.mark.parametrize(
    "bad", ["Not an author line: x\nSecond abstract.", "D. Author", "D. Author\nE. Author, F. Author"]
)
def test_one_malformed_pair_in_a_dump_skips_that_record(tmp_path: Path, bad: str) -> None:
    result = _read(tmp_path, "x.txt", PAIRS.format(bad))
    assert [r.abstract for r in result.records] == ["First abstract.", "Third abstract."]
    assert len(result.skipped) == 1 and result.skipped[0].line == 4


LISTING = "Ada Owner\narXiv2020\nFirst title\ncs.DC↗\narXiv2021\nT\nA\nextra line\narXiv2022\nThird title\n"


def test_one_malformed_block_in_an_arxiv_listing_skips_that_record(tmp_path: Path) -> None:
    result = _read(tmp_path, "x.txt", LISTING)
    assert [r.title for r in result.records] == ["First title", "Third title"]
    assert [s.line for s in result.skipped] == [8]  # the extra line


# --- 4. an @string bomb ------------------------------------------------------------------------------


def _bomb(levels: int) -> str:
    lines = ["@string{m0 = {xx}}"] + [f"@string{{m{n} = m{n - 1} # m{n - 1}}}" for n in range(1, levels + 1)]
    return "\n".join(lines) + f"\n@misc{{bombed, title = m{levels}}}\n" + GOOD


def _peak(call: object) -> int:
    tracemalloc.start()
    try:
        call()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("levels", [24, 41])
def test_an_string_bomb_is_one_line_and_the_good_entry_imports(tmp_path: Path, levels: int) -> None:
    result = _read(tmp_path, "x.bib", _bomb(levels))
    assert [r.key for r in result.records] == ["good2020"]
    bomb_lines = [s for s in result.skipped if s.key.startswith("@string")]
    assert len(bomb_lines) == 1 and "expand" in bomb_lines[0].reason
    # The parse holds a few values of the bound, never the expansion (2**levels characters). (Measured
    # apart from reading the file, whose buffer is the size bound of sources.text.)
    assert _peak(lambda: bibtex.read_string(_bomb(levels), "x.bib")) < 32 * MAX_VALUE


def test_an_string_bomb_in_refs_bib_is_one_line_for_import_and_skipped_by_generate(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(_bomb(41), encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        bibfile.load(bib)
    assert info.value.line is not None and "\n" not in str(info.value)
    assert info.value.code == Code.TOO_LARGE  # not the user's syntax error
    store: list[bibfile.BibFile] = []
    peak = _peak(lambda: store.append(bibfile.load(bib, tolerant=True)))
    assert [w.key for w in store[0].works()] == ["good2020"]
    assert peak < 32 * MAX_VALUE


def test_a_field_referencing_one_macro_many_times_is_bounded(tmp_path: Path) -> None:
    big = "y" * (MAX_VALUE // 2)
    refs = " # ".join(["big"] * 4000)
    text = f"@string{{big = {{{big}}}}}\n@misc{{many, title = {refs}}}\n" + GOOD
    result = _read(tmp_path, "x.bib", text)
    assert [r.key for r in result.records] == ["good2020"]
    assert [s.key for s in result.skipped] == ["many"]
    assert _peak(lambda: bibtex.read_string(text, "x.bib")) < 32 * MAX_VALUE


# --- 13. no field of megabytes -----------------------------------------------------------------------

BIG = "w" * (MAX_FIELD + 1)


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("x.bib", f"@misc{{big, title = {{T}}, abstract = {{{BIG}}}}}\n\n{GOOD}", 1),
        ("x.json", json.dumps([{"id": "big", "title": "T", "abstract": BIG}, {"id": "good2020", "title": "G"}]), 1),
        ("x.txt", f"Ada Owner\nA. Author\n{BIG}\nB. Author\nGood abstract.\n", 2),
    ],
    ids=["bibtex", "csl-json", "dump"],
)
def test_a_field_over_the_bound_skips_its_entry_with_one_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    result = _read(tmp_path, name, text)
    assert len(result.records) == 1
    assert [(s.line, "abstract" in s.reason and f"{MAX_FIELD:,}" in s.reason) for s in result.skipped] == [(line, True)]


def test_a_fetched_record_over_the_bound_is_skipped_as_a_read_one_is(tmp_path: Path) -> None:
    """``readinglist add`` merges fetched records through ``run_records``: the same bound applies."""
    source = SourceRef("arXiv:2101.00001", 1, "")
    big = RawRecord(source, "T", ("Ada Lee",), False, 2021, BIG, (), key="big")
    good = RawRecord(replace(source, file="arXiv:2101.00002"), "G", ("Bo Li",), False, 2021, "Fine.", (), key="good")
    bib = tmp_path / "refs.bib"
    report = importer.run_records([big, good], bib)
    assert (report.added, [s.key for s in report.skipped]) == (1, ["big"])
    assert [w.title for w in bibfile.load(bib).works()] == ["G"]


# --- 14. a "%" in an author's name ---------------------------------------------------------------------


def test_a_percent_in_a_csl_name_is_stored_escaped_and_read_back(tmp_path: Path) -> None:
    source = tmp_path / "x.json"
    people = [{"family": "Doe", "given": "Jane"}, {"literal": "Ten 5% Club"}]
    source.write_text(json.dumps([{"id": "k", "title": "T", "author": people}]), encoding="utf-8")
    bib = tmp_path / "refs.bib"
    importer.run([source], bib, tmp_path)
    assert "Ten 5\\% Club" in bib.read_text(encoding="utf-8")
    assert bibfile.load(bib).works()[0].authors == ("Jane Doe", "Ten 5% Club")


def test_a_name_read_back_with_a_percent_is_stored_escaped_again() -> None:
    """The hook for the store's writer (bibfile.name_as_stored): a display name with "%" written back escaped."""
    shown = _authors("Doe, Jane and Ten 5\\% Club")
    assert shown == ["Jane Doe", "Ten 5% Club"]
    assert _authors(" and ".join(str(Person(stored_name(n))) for n in shown)) == shown


def _authors(field: str) -> list[str]:
    """The display names of an author field, as refs.bib's parser reads it in an entry."""
    entry = Parser().parse_string(f"@misc{{k,\n  title = {{T}},\n  author = {{{field}}},\n}}\n").entries["k"]
    return [display_name(p) for p in entry.persons["author"]]


# --- 15. a dump whose owner line was cut -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reader", "text"),
    [
        (arxiv_listing.read_string, "It is a task, a hard one, on GPUs, with links\n\narXiv2020\nA title\n\ncs.DC\n"),
        (
            author_pairs.read_string,
            f"Training models on GPUs is a {'very ' * 20}hard task.\n\nWei Lin, Jun Yang\n\nAn abstract.\n",
        ),
    ],
)
def test_an_owner_line_that_is_no_name_is_refused_with_its_line(
    reader: Callable[[str, str], object], text: str
) -> None:
    """A dump cut above its first record starts with an abstract, which was taken as the profile
    owner: every record's author, with more commas than a BibTeX name may have (found by test_fuzz)."""
    with pytest.raises(ReadingListError) as caught:
        reader(text, "profile.txt")
    assert (caught.value.line, caught.value.code) == (1, Code.BAD_DUMP)
    assert "profile owner's name" in caught.value.message
