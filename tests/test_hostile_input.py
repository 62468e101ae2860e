"""Hostile input files (issue 9): characters no page may hold, notes' front matter, topic ids, odd dumps.

Every test here failed on the code before the fix: U+FFFE in a record broke every build
(``Malformed YAML``), a note's ``1: one`` was a TypeError and an alias bomb ran out of memory,
a topic id ``index`` overwrote the topics index, a UTF-16 dump was "binary data", a FIFO in
conf/sources/ blocked the import for ever, and unreadable files were tracebacks.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from docutils import nodes
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser as BibParser

from hostile_kit import dump_record, records_project, render, sphinx_build
from readinglist.chars import strip_unsafe
from readinglist.config import Config, load_config
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.errors import Code, ReadingListError
from readinglist.latex import dump_to_latex
from readinglist.render.escape import clean, fence, md_text
from readinglist.render.links import json_string
from readinglist.render.notes import read_note
from readinglist.site import generate
from readinglist.sources import read_dump
from readinglist.store.identity import load_rules

# Every code point, surrogates (Cs), private use (Co) and unassigned (Cn) included.
ANY_CHAR = st.characters(codec=None, categories=None, exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=40)
NASTY = "\ud800\ufffe\uffff\U0001fffe\U0010ffff\ufdd0\x85\x7f\x01\u202e\u200b\ufeff\ue000\U000e0001\u0378"
STRANGE = st.lists(st.one_of(ANY_TEXT, st.sampled_from(list(NASTY))), max_size=6).map("".join)


def is_unsafe(char: str) -> bool:
    """The policy of chars.py, written out independently of its regular expression."""
    cp = ord(char)
    control = (cp < 0x20 and char not in "\t\n\r") or 0x7F <= cp <= 0x9F
    noncharacter = 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE
    invisible = 0x200B <= cp <= 0x200F or 0x202A <= cp <= 0x202E or 0x2060 <= cp <= 0x2069 or cp == 0xFEFF
    return control or noncharacter or invisible or 0xD800 <= cp <= 0xDFFF


def front_matter(page: str) -> object:
    """The YAML between a page's opening ``---`` lines (None when it has none), as MyST reads it."""
    if not page.startswith("---\n"):
        return None
    return yaml.safe_load(page[4 : page.index("\n---\n", 4)])


# --- 1. one character policy, input and output -------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(STRANGE)
@example(NASTY)
def test_policy_removes_exactly_the_unsafe_characters(text: str) -> None:
    assert strip_unsafe(text) == "".join(c for c in text if not is_unsafe(c))


@settings(max_examples=300, deadline=None)
@given(STRANGE)
@example("Title \ufffe x")
def test_output_values_hold_no_unsafe_character_and_front_matter_parses(text: str) -> None:
    for out in (md_text(text), clean(text), fence(text), json_string(text), dump_to_latex(text)):
        assert not any(is_unsafe(c) for c in out)
    assert yaml.safe_load(f"description: {json_string(text)}") == {"description": clean(text)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STRANGE)
def test_escaped_text_renders_as_plain_text_in_myst(text: str) -> None:
    doc, warnings = render(f"---\ndescription: {json_string(text)}\n---\n\n{md_text(text)}\n")
    assert warnings == ""
    shown = [p.astext() for p in doc.findall(nodes.paragraph)]  # the description's and the body's
    assert shown == [clean(text)] * len(shown) and (shown or not clean(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(STRANGE, st.sampled_from(["`", "``", "\n", "\ufffe", "\x01"])), max_size=8).map("".join))
@example("x\n``\ufffe``\ny")
@example("x\n``\x01``\ny")
def test_a_fenced_block_holds_its_text_whatever_characters_are_dropped(text: str) -> None:
    doc, warnings = render(fence(text, "text"))
    blocks = list(doc.findall(nodes.literal_block))
    assert warnings == "" and len(blocks) == 1
    assert blocks[0].astext().split() == strip_unsafe(text).split()


def _bib_text(text: str) -> str:
    """Text as a person could type it into a braced BibTeX field (a file holds no surrogates)."""
    return "".join(c for c in text if c not in "{}\\@%" and not 0xD800 <= ord(c) <= 0xDFFF)


def _hand_typed_bib(fields: list[tuple[str, str, str]]) -> str:
    return "".join(
        f"@misc{{hand{n},\n  title = {{T{n} {_bib_text(t)}}},\n  author = {{Ann {_bib_text(a)} Lee}},\n"
        f"  abstract = {{{_bib_text(b)}}},\n  year = {{2020}},\n}}\n\n"
        for n, (t, b, a) in enumerate(fields)
    )


@settings(
    max_examples=25,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(STRANGE, STRANGE, STRANGE), min_size=1, max_size=3))
