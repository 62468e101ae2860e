"""Bad input gets the tool's own error and loses nothing: mutated seed dumps and BibTeX."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SEEDS, SOURCES_DIR
from readinglist.errors import ReadingListError
from readinglist.render.frontmatter import check
from readinglist.render.notes import read_note
from readinglist.sources import read_dump
from readinglist.store import bibfile, importer

DUMPS = sorted(SOURCES_DIR.glob("*.txt"))
BIB = SEEDS / "refs.bib"
TOKENS = [b"\n", b"\n\n", b"{", b"}", b"@misc{x,", b"arXiv2020\n", "cs.DC↗\n".encode(), b" et al.\n", b",", b'"',
          b"\\", b"$", b"%", b"=", b" and ", b"@comment{", b"@string{a={b}}", b"\xff", b"\x00", b"\r",
          "\ufffe\uffff\u202e\x85".encode(), b"\xff\xfe", b"\xfe\xff"]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, source: bytes) -> bytes:
    data = bytearray(source)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["cut", "insert", "token", "truncate"]))
        if kind == "cut":
            del data[at : at + draw(st.integers(1, 300))]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=6))
        elif kind == "token":
            data[at:at] = draw(st.sampled_from(TOKENS))
        else:
            del data[at:]
    return bytes(data)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(st.data())
def test_mutated_dumps_parse_or_fail_cleanly(tmp_path: Path, data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(DUMPS))
    path = tmp_path / "dump.txt"
    path.write_bytes(data.draw(mutated(source.read_bytes())))
    try:
        read_dump(path, "dump.txt")
    except ReadingListError as error:
        assert error.file == "dump.txt" and error.message
        assert "\n" not in str(error)


@FUZZ
@given(st.data())
def test_mutated_bibtex_loads_or_fails_cleanly(tmp_path: Path, data: st.DataObject) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(data.draw(mutated(BIB.read_bytes())))
    try:
        bibfile.load(path).works()
    except ReadingListError as error:
        assert error.file == str(path) and error.message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_failed_import_leaves_refs_bib_untouched(tmp_path: Path, data: st.DataObject) -> None:
    bib = tmp_path / "refs.bib"
    shutil.copy(BIB, bib)
    before = bib.read_bytes()
    dumps = []
    for source in DUMPS:
        target = tmp_path / source.name
        target.write_bytes(data.draw(mutated(source.read_bytes())) if data.draw(st.booleans()) else source.read_bytes())
        dumps.append(target)
    try:
        importer.run(dumps, bib, tmp_path)
    except ReadingListError:
        assert bib.read_bytes() == before
    else:
        bibfile.load(bib).works()  # whatever was written reads back


YAML_TOKENS = ["status: ", "tags: ", "title: ", "rating: ", "added: ", "1: ", "null: ", "true: ", "~: ", "<<: ", "? ",
               "&a ", "*a", "!!binary ", "!!set ", "!!python/name:os.system", "[", "]", "{", "}", ", ", "- ", "\n",
               "\n  ", "\t", "'", '"', "#", "|", ">", "2024-05-01", "read", "3", "\ufffe", "\x01", "---"]  # fmt: skip
front_matter = st.lists(st.one_of(st.sampled_from(YAML_TOKENS), st.text(st.characters(codec="utf-8"), max_size=4)))


@FUZZ
@given(front_matter.map("".join))
def test_any_front_matter_loads_within_the_schema_or_fails_in_one_line(tmp_path: Path, front: str) -> None:
    note = tmp_path / "key.md"
    note.write_text(f"---\n{front}\n---\nBody.\n", encoding="utf-8")
    try:
        meta = read_note(note).meta
    except ReadingListError as error:
        assert error.file == str(note) and error.line is not None and "\n" not in str(error)
    else:
        assert all(isinstance(key, str) and check(key, value) is None for key, value in meta.items())
        sorted(meta.items())  # the fingerprint sorts the keys
