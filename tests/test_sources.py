"""The dump parsers: the seed dumps against checked expected records, and bad input with file:line errors.

The fixtures in tests/fixtures/sources/ were generated once from the parser and then checked by
hand against the dumps (line numbers, owners, titles, categories, et al., and that every abstract
is the dump's line verbatim); ``test_fixture_agrees_with_the_raw_dump`` re-checks the mechanical
part of that review independently of the parser. ``pytest --update-fixtures`` writes them again
from the parser (review the diff: that test still holds them to the dumps).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SEED_NAMES, SEEDS, SOURCES_DIR, Stored
from readinglist.errors import Code, ReadingListError
from readinglist.model import RawRecord, SourceRef
from readinglist.sources import read_dump

FIXTURES = Path(__file__).parent / "fixtures" / "sources"


def _expected(name: str) -> list[RawRecord]:
    data = json.loads((FIXTURES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return [
        RawRecord(
            source=SourceRef(item["source"]["file"], item["source"]["line"], item["source"]["owner"]),
            title=item["title"],
            authors=tuple(item["authors"]),
            et_al=item["et_al"],
            year=item["year"],
            abstract=item["abstract"],
            categories=tuple(item["categories"]),
        )
        for item in data
    ]


def _label(name: str) -> str:
    return f"conf/sources/{name}.txt"


def _as_json(record: RawRecord) -> dict[str, object]:
    """A record as the fixtures store it (``_expected`` reads it back)."""
    src = record.source
    return {"source": {"file": src.file, "line": src.line, "owner": src.owner}, "title": record.title,
            "authors": list(record.authors), "et_al": record.et_al, "year": record.year, "abstract": record.abstract,
            "categories": list(record.categories)}  # fmt: skip


def _fields(record: RawRecord) -> tuple[object, ...]:
    """Everything a record states, the source's owner included (SourceRef equality may ignore it)."""
    src = record.source
    return (src.file, src.line, src.owner, record.title, record.authors, record.et_al, record.year,
            record.abstract, record.categories)  # fmt: skip


@pytest.mark.parametrize("name", SEED_NAMES)
def test_seed_dump_parses_to_expected_records(name: str, stored: Stored) -> None:
    records = read_dump(SOURCES_DIR / f"{name}.txt", _label(name))
    stored.check_json(FIXTURES / f"{name}.expected.json", [_as_json(r) for r in records])
    assert [_fields(r) for r in records] == [_fields(r) for r in _expected(name)]  # and it reads back


def test_seed_record_counts() -> None:
    counts = {name: len(read_dump(SOURCES_DIR / f"{name}.txt", _label(name))) for name in SEED_NAMES}
    assert counts == {"jun-yang": 6, "wei-lin": 18, "xin-liu": 6}


def test_label_defaults_to_the_path() -> None:
    path = SOURCES_DIR / "xin-liu.txt"
    records = read_dump(path)
    assert {r.source.file for r in records} == {str(path)}


@pytest.mark.parametrize("name", SEED_NAMES)
def test_fixture_agrees_with_the_raw_dump(name: str) -> None:
    """Independent of the parser: each expected record is where it says it is in the dump, verbatim."""
    raw = (SEEDS / _label(name)).read_text(encoding="utf-8").split("\n")
    records = _expected(name)
    nonblank = [i for i, line in enumerate(raw, 1) if line.strip()]
    covered = set()
    for rec in records:
        n = rec.source.line
        assert rec.source.file == _label(name)
        if rec.year is None:  # author/abstract pair: author line at n, abstract on the next non-blank line
            following = [i for i in nonblank if i > n]
            assert raw[n - 1] == ", ".join(rec.authors) + (" et al." if rec.et_al else "")
            assert raw[following[0] - 1] == rec.abstract
            assert rec.title == "" and rec.categories == ()
            covered |= {n, following[0]}
        else:  # arXiv block: year, title, abstract, category
            block = [i for i in nonblank if i >= n][:4]
            assert raw[block[0] - 1] == f"arXiv{rec.year}"
            assert raw[block[1] - 1] == rec.title
            assert raw[block[2] - 1] == rec.abstract
            assert raw[block[3] - 1] == " ".join(rec.categories) + "↗"
            assert rec.authors == () and rec.et_al is False
            covered |= set(block)
    # Every non-blank line is a record line except the header (owner line, or the arXiv header block).
    header = [i for i in nonblank if i not in covered]
    assert header == nonblank[: len(header)]
    assert {rec.source.owner for rec in records} == {name.replace("-", " ").title()}


# --- hand-written dumps -------------------------------------------------------------------------

ABSTRACT = "We propose a method that does several things, and we evaluate it carefully (twice)."
PAIRS_OK = f"Ada Owner\n\nA. Author, B. Author et al.\n\n{ABSTRACT}\n"
AUTHORS_1, AUTHORS_2 = "A. Author, B. Author et al.", "C. Author, D. Author et al."
ARXIV_OK = (
    "arXiv subjects\n\nAda Owner\n\nPublications and source records attributed to Ada Owner.\n\n"
    "arXiv2021\n\nA Title: With Colon\n\nAn abstract (with a parenthesis).\n\ncs.DC↗\n"
)


