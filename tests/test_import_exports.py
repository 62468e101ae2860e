"""Nothing lost on import (issue 26): exporters' own types, proceedings headers, undefined
macros, clashing keys, implausible years, the full report, exit status and private paths."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import NAME_CHARS

from conftest import FIXTURES
from readinglist.cli import main
from readinglist.latex import to_text
from readinglist.model import ReadResult, Work
from readinglist.render.bibtypes import type_words
from readinglist.sources import read_source
from readinglist.sources.fields import MONTH_MACROS
from readinglist.sources.warned import Warned
from readinglist.store import bibfile, importer
from readinglist.store.report import SHOWN, plural

EXPORTS = FIXTURES / "exports"


def _project(tmp_path: Path, *names: str) -> Path:
    root = tmp_path / "project"
    (root / "conf").mkdir(parents=True)
    for name in names:
        shutil.copy(EXPORTS / name, root / name)
    return root


def _works(root: Path) -> dict[str, Work]:
    return {w.key: w for w in bibfile.load(root / "refs.bib").works()}


def test_a_mendeley_library_loses_no_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "mendeley-types.bib")
    assert main(["--root", str(root), "import", str(root / "mendeley-types.bib")]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Ten entries: nine papers, and Chen2008 twice (the same paper: merged).
    assert lines[0] == "9 added, 1 merged, 0 unchanged, 0 skipped, 2 warnings (refs.bib updated)"
    assert (
        "  merged mendeley-types.bib:45 into the new record from mendeley-types.bib:38 (identical title and year)"
        in lines
    )
    assert (
        "  warning mendeley-types.bib:31: Scales2015: duplicate key 'Scales2015' of another paper "
        "(the entry at line 22): imported as 'Scales2015b'"
    ) in lines
    assert "  warning mendeley-types.bib:71: Doe6: the year '6' is not between 1400 and " in " ".join(lines)
    works = _works(root)
    assert set(works) == {"PyTorchDocs", "Bellman1957", "Scales2015", "Scales2015b", "Chen2008", "Ortiz2019",
                          "Kim2012", "Moss2018", "Doe6"}  # fmt: skip
    assert works["Scales2015"].title != works["Scales2015b"].title
    assert works["Chen2008"].doi == "10.1000/icdm.2008.45"  # the duplicate's DOI filled in


def test_mendeley_types_map_to_standard_ones_and_stay_visible(tmp_path: Path) -> None:
    root = _project(tmp_path, "mendeley-types.bib")
    importer.run([root / "mendeley-types.bib"], root / "refs.bib", root)
    works = _works(root)
    page = works["PyTorchDocs"]
    assert (page.entry_type, page.url) == ("online", "https://pytorch.org/docs/stable/index.html")
    assert type_words(page.entry_type, False) == "Web page"
    assert ("entrysubtype", "web_page") in page.extra
    kinds = {key: (w.entry_type, dict(w.extra).get("entrysubtype", "")) for key, w in works.items()}
    assert kinds["Bellman1957"] == ("misc", "generic")
    assert kinds["Scales2015"] == ("incollection", "book_section")
    assert kinds["Chen2008"] == ("inproceedings", "conference_proceedings")
    assert kinds["Ortiz2019"] == ("thesis", "") and kinds["Kim2012"] == ("patent", "")
    assert "@online{PyTorchDocs," in (root / "refs.bib").read_text(encoding="utf-8")


def test_an_implausible_year_is_unknown_and_reported(tmp_path: Path) -> None:
    root = _project(tmp_path, "mendeley-types.bib")
    report = importer.run([root / "mendeley-types.bib"], root / "refs.bib", root)
    doe = _works(root)["Doe6"]
    assert doe.year is None and not any(name == "year" for name, _ in doe.extra)
    assert [(w.file, w.line, w.key) for w in report.warnings if "year" in w.reason] == [
        ("mendeley-types.bib", 71, "Doe6")
    ]


def test_a_csl_json_year_outside_the_range_is_unknown_and_reported(tmp_path: Path) -> None:
    source = tmp_path / "lib.json"
    items = [
        {"id": "a", "type": "article-journal", "title": "Too Early", "issued": {"date-parts": [[6]]}},
        {"id": "b", "type": "article-journal", "title": "Fine", "issued": {"date-parts": [[2019]]}},
        {"id": "c", "type": "article-journal", "title": "Too Late", "issued": {"date-parts": [[9999]]}},
    ]
    source.write_text(json.dumps(items, indent=1), encoding="utf-8")
    report = importer.run([source], tmp_path / "refs.bib", tmp_path)
    assert sorted(w.year for w in bibfile.load(tmp_path / "refs.bib").works() if w.year) == [2019]
    assert [w.key for w in report.warnings] == ["a", "c"]
    assert all(w.render().startswith("lib.json:") and "read as unknown" in w.reason for w in report.warnings)


def test_a_hand_written_implausible_year_in_refs_bib_is_unknown_and_kept(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{hand, title = {By Hand}, year = {6}}\n", encoding="utf-8")
    [work] = bibfile.load(bib).works()
    assert work.year is None and ("year", "6") in work.extra


@pytest.mark.parametrize("name", ["pmlr-proceedings.bib", "pmlr-header-only.bib"])
def test_pmlr_papers_get_the_year_and_venue_of_their_proceedings(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, name)
    assert main(["--root", str(root), "import", str(root / name)]) == 0
    out = capsys.readouterr().out
    assert "0 skipped" in out.splitlines()[0] and "CoRL-2019" not in out  # the header is no skipped paper
    works = _works(root)
    assert works and "CoRL-2019" not in works
    for work in works.values():
        assert (work.year, work.entry_type) == (2019, "inproceedings"), work.key
        assert dict(work.extra)["booktitle"] == "Proceedings of the Conference on Robot Learning"
        assert "name" not in dict(work.extra) and "conference_url" not in dict(work.extra)


def test_an_undefined_macro_keeps_the_entry_and_a_preamble_is_no_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "ieee-macros.bib")
    assert main(["--root", str(root), "import", str(root / "ieee-macros.bib")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2 added, 0 merged, 0 unchanged, 0 skipped, 1 warning (refs.bib updated)"
    assert lines[-1].startswith("  warning ieee-macros.bib:14: undefined2020: undefined @string macro 'IEEE_J_PROC'")
    assert not any("preamble" in line.lower() for line in lines)
    assert ("booktitle", r"IEEE\_J\_PROC") in _works(root)["undefined2020"].extra


def test_strict_still_fails_on_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "ieee-macros.bib")
    assert main(["--root", str(root), "import", "--strict", str(root / "ieee-macros.bib")]) == 1
    assert "(--strict: 0 skipped, 1 warning, nothing written)" in capsys.readouterr().out
    assert not (root / "refs.bib").exists()


BROKEN = "@misc{x, title = {Unbalanced {braces}, year = {2020}\n"


def test_a_file_none_of_whose_entries_imports_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "ieee-macros.bib")
    (root / "broken.bib").write_text(BROKEN + "@article{y, author = {A, B}}\n", encoding="utf-8")
    assert main(["--root", str(root), "import", str(root / "broken.bib"), str(root / "ieee-macros.bib")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("(nothing could be imported from broken.bib; nothing written)")
    assert [line for line in lines if line.startswith("  skipped")] == [
        "  skipped broken.bib:1: x: entry is never closed (unbalanced braces)",
        "  skipped broken.bib:2: y: the entry has no title",
    ]
    assert not (root / "refs.bib").exists()


def _many_broken(root: Path, n: int) -> Path:
    text = "".join(f"@misc{{bad{i}, year = {{2020}}}}\n" for i in range(n))
    path = root / "many.bib"
    path.write_text(text + "@misc{good, title = {The Good One}}\n", encoding="utf-8")
    return path


def test_the_terminal_stops_at_50_and_says_how_to_see_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    many = _many_broken(root, SHOWN + 2)
    assert main(["--root", str(root), "import", str(many)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if line.startswith("  skipped")]) == SHOWN
    assert lines[-1] == (
        "  ... and 2 more skipped entries (readinglist import --report lists them all; "
        "--report FILE writes them as JSON lines)"
    )
    assert main(["--root", str(root), "import", str(many), "--report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1] for line in lines if line.startswith("  skipped")] == [
        str(n) for n in range(1, SHOWN + 3)
    ]


def test_report_file_holds_every_entry_as_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "mendeley-types.bib")
    many = _many_broken(root, SHOWN + 1)
    out = tmp_path / "report.jsonl"
    args = ["--root", str(root), "import", "--report", str(out), str(many), str(root / "mendeley-types.bib")]
    assert main(args) == 0
    assert f"the full report (JSON lines): {out}" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["report"] == "readinglist import report"
    skipped = [(r["file"], r["line"], r["key"]) for r in rows if r.get("kind") == "skipped"]
    assert skipped == [("many.bib", n + 1, f"bad{n}") for n in range(SHOWN + 1)]
    assert {r["key"] for r in rows if r.get("kind") == "warning"} == {"Scales2015", "Doe6"}
    assert main(args) == 0  # an earlier report is the tool's own: replaced


def test_report_file_never_overwrites_a_file_a_person_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "ieee-macros.bib")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    assert main(["--root", str(root), "import", "--report", str(notes), str(root / "ieee-macros.bib")]) == 1
    err = capsys.readouterr().err
    assert "notes.txt" in err and "is not an import report" in err and len(err.splitlines()) == 1
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert not (root / "refs.bib").exists()  # refused before the import: nothing half done


# --- provenance without private paths ----------------------------------------------------------------------


def test_a_source_outside_the_project_is_named_by_its_file_name(tmp_path: Path) -> None:
    root = _project(tmp_path)
    outside = tmp_path / "elsewhere" / "private"
    outside.mkdir(parents=True)
    shutil.copy(EXPORTS / "ieee-macros.bib", outside / "lib.bib")
    shutil.copy(EXPORTS / "pmlr-proceedings.bib", root / "inside.bib")
    importer.run([outside / "lib.bib", root / "inside.bib"], root / "refs.bib", root)
    text = (root / "refs.bib").read_text(encoding="utf-8")
    assert "provenance = {lib.bib:4 {bibtex}}" in text and "provenance = {inside.bib:15 {bibtex}}" in text
    assert str(tmp_path) not in text and "elsewhere" not in text


def test_absolute_paths_stored_before_are_cleaned_and_hand_edits_kept(tmp_path: Path) -> None:
    root = _project(tmp_path, "ieee-macros.bib")
    importer.run([root / "ieee-macros.bib"], root / "refs.bib", root)
    bib = root / "refs.bib"
    old = bib.read_text(encoding="utf-8")
    inside = f"{root}/ieee-macros.bib"
    text = old.replace("{ieee-macros.bib:4 ", f"{{{inside}:4 ").replace("{ieee-macros.bib:11 ", "{/home/ann/x.bib:11 ")
    hand = "% my own comment\n@misc{mine, title = {Kept   as  I typed it}, note = jan}\n"
    bib.write_text(hand + text, encoding="utf-8")
    importer.run([root / "ieee-macros.bib"], bib, root)
    new = bib.read_text(encoding="utf-8")
    assert new.startswith(hand)
    assert "/home/ann" not in new and str(root) not in new
    assert "provenance = {ieee-macros.bib:4 {bibtex}}" in new and "provenance = {x.bib:11 {bibtex}" in new


def test_plural_forms() -> None:
    assert [plural(n, "paper") for n in (0, 1, 2, 1000)] == ["0 papers", "1 paper", "2 papers", "1,000 papers"]
    assert plural(1, "skipped entry", "skipped entries") == "1 skipped entry"


# --- the reader, entry by entry -----------------------------------------------------------------------------


def _read(tmp_path: Path, text: str) -> ReadResult:
    path = tmp_path / "lib.bib"
    path.write_text(text, encoding="utf-8")
    return read_source(path, "lib.bib")


def test_mendeley_reference_manager_web_page_without_a_key(tmp_path: Path) -> None:
    text = (
        "@web_page{,\n   author = {Marc Longa},\n   month = {2},\n   title = {Power Demand Forecast},\n"
        "   url = {https://example.org/forecast},\n   year = {2023},\n}\n"
    )
    [record] = _read(tmp_path, text).records
    assert (record.entry_type, record.url, record.year) == ("online", "https://example.org/forecast", 2023)
    assert dict(record.fields)["month"] == "February" and dict(record.fields)["entrysubtype"] == "web_page"


def test_an_untitled_proceedings_no_paper_uses_is_skipped_as_untitled(tmp_path: Path) -> None:
    text = "@proceedings{p1, booktitle = {One}, year = {2019}}\n@proceedings{p2, booktitle = {Two}, year = {2020}}\n"
    result = _read(tmp_path, text)
    assert not result.records and [(s.line, s.key, s.reason) for s in result.skipped] == [
        (1, "p1", "the entry has no title"), (2, "p2", "the entry has no title")
    ]  # fmt: skip


def test_a_style_control_entry_is_no_entry(tmp_path: Path) -> None:
    result = _read(tmp_path, "@IEEEtranBSTCTL{IEEEexample:BSTcontrol, CTLuse_article_number = {yes}}\n")
    assert (result.records, result.skipped) == ((), ())


# LaTeX's own ligatures aside ("!`" is ¡, "--" a dash): text, as LaTeX would typeset it, not markup.
MACRO_NAMES = st.text(st.sampled_from(NAME_CHARS.translate({ord(c): None for c in "\x7f`-"})), min_size=1, max_size=12)
MACRO_NAMES = MACRO_NAMES.filter(lambda n: n[0].isalpha() and n.lower() not in MONTH_MACROS)


@given(MACRO_NAMES)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
def test_an_undefined_macro_is_its_name_as_text_never_markup(tmp_path: Path, name: str) -> None:
    [record] = _read(tmp_path, f"@article{{k, title = {{T}}, journal = {name}, year = 2020}}\n").records
    value = dict(record.fields)["journal"]
    assert to_text(value).replace("ˆ", "^") == name
    assert not re.search(r"(?<!\\)[$&_%#]", value)  # every LaTeX special escaped


KEYS = st.sampled_from(["Chen2008", "chen2008", "Chen2008b", "Scales2015"])
TITLES = st.sampled_from(["Mining graphs", "Mining Graphs", "Sparse kernels", "Deep nets"])


@given(st.lists(st.tuples(KEYS, TITLES), min_size=1, max_size=8))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
def test_every_entry_with_a_title_is_read_under_a_key_of_its_own(
    tmp_path: Path, entries: list[tuple[str, str]]
) -> None:
    text = "".join(f"@article{{{key}, title = {{{title}}}, year = {{2020}}}}\n" for key, title in entries)
    result = _read(tmp_path, text)
    assert len(result.records) == len(entries)
    keys = [r.key.lower() for r in result.records]
    assert len(set(keys)) == len(keys)
    assert not [s for s in result.skipped if not isinstance(s, Warned)]


def test_private_free_names_each_stored_path_without_its_folders(tmp_path: Path) -> None:
    from readinglist.model import SourceRef
    from readinglist.store.provenance import private_free

    root = tmp_path / "list"
    files = [f"{root}/conf/sources/a.bib", "/home/ann/lib.bib", "/home/bob/lib.bib", r"C:\Users\ann\x.bib",
             "../up/y.bib", "~/z.bib", "conf/sources/kept.bib", "arXiv:2101.00001"]  # fmt: skip
    work = Work("k", "T", sources=tuple(SourceRef(f, 5) for f in files))
    assert [s.file for s in private_free(work, root).sources] == [
        "conf/sources/a.bib", "lib.bib", "x.bib", "y.bib", "z.bib", "conf/sources/kept.bib", "arXiv:2101.00001"
    ]  # fmt: skip
    clean = Work("k", "T", sources=(SourceRef("mine.bib", 1),))
    assert private_free(clean, root) is clean


def test_no_reader_lets_an_implausible_year_through() -> None:
    from readinglist.model import RawRecord, SourceRef
    from readinglist.sources import plausible_years

    records = tuple(RawRecord(SourceRef("dump.txt", n), title="T", year=year) for n, year in ((1, 6), (4, 2019)))
    result = plausible_years(ReadResult(records))
    assert [r.year for r in result.records] == [None, 2019]
    [warning] = result.skipped
    assert isinstance(warning, Warned) and warning.render().startswith("dump.txt:1: (no key): the year 6 is not")


def test_a_broken_preamble_is_a_warning_not_a_skipped_entry(tmp_path: Path) -> None:
    text = '@preamble{"\\newcommand{\\foo}{"}\n@PREAMBLE( "\\def\\x{y}" )\n@article{a, title = {A}, year = 2020}\n'
    result = _read(tmp_path, text)
    assert [r.key for r in result.records] == ["a"]
    [warning] = result.skipped
    assert isinstance(warning, Warned) and warning.render().startswith("lib.bib:1: @preamble: ")