@example([(NASTY, NASTY, NASTY)])
def test_generated_pages_from_a_hand_typed_bib_hold_no_unsafe_character(
    tmp_path_factory: pytest.TempPathFactory, fields: list[tuple[str, str, str]]
) -> None:
    root = records_project(tmp_path_factory.mktemp("bib"), [])
    (root / "refs.bib").write_text(_hand_typed_bib(fields), encoding="utf-8")
    generate.run(load_config(root))
    for page in (root / "docs").rglob("*"):
        if page.suffix in {".md", ".bib", ".json"}:  # what render/ writes, and records.json
            text = page.read_text(encoding="utf-8")
            assert not any(is_unsafe(c) for c in text), page
            if page.suffix == ".md":
                front_matter(text)  # parses
    json.loads((root / "docs" / "records.json").read_text(encoding="utf-8"))
    BibParser().parse_string((root / "docs" / "bibliography.bib").read_text(encoding="utf-8"))


def test_sphinx_builds_records_with_noncharacters_from_dumps_and_bibtex(tmp_path: Path) -> None:
    """The repro: U+FFFE or U+FFFF in any record text failed every build with ``Malformed YAML``."""
    records = [dump_record(0, f"Dump {NASTY} title", f"Abstract {NASTY} text.", "Ann Lee")]
    root = records_project(tmp_path, records)
    with (root / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write(_hand_typed_bib([(NASTY, NASTY, NASTY)]))
    status, warnings, html = sphinx_build(root)
    assert (status, warnings) == (0, "")
    assert "Dump" in (html / "papers" / "hostile0.html").read_text(encoding="utf-8")
    assert (html / "papers" / "hand0.html").is_file()


SPHINX_FEW = settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink would rebuild the site many times
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SPHINX_FEW
@given(st.lists(st.tuples(STRANGE, STRANGE), min_size=1, max_size=3))
def test_sphinx_builds_any_unicode_dump_text(
    tmp_path_factory: pytest.TempPathFactory, batch: list[tuple[str, str]]
) -> None:
    records = [dump_record(n, f"T{n} {title}", abstract, "Ann Lee") for n, (title, abstract) in enumerate(batch)]
    status, warnings, _ = sphinx_build(records_project(tmp_path_factory.mktemp("prop"), records))
    assert (status, warnings) == (0, "")


# --- 2. notes' front matter -------------------------------------------------------------------

LEVELS = "abcdefghi"  # nine levels of nine aliases: 9**9 strings once constructed, from a few hundred bytes
BOMB = "a: &a [" + ",".join(['"x"'] * 9) + "]\n"
BOMB += "".join(f"{b}: &{b} [" + ",".join([f"*{a}"] * 9) + "]\n" for a, b in itertools.pairwise(LEVELS))


@pytest.mark.parametrize(
    ("front", "line", "words"),
    [
        ("status: read\n1: one", 3, "key '1' must be a string"),
        ("null: x", 2, "key 'null' must be a string"),
        (BOMB, 2, "aliases"),
        ("status: done", 2, "'status': must be one of"),
        ("tags: [a, 2020]", 2, "'tags': must be a list of strings"),
        ("tags: pipelines", 2, "'tags': must be a list of strings"),
        ("status: read\ntitle: [a, b]", 3, "'title': must be a string"),
        ("rating: 7", 2, "'rating': must be a whole number from 1 to 5"),
        ("rating: true", 2, "'rating'"),
        ("priority: 1.5", 2, "'priority'"),
        ("added: last week", 2, "'added': must be a date"),
        ("mine: {a: 1}", 2, "'mine': must be text, a number"),
        ("title: a\ntitle: b", 3, "appears twice"),
        ("status: read\ntags: [a, b\ntitle: x", 4, "invalid front matter: expected ',' or ']'"),
        ("x: !!python/object/apply:os.system [ls]", 2, "invalid front matter"),
        ("x: " + "[" * 3000 + "]" * 3000, 2, "nested too deeply"),
        ("- a\n- b", 2, "must be a mapping"),
    ],
)
def test_bad_front_matter_is_one_line_naming_the_note_and_line(
    tmp_path: Path, front: str, line: int, words: str
) -> None:
    note = tmp_path / "key.md"
    note.write_text(f"---\n{front}\n---\nBody.\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_note(note)
    assert (info.value.file, info.value.line, info.value.code) == (str(note), line, Code.BAD_FRONT_MATTER)
    assert words in info.value.message  # one code for every front-matter problem: the message tells which
    assert "\n" not in str(info.value)


@pytest.fixture
def noted(tmp_path: Path) -> Config:
    """A one-paper project with a notes folder."""
    root = records_project(tmp_path, [dump_record(0, "Title", "Abstract.", "Ann Lee")])
    (root / "docs" / "notes").mkdir()
    return load_config(root)


def test_generate_reports_a_non_string_key_instead_of_a_type_error(noted: Config) -> None:
    note = noted.notes_path / "hostile0.md"
    valid = "status: to-read\ntags: [a, b]\ntitle: Mine\nrating: 5\npriority: high\nadded: 2024-05-01\nmine: [1, x]"
    note.write_text(f"---\n{valid}\n---\nBody.\n", encoding="utf-8")
    generate.run(noted)
    page = (noted.docs_path / "papers" / "hostile0.md").read_text(encoding="utf-8")
    assert "# Mine" in page and "{bdg-warning}`To read`" in page
    note.write_text("---\n1: one\nnull: x\n---\nBody.\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        generate.run(noted)
    shown = f"{noted.notes_path / 'hostile0.md'}:2: front matter key '1' must be a string (quote it)"
    assert str(info.value) == f"{shown} [readinglist.bad-front-matter]"  # the whole line the user sees


def test_plain_sphinx_build_names_the_note(noted: Config) -> None:
    (noted.notes_path / "hostile0.md").write_text("---\n1: one\n---\nBody.\n", encoding="utf-8")
    docs = str(noted.docs_path)
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", docs, str(noted.root / "html")],
        capture_output=True,
        text=True,
    )
    assert build.returncode != 0
    assert f"{noted.notes_path / 'hostile0.md'}:2: front matter key '1' must be a string" in build.stderr


def _refuse_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests may run as root, where chmod 000 does not stop a read: fail every way of opening instead."""

    def denied(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    monkeypatch.setattr(Path, "open", denied)


def test_unreadable_note_is_one_line(noted: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    note = noted.notes_path / "hostile0.md"
    note.write_text("Body.\n", encoding="utf-8")
    _refuse_open(monkeypatch)
    with pytest.raises(ReadingListError) as info:
        read_note(note)
    assert str(info.value) == f"{note}: cannot read file: Permission denied [readinglist.unreadable]"


def test_a_note_that_is_a_fifo_is_refused(noted: Config) -> None:
    os.mkfifo(noted.notes_path / "hostile0.md")
    with pytest.raises(ReadingListError) as info:
        _without_hanging(lambda: read_note(noted.notes_path / "hostile0.md"))
    assert info.value.code == Code.UNREADABLE


# --- 3. topic ids and unreadable conf/*.toml ------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "line", "code"),
    [
        (['"index"'], 3, Code.BAD_TOPIC_ID),
        (['"ml"', '"Vision"'], 8, Code.BAD_TOPIC_ID),
        (['"a_b"'], 3, Code.BAD_TOPIC_ID),
        (['"a--b"'], 3, Code.BAD_TOPIC_ID),
        (['"-a"'], 3, Code.BAD_TOPIC_ID),
        (['"caf\u00e9"'], 3, Code.BAD_TOPIC_ID),
        (['"../x"'], 3, Code.BAD_TOPIC_ID),
        (['"' + "a" * 65 + '"'], 3, Code.BAD_TOPIC_ID),
        (["12"], 3, Code.BAD_TOPICS),  # a field of the wrong type, as a title would be
        (['"ml"', '"vision"', '"ml"'], 13, Code.BAD_TOPIC_ID),
    ],
)
def test_topic_ids_are_checked_with_the_line_of_the_id(tmp_path: Path, ids: list[str], line: int, code: Code) -> None:
    path = tmp_path / "topics.toml"
    path.write_text("\n".join(f'[[topic]]\n\nid = {i}\ntitle = "T"\n' for i in ids), encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        load_taxonomy(path)
    assert (info.value.file, info.value.line, info.value.code) == (str(path), line, code)


def test_topic_without_an_id_names_its_header(tmp_path: Path) -> None:
    path = tmp_path / "topics.toml"
    path.write_text('[[topic]]\nid = "a"\ntitle = "A"\n\n[[topic]]\ntitle = "B"\n', encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        load_taxonomy(path)
    assert (info.value.line, info.value.code) == (5, Code.BAD_TOPICS)


def test_topic_index_no_longer_overwrites_the_topics_index(noted: Config) -> None:
    noted.taxonomy_path.write_text('[[topic]]\nid = "index"\ntitle = "Index"\n', encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        generate.run(noted)
    assert (info.value.file, info.value.line, info.value.code) == (str(noted.taxonomy_path), 2, Code.BAD_TOPIC_ID)
    assert not (noted.docs_path / "topics").exists()


def _conf_loaders(root: Path) -> list[tuple[Path, object]]:
    conf = root / "conf"
    for name in ("readinglist.toml", "topics.toml", "identity.toml"):
        if not (conf / name).exists():
            (conf / name).write_text("", encoding="utf-8")
    return [
        (conf / "readinglist.toml", lambda: load_config(root)),
        (conf / "topics.toml", lambda: load_taxonomy(conf / "topics.toml")),
        (conf / "identity.toml", lambda: load_rules(conf / "identity.toml")),
    ]


@pytest.mark.parametrize("data", ["site = 3\n", "topic = 3\n", "topic = [3]\n", "same = 3\n"])
def test_conf_tables_of_the_wrong_shape_are_errors(noted: Config, data: str) -> None:
    for path, load in _conf_loaders(noted.root):
        path.write_text(data, encoding="utf-8")
        try:
            load()  # type: ignore[operator]
        except ReadingListError as error:
            assert error.file == str(path) and "\n" not in str(error)
            assert error.code in {Code.BAD_CONFIG, Code.BAD_TOPICS, Code.BAD_IDENTITY}


def test_unreadable_conf_files_are_one_line_errors(noted: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(self: Path, *args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    loaders = _conf_loaders(noted.root)
    monkeypatch.setattr(Path, "read_text", denied)
    for path, load in loaders:
        with pytest.raises(ReadingListError) as info:
            load()  # type: ignore[operator]
        assert str(info.value) == f"{path}: cannot read file: Permission denied [readinglist.unreadable]"


@pytest.mark.parametrize(
    ("data", "line"),
    [(b"a = 1\nb = [\n", 2), (b"a = 1\nb = ]\n", 2), (b'a = "\xff"\n', 1)],
    ids=["at-end", "syntax", "latin1"],
)
def test_bad_toml_is_one_line_with_its_line(noted: Config, data: bytes, line: int) -> None:
    for path, load in _conf_loaders(noted.root):
        path.write_bytes(data)
        with pytest.raises(ReadingListError) as info:
            load()  # type: ignore[operator]
        code = Code.NOT_UTF8 if b"\xff" in data else Code.BAD_TOML
        assert (info.value.file, info.value.line, info.value.code) == (str(path), line, code)
        assert "\n" not in str(info.value)


# --- 4. dumps: byte-order marks, non-regular files --------------------------------------------------

PAIRS = "Ada Owner\n\nA. Author, B. Author et al.\n\nAn abstract about caf\u00e9s \U0001d400.\n"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_dumps_with_a_bom_are_decoded(tmp_path: Path, codec: str) -> None:
    bom = {"utf-16-le": "\ufeff", "utf-16-be": "\ufeff", "utf-32-le": "\ufeff", "utf-32-be": "\ufeff"}.get(codec, "")
    wide, plain = tmp_path / "wide.txt", tmp_path / "plain.txt"
    wide.write_bytes((bom + PAIRS.replace("\n", "\r\n")).encode(codec))
    plain.write_text(PAIRS, encoding="utf-8")
    assert read_dump(wide, "x.txt") == read_dump(plain, "x.txt")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_named(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes(PAIRS.encode(codec))
    with pytest.raises(ReadingListError, match="UTF-16 without a byte-order mark") as info:  # the hint is the point
        read_dump(path, "x.txt")
    assert (info.value.line, info.value.code) == (1, Code.BINARY_FILE)


def test_truncated_utf16_dump_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes(PAIRS.encode("utf-16") + b"\x41")
    with pytest.raises(ReadingListError, match="not valid UTF-16") as info:  # names the encoding the BOM declared
        read_dump(path, "x.txt")
    assert (info.value.line, info.value.code) == (6, Code.NOT_UTF8)


def test_dump_of_only_unsafe_characters_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "dump.txt"
    path.write_text("\ufffe\n\x1c\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_dump(path, "x.txt")
    assert info.value.code == Code.EMPTY_FILE


def _without_hanging(call: object) -> None:
    """Run ``call``; a read that would block for ever fails the test instead of hanging the suite."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()  # type: ignore[operator]
            outcome.append(None)
        except BaseException as exc:  # handed back to the test's thread
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    assert outcome, "the read blocked"
    if outcome[0] is not None:
        raise outcome[0]


def test_fifo_among_the_sources_is_skipped_and_refused(tmp_path: Path) -> None:
    sources = tmp_path / "conf" / "sources"
    sources.mkdir(parents=True)
    (sources / "a.txt").write_text(PAIRS, encoding="utf-8")
    os.mkfifo(sources / "b.txt")
    (sources / "c.txt").mkdir()
    assert Config(root=tmp_path).source_paths() == [sources / "a.txt"]
    with pytest.raises(ReadingListError) as info:
        _without_hanging(lambda: read_dump(sources / "b.txt", "b.txt"))
    assert str(info.value) == "b.txt: not a regular file (a FIFO): cannot read it [readinglist.unreadable]"
    with pytest.raises(ReadingListError, match=re.escape("not a regular file (a directory)")) as info:  # says which
        read_dump(sources / "c.txt", "c.txt")
    assert info.value.code == Code.UNREADABLE