def _write(tmp_path: Path, data: bytes | str, name: str = "dump.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def _error(path: Path, label: str = "my/dump.txt") -> ReadingListError:
    with pytest.raises(ReadingListError) as info:
        read_dump(path, label)
    return info.value


def test_small_pairs_dump(tmp_path: Path) -> None:
    records = read_dump(_write(tmp_path, PAIRS_OK), "x.txt")
    assert [_fields(r) for r in records] == [
        _fields(r)
        for r in [
            RawRecord(
                source=SourceRef("x.txt", 3, "Ada Owner"),
                authors=("A. Author", "B. Author"),
                et_al=True,
                abstract=ABSTRACT,
            )
        ]
    ]


def test_small_arxiv_dump_and_missing_abstract(tmp_path: Path) -> None:
    text = ARXIV_OK + "\narXiv2019\n\nNo Abstract Here\n\ncs.LG, stat.ML↗\n"
    records = read_dump(_write(tmp_path, text), "x.txt")
    assert [_fields(r) for r in records] == [
        _fields(r)
        for r in [
            RawRecord(
                source=SourceRef("x.txt", 7, "Ada Owner"),
                title="A Title: With Colon",
                year=2021,
                abstract="An abstract (with a parenthesis).",
                categories=("cs.DC",),
            ),
            RawRecord(
                source=SourceRef("x.txt", 15, "Ada Owner"),
                title="No Abstract Here",
                year=2019,
                abstract="",
                categories=("cs.LG", "stat.ML"),
            ),
        ]
    ]


def test_crlf_and_bom_do_not_shift_lines(tmp_path: Path) -> None:
    data = "\ufeff" + PAIRS_OK.replace("\n", "\r\n")
    records = read_dump(_write(tmp_path, data), "x.txt")
    assert [(r.source.line, r.source.owner) for r in records] == [(3, "Ada Owner")]


@pytest.mark.parametrize("data", [b"", b"\n  \n\t\n"], ids=["empty", "blank"])
def test_empty_file(tmp_path: Path, data: bytes) -> None:
    err = _error(_write(tmp_path, data))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 1, Code.EMPTY_FILE)
    assert str(err) == f"my/dump.txt:1: {err.message} [readinglist.empty-file]"


def test_binary_nul(tmp_path: Path) -> None:
    data = b"Ada Owner\n\nA. Author, B. Author et al.\n\nSome abs\x00tract.\n"
    err = _error(_write(tmp_path, data))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 5, Code.BINARY_FILE)


@pytest.mark.parametrize(
    ("newline", "line"),
    [
        ("\n", 5),
        ("\r\n", 5),
        pytest.param("\r", 5),
    ],
    ids=["lf", "crlf", "cr"],
)
def test_latin1_bytes(tmp_path: Path, newline: str, line: int) -> None:
    data = newline.join(["Ada Owner", "", "A. Author, B. Author et al.", "", "Jos\xe9 wrote this abstract.", ""])
    err = _error(_write(tmp_path, data.encode("latin-1")))
    assert (err.file, err.line, err.code) == ("my/dump.txt", line, Code.NOT_UTF8)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # the last author line has nothing after it
        (f"Ada Owner\n\n{AUTHORS_1}\n\n{ABSTRACT}\n\n{AUTHORS_2}\n", 7),
        # the first author line is followed directly by another author line
        (f"Ada Owner\n\n{AUTHORS_1}\n\n{AUTHORS_2}\n\n{ABSTRACT}\n", 3),
        # an owner and a single author line
        ("Ada Owner\n\nA. Author, B. Author et al.\n", 3),
    ],
    ids=["at-eof", "followed-by-authors", "only-record"],
)
def test_author_line_without_abstract(tmp_path: Path, text: str, line: int) -> None:
    err = _error(_write(tmp_path, text))
    assert (err.file, err.line, err.code) == ("my/dump.txt", line, Code.BAD_DUMP)
    assert "abstract" in err.message  # one code for a dump out of shape: the message says what is missing


def test_category_line_without_record(tmp_path: Path) -> None:
    text = ARXIV_OK + "\ncs.CV↗\n"
    err = _error(_write(tmp_path, text))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 15, Code.BAD_DUMP)
    assert "category" in err.message


@pytest.mark.parametrize("end", ["\n", ""], ids=["newline", "no-newline"])
def test_truncated_arxiv_block(tmp_path: Path, end: str) -> None:
    text = ARXIV_OK + "\narXiv2019" + end
    err = _error(_write(tmp_path, text))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 15, Code.BAD_DUMP)


def test_arxiv_block_with_too_many_lines(tmp_path: Path) -> None:
    text = ARXIV_OK.replace("An abstract (with a parenthesis).\n", "An abstract (one).\n\nAnother (two).\n")
    err = _error(_write(tmp_path, text))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 13, Code.BAD_DUMP)


def test_unrecognized_dump(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "\n\nThis: is not a dump.\n\nNor is this: really.\n"))
    assert (err.file, err.line, err.code) == ("my/dump.txt", 3, Code.UNKNOWN_FORMAT)


def test_missing_file(tmp_path: Path) -> None:
    err = _error(tmp_path / "nope.txt")
    assert (err.file, err.code) == ("my/dump.txt", Code.UNREADABLE)
