"""refs.bib as the store: importing the seeds, merging, re-importing, hand edits, round trips and errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pybtex.database.input.bibtex import Parser

from conftest import SEEDS, SOURCES_DIR, seed_paths
from readinglist.cli import main
from readinglist.errors import Code, ReadingListError
from readinglist.latex import to_text
from readinglist.model import SourceRef, Work
from readinglist.sources import read_dump
from readinglist.store import bibfile, importer
from readinglist.store.report import ImportReport

JUN, WEI, XIN = "conf/sources/jun-yang.txt", "conf/sources/wei-lin.txt", "conf/sources/xin-liu.txt"


def _import(bib: Path, sources: list[Path] | None = None, root: Path = SEEDS) -> ImportReport:
    return importer.run(seed_paths() if sources is None else sources, bib, root)


def _refs(sources: tuple[SourceRef, ...] | list[SourceRef]) -> list[tuple[str, int, str]]:
    """Sources as (file, line, owner), sorted: owners compared too, whatever SourceRef.__eq__ does."""
    return sorted((s.file, s.line, s.owner) for s in sources)


def _dump_line(label: str, number: int) -> str:
    return (SEEDS / label).read_text(encoding="utf-8").split("\n")[number - 1]


def _by_title(works: list[Work], title: str) -> Work:
    found = [w for w in works if to_text(w.title) == title]
    assert len(found) == 1, [to_text(w.title) for w in works]
    return found[0]


# --- importing the seeds -----------------------------------------------------------------------


def test_fresh_import_counts(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    report = _import(bib)
    assert (report.added, report.merged, report.unchanged, report.written) == (28, 2, 0, True)
    assert len(bibfile.load(bib).works()) == 28


def test_every_record_lands_in_exactly_one_work(seed_bib: Path) -> None:
    records = [r for path in seed_paths() for r in read_dump(path, path.relative_to(SEEDS).as_posix())]
    assert len(records) == 30
    provenance = [s for w in bibfile.load(seed_bib).works() for s in w.sources]
    assert _refs(provenance) == _refs([r.source for r in records])


@pytest.mark.parametrize(
    ("title", "jun_line", "wei_line", "authors", "year", "categories"),
    [
        (
            "Characterizing Deep Learning Training Workloads on Alibaba-PAI",
            15,
            57,
            ("Mengdi Wang", "Chen Meng", "Guoping Long"),
            2019,
            ("cs.PF",),
        ),
        (
            "Graph-Adaptive Pruning for Efficient Inference of Convolutional Neural Networks",
            23,
            121,
            ("Mengdi Wang", "Qing Zhang", "Jun Yang"),
            2018,
            ("cs.CV",),
        ),
    ],
    ids=["alibaba-pai", "graph-adaptive-pruning"],
)
def test_merged_work_is_the_union_of_both_records(
    seed_bib: Path,
    title: str,
    jun_line: int,
    wei_line: int,
    authors: tuple[str, ...],
    year: int,
    categories: tuple[str, ...],
) -> None:
    # The expected values are read off the dumps: Jun Yang's record gives the author line,
    # Wei Lin's arXiv block gives the title, year and category.
    assert _dump_line(JUN, jun_line) == ", ".join(authors) + " et al."
    assert _dump_line(WEI, wei_line) == f"arXiv{year}"
    assert _dump_line(WEI, wei_line + 2) == title
    work = _by_title(bibfile.load(seed_bib).works(), title)
    assert _refs(work.sources) == [(JUN, jun_line, "Jun Yang"), (WEI, wei_line, "Wei Lin")]
    assert work.authors == authors and work.et_al is True
    assert work.year == year
    assert work.categories == categories
    assert work.title_inferred is False
    assert to_text(work.abstract) == _dump_line(JUN, jun_line + 2) == _dump_line(WEI, wei_line + 4)


def test_only_the_two_duplicates_are_merged(seed_bib: Path) -> None:
    multi = [w for w in bibfile.load(seed_bib).works() if len(w.sources) > 1]
    assert sorted(to_text(w.title) for w in multi) == [
        "Characterizing Deep Learning Training Workloads on Alibaba-PAI",
        "Graph-Adaptive Pruning for Efficient Inference of Convolutional Neural Networks",
    ]


def test_fusionstitching_papers_stay_three_works(seed_bib: Path) -> None:
    works = [w for w in bibfile.load(seed_bib).works() if "FusionStitching" in to_text(w.abstract)]
    assert len(works) == 3
    assert len({w.key for w in works}) == 3
    assert sorted(_refs(w.sources) for w in works) == [
        [(JUN, 7, "Jun Yang")],
        [(WEI, 41, "Wei Lin")],
        [(WEI, 129, "Wei Lin")],
    ]


def test_untitled_records_get_an_inferred_title_and_owner_attribution(seed_bib: Path) -> None:
    works = bibfile.load(seed_bib).works()
    xin = [w for w in works if any(s.file == XIN for s in w.sources)]
    assert len(xin) == 6
    assert all(w.title_inferred and w.title and w.year is None for w in xin)
    # Wei Lin's records list no authors: the profile owner is the known author, the rest unknown.
    dapple = _by_title(works, "DAPPLE: A Pipelined Data Parallel Approach for Training Large Models")
    assert (dapple.authors, dapple.et_al) == (("Wei Lin",), True)


def test_keys_are_unique_and_safe(seed_bib: Path) -> None:
    from readinglist.slugs import is_safe

    keys = [w.key for w in bibfile.load(seed_bib).works()]
    assert len({k.lower() for k in keys}) == len(keys) == 28
    assert all(is_safe(k) for k in keys), keys


# --- re-importing ------------------------------------------------------------------------------


def test_reimport_changes_nothing(seed_bib: Path) -> None:
    before = seed_bib.read_bytes()
    keys = list(bibfile.load(seed_bib).entries)
    mtime = seed_bib.stat().st_mtime_ns
    report = _import(seed_bib)
    assert (report.added, report.merged, report.unchanged, report.written) == (0, 0, 30, False)
    assert seed_bib.read_bytes() == before
    assert seed_bib.stat().st_mtime_ns == mtime
    assert list(bibfile.load(seed_bib).entries) == keys


def test_keys_survive_later_imports(tmp_path: Path) -> None:
    """Keys are chosen once: importing more dumps later never renames an existing entry."""
    bib = tmp_path / "refs.bib"
    _import(bib, [SOURCES_DIR / "jun-yang.txt"])
    first = {w.key: _refs(w.sources)[0] for w in bibfile.load(bib).works()}
    report = _import(bib)
    assert (report.added, report.merged, report.unchanged) == (22, 2, 6)
    after = {w.key: _refs(w.sources) for w in bibfile.load(bib).works()}
    assert len(after) == 28
    for key, source in first.items():
        assert source in after[key]


def _content(works: list[Work]) -> list[tuple[object, ...]]:
    return sorted(
        (
            to_text(w.title),
            w.title_inferred,
            w.authors,
            w.et_al,
            w.year,
            w.abstract,
            w.categories,
            tuple(_refs(w.sources)),
        )
        for w in works
    )


@pytest.mark.parametrize("how", ["reversed", "one-at-a-time"])
def test_merge_does_not_depend_on_import_order(tmp_path: Path, seed_bib: Path, how: str) -> None:
    other = tmp_path / "other.bib"
    if how == "reversed":
        _import(other, list(reversed(seed_paths())))
    else:
        for path in reversed(seed_paths()):
            _import(other, [path])
    assert _content(bibfile.load(other).works()) == _content(bibfile.load(seed_bib).works())


# --- round trips -------------------------------------------------------------------------------


def test_render_without_changes_is_identity(seed_bib: Path) -> None:
    text = seed_bib.read_text(encoding="utf-8")
    assert bibfile.load(seed_bib).to_bibtex({}, []) == text


def test_render_keeps_comments_and_odd_formatting(tmp_path: Path) -> None:
    text = (
        "% a comment before everything\n"
        "@string{jt = {Journal of Tests}}\n\n"
        '@ARTICLE{odd2020,\n    Title={Odd   spacing},author="Doe, J.",\n journal = jt, year=2020}\n'
        "free text between entries\n"
        "@misc(paren2021, title = {Parens})\n"
    )
    path = tmp_path / "refs.bib"
    path.write_text(text, encoding="utf-8")
    store = bibfile.load(path)
    assert set(store.entries) == {"odd2020", "paren2021"}
    assert store.to_bibtex({}, []) == text


def test_a_windows_refs_bib_keeps_its_line_endings(tmp_path: Path) -> None:
    """A refs.bib saved with CRLF (Windows editors, git's autocrlf) was written back with LF: every
    line changed, the user's untouched entries included."""
    mine = "% my list\r\n@article{mine2020,\r\n  title = {Mine},\r\n  author = {Doe, Jane},\r\n  year = {2020}\r\n}\r\n"
    bib = tmp_path / "refs.bib"
    bib.write_bytes(mine.encode())
    report = _import(bib, [SEEDS / JUN])
    after = bib.read_bytes()
    assert report.added > 0 and report.written
    assert after.startswith(mine.encode())  # the untouched entry, byte for byte
    assert after.count(b"\n") == after.count(b"\r\n")  # every new line ends as the file's do
    assert "mine2020" in bibfile.load(bib).entries
    again = _import(bib, [SEEDS / JUN])
    assert not again.written and bib.read_bytes() == after


def test_a_merge_adds_fields_without_rewriting_the_entry(tmp_path: Path) -> None:
    """Merging a DBLP record into a hand-written entry re-serialized the entry: its @string macros
    and month macro became literal text and its layout was lost. Now new fields are added last."""
    mine = (
        "@string{jt = {Journal of Tests}}\n\n"
        "@Article{mine2020,\n    Title = {Sparse Widgets for Dense Gadgets},\n    Author = {Doe, Jane},\n"
        "    Journal = jt, month = jan,\n    Year = 2020\n}\n"
    )
    bib = tmp_path / "refs.bib"
    bib.write_text(mine, encoding="utf-8")
    dblp = tmp_path / "dblp.bib"
    dblp.write_text(
        "@article{DBLP:journals/jt/Doe20,\n  author = {Jane Doe},\n  title = {Sparse Widgets for Dense Gadgets},\n"
        "  journal = {Journal of Tests},\n  year = {2020},\n  doi = {10.5555/widgets.2020}\n}\n",
        encoding="utf-8",
    )
    report = importer.run([dblp], bib, tmp_path)
    text = bib.read_text(encoding="utf-8")
    assert (report.added, report.merged) == (0, 1)
    assert text.startswith(mine.rstrip("\n").removesuffix("}").rstrip())  # every byte up to the last field
    assert "Journal = jt, month = jan," in text
    entry = bibfile.load(bib).entries["mine2020"]
    assert entry.fields["doi"] == "10.5555/widgets.2020"
    assert entry.fields["journal"] == "Journal of Tests"  # the macro still expands


def test_works_survive_entry_round_trip(seed_bib: Path) -> None:
    works = bibfile.load(seed_bib).works()
    text = "\n".join(bibfile.format_entry(w.key, bibfile.work_to_entry(w)) for w in works)
    parsed = Parser().parse_string(text)
    again = [bibfile.entry_to_work(key, entry) for key, entry in parsed.entries.items()]
    assert again == works
    assert [_refs(w.sources) for w in again] == [_refs(w.sources) for w in works]


def test_work_round_trip_keeps_every_model_field() -> None:
    work = Work(
        key="doe2020x",
        title="{X}: A Title",
        title_inferred=True,
        authors=("Jane Doe", "John Q. Public"),
        et_al=True,
        year=2020,
        abstract="An abstract with 50\\% and $x^2$.",
        categories=("cs.LG", "stat.ML"),
        eprint="2001.00001",
        sources=(SourceRef("a.txt", 3, "Ann Owner"), SourceRef("b/c.txt", 10, "")),
    )
    text = bibfile.format_entry(work.key, bibfile.work_to_entry(work))
    [(key, entry)] = Parser().parse_string(text).entries.items()
    again = bibfile.entry_to_work(key, entry)
    assert again == work
    assert _refs(again.sources) == _refs(work.sources)


# --- hand edits --------------------------------------------------------------------------------


def _entry_text(text: str, key: str) -> str:
    """The bytes of one entry as the tool writes it (``@type{key,`` to the closing line)."""
    start = text.rindex("@", 0, text.index("{" + key + ",\n"))
    return text[start : text.index("\n}\n", start) + 3]


def test_hand_edits_survive_reimport(seed_bib: Path) -> None:
    text = seed_bib.read_text(encoding="utf-8")
    works = bibfile.load(seed_bib).works()
    dapple = _by_title(works, "DAPPLE: A Pipelined Data Parallel Approach for Training Large Models")
    untitled = next(w for w in works if w.title_inferred)
    other = next(w for w in works if w.key not in {dapple.key, untitled.key} and not w.title_inferred)

    # 1. a new title for an arXiv record; 2. a title for a record whose title was inferred;
    # 3. a field of my own; 4. a comment line between two entries.
    edited = text.replace(f"  title = {{{dapple.title}}},", "  title = {DAPPLE, as I call it},", 1)
    old = _entry_text(edited, untitled.key)
    new = old.replace(f"  title = {{{untitled.title}}},", "  title = {My Own Title},", 1)
    assert new != old
    edited = edited.replace(old, new, 1)
    old = _entry_text(edited, other.key)
    edited = edited.replace(old, old.replace("\n}\n", "\n  note = {mine},\n}\n"), 1)
    edited = edited.replace(f"\n\n@misc{{{other.key},", f"\n% my comment between entries\n\n@misc{{{other.key},", 1)
    assert edited.count("note = {mine}") == 1 and "% my comment" in edited and "My Own Title" in edited
    seed_bib.write_text(edited, encoding="utf-8")

    report = _import(seed_bib)
    assert seed_bib.read_text(encoding="utf-8") == edited
    assert (report.added, report.merged, report.unchanged, report.written) == (0, 0, 30, False)
    loaded = {w.key: w for w in bibfile.load(seed_bib).works()}
    assert loaded[dapple.key].title == "DAPPLE, as I call it"
    assert (loaded[untitled.key].title, loaded[untitled.key].title_inferred) == ("My Own Title", False)
    assert ("note", "mine") in loaded[other.key].extra


def _edit_dapple(bib: Path) -> tuple[str, str, str]:
    """Drop DAPPLE's year, change its keywords, add a note, and add a comment elsewhere."""
    text = bib.read_text(encoding="utf-8")
    dapple = _by_title(
        bibfile.load(bib).works(), "DAPPLE: A Pipelined Data Parallel Approach for Training Large Models"
    )
    old = _entry_text(text, dapple.key)
    new = old.replace("  year = {2020},\n", "").replace("  keywords = {cs.DC},\n", "  keywords = {cs.PF},\n")
    new = new.replace("\n}\n", "\n  note = {mine},\n}\n")
    edited = text.replace(old, new, 1).replace("\n\n@misc{", "\n% kept comment\n\n@misc{", 1)
    bib.write_text(edited, encoding="utf-8")
    return dapple.key, edited, new


def test_import_fills_a_deleted_field_and_keeps_edited_ones(seed_bib: Path) -> None:
    key, edited, _ = _edit_dapple(seed_bib)
    report = _import(seed_bib)
    assert (report.added, report.merged, report.unchanged, report.written) == (0, 1, 29, True)
    works = {w.key: w for w in bibfile.load(seed_bib).works()}
    assert len(works) == 28
    assert works[key].year == 2020  # the missing field is filled in from the dump
    assert works[key].categories == ("cs.PF",)  # the edited field is not overwritten
    assert ("note", "mine") in works[key].extra
    result = seed_bib.read_text(encoding="utf-8")
    assert "% kept comment" in result
    # Every other entry keeps its bytes.
    for other in works:
        if other != key:
            assert _entry_text(result, other) == _entry_text(edited, other)


def test_update_changes_only_the_updated_entry_bytes(seed_bib: Path) -> None:
    key, edited, new = _edit_dapple(seed_bib)
    _import(seed_bib)
    result = seed_bib.read_text(encoding="utf-8")
    assert result.replace(_entry_text(result, key), "") == edited.replace(new, "")


def test_pasted_entry_is_loaded_and_kept(seed_bib: Path) -> None:
    pasted = (
        "\n@article{smith2021hand,\n"
        "  author = {Smith, Jane and Doe, John},\n"
        "  title = {A Hand-Pasted Paper},\n"
        "  journal = {Journal of Tests},\n"
        "  year = {2021},\n"
        "}\n"
    )
    text = seed_bib.read_text(encoding="utf-8") + pasted
    seed_bib.write_text(text, encoding="utf-8")
    works = {w.key: w for w in bibfile.load(seed_bib).works()}
    assert len(works) == 29
    hand = works["smith2021hand"]
    assert (hand.title, hand.authors, hand.et_al, hand.year, hand.entry_type) == (
        "A Hand-Pasted Paper",
        ("Jane Smith", "John Doe"),
        False,
        2021,
        "article",
    )
    assert ("journal", "Journal of Tests") in hand.extra
    assert hand.sources == ()
    report = _import(seed_bib)
    assert (report.added, report.merged, report.unchanged) == (0, 0, 30)
    assert seed_bib.read_text(encoding="utf-8") == text


def test_pasted_entry_without_fields_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text("@misc{bare2020}\n\n@misc{full2021,\n  title = {Full},\n}\n", encoding="utf-8")
    assert set(bibfile.load(path).entries) == {"bare2020", "full2021"}


# --- all or nothing ----------------------------------------------------------------------------


def _project_with_bad_dump(tmp_path: Path) -> Path:
    sources = tmp_path / "conf" / "sources"
    sources.mkdir(parents=True)
    for path in seed_paths():
        shutil.copy(path, sources / path.name)
    (sources / "zz-bad.txt").write_bytes(b"Ada Owner\n\nA. Author, B. Author et al.\n\nJos\xe9 wrote it.\n")
    return sources


def test_bad_dump_leaves_existing_store_unchanged(tmp_path: Path, seed_bib_text: str) -> None:
    sources = _project_with_bad_dump(tmp_path)
    bib = tmp_path / "refs.bib"
    edited = seed_bib_text.replace("@misc{", "% hand comment\n@misc{", 1)
    bib.write_text(edited, encoding="utf-8")
    mtime = bib.stat().st_mtime_ns
    # good dumps before and after the bad one, plus a dump that would add a new paper
    extra = sources / "new.txt"
    extra.write_text("Ada Owner\n\nA. Author, B. Author et al.\n\nWe propose a brand-new method, tested (twice).\n")
    order = [sources / "jun-yang.txt", extra, sources / "zz-bad.txt", sources / "xin-liu.txt"]
    with pytest.raises(ReadingListError) as info:
        importer.run(order, bib, tmp_path)
    assert (info.value.file, info.value.line, info.value.code) == ("conf/sources/zz-bad.txt", 5, Code.NOT_UTF8)
    assert bib.read_text(encoding="utf-8") == edited
    assert bib.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conf", "refs.bib"]  # no stray temp files


def test_bad_dump_creates_no_store(tmp_path: Path) -> None:
    sources = _project_with_bad_dump(tmp_path)
    bib = tmp_path / "refs.bib"
    with pytest.raises(ReadingListError):
        importer.run(sorted(sources.glob("*.txt")), bib, tmp_path)
    assert not bib.exists()


def test_cli_import_reports_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sources = _project_with_bad_dump(tmp_path)
    bib = tmp_path / "refs.bib"
    good = [str(sources / f"{name}.txt") for name in ("jun-yang", "wei-lin", "xin-liu")]
    assert main(["--root", str(tmp_path), "import", *good]) == 0
    out = capsys.readouterr().out
    assert "28 added, 2 merged, 0 unchanged" in out
    text = bib.read_text(encoding="utf-8")

    assert main(["--root", str(tmp_path), "import", *good, str(sources / "zz-bad.txt")]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("readinglist: error: conf/sources/zz-bad.txt:5: ")
    assert lines[0].endswith(" [readinglist.not-utf8]")
    assert bib.read_text(encoding="utf-8") == text


# --- BibTeX errors -----------------------------------------------------------------------------

GOOD = "@misc{a2020x,\n  title = {X},\n  year = {2020},\n}\n"  # lines 1-4; line 5 is blank


def _load_error(tmp_path: Path, text: str) -> ReadingListError:
    path = tmp_path / "refs.bib"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        bibfile.load(path)
    assert info.value.file == str(path)
    return info.value


@pytest.mark.parametrize(
    "tail",
    [
        "\n@misc{b2020y,\n  title = {Y {oops},\n  year = {2020},\n}\n\n@misc{c2020z,\n  title = {Z},\n}\n",
        "\n@misc{b2020y,\n  title = {Y {oops},\n  year = {2020},\n}\n",
    ],
    ids=["mid-file", "at-eof"],
)
def test_unbalanced_braces(tmp_path: Path, tail: str) -> None:
    # The entry opens on line 6 and its unclosed brace is on line 7: either is the right line.
    # pybtex itself only notices at line 11 (the next entry) or 10 (the end of the file).
    err = _load_error(tmp_path, GOOD + tail)
    assert err.line in (6, 7) and err.code == Code.BAD_BIBTEX


def test_unbalanced_braces_raise_the_tools_error(tmp_path: Path) -> None:
    err = _load_error(tmp_path, GOOD + "\n@misc{b2020y,\n  title = {Y {oops},\n  year = {2020},\n}\n")
    assert err.line is not None and err.line >= 6
    assert str(err).startswith(f"{tmp_path / 'refs.bib'}:{err.line}: ")


def test_bibtex_syntax_error(tmp_path: Path) -> None:
    err = _load_error(tmp_path, GOOD + "\n@misc{b2020y,\n  title = {Y}\n  year = {2020},\n}\n")
    assert (err.line, err.code) == (8, Code.BAD_BIBTEX)  # the field after the missing comma


@pytest.mark.parametrize(
    ("tail", "line", "key"),
    [
        ("\n@misc{b2020y,\n  title = {Y},\n}\n\n@misc{a2020x,\n  title = {X again},\n}\n", 10, "a2020x"),
        ("\n@misc{A2020X,\n  title = {X again},\n}\n", 6, "A2020X"),
    ],
    ids=["same-case", "other-case"],
)
def test_duplicate_key(tmp_path: Path, tail: str, line: int, key: str) -> None:
    err = _load_error(tmp_path, GOOD + tail)
    assert (err.line, err.code) == (line, Code.DUPLICATE_KEY)  # the second occurrence
    assert key in err.message  # as the file spells it


def test_unknown_entry_type(tmp_path: Path) -> None:
    err = _load_error(tmp_path, GOOD + "\n% a comment\n@blogpost{b2020y,\n  title = {Y},\n}\n")
    assert (err.line, err.code) == (7, Code.BAD_BIBTEX)
    assert "blogpost" in err.message


def test_missing_store_is_empty(tmp_path: Path) -> None:
    store = bibfile.load(tmp_path / "absent.bib")
    assert store.works() == [] and store.entries == {}


def test_numbered_keys_are_the_first_free_number_and_stay_unique() -> None:
    """20,000 works of one title share one base key: numbers are found by bisection, still in order."""
    from readinglist.store.keys import unique_key

    taken: set[str] = set()
    keys = []
    for _ in range(3000):
        key = unique_key("lin2020dapple", taken)
        taken.add(key.lower())
        keys.append(key)
    assert len(set(keys)) == 3000
    assert keys[:3] == ["lin2020dapple", "lin2020dappleb", "lin2020dapplec"]
    assert keys[25:29] == ["lin2020dapplez", "lin2020dapple-2", "lin2020dapple-3", "lin2020dapple-4"]
    assert keys[-1] == "lin2020dapple-2975"
    taken.discard("lin2020dapple-7")  # a gap: any free number is unique
    assert unique_key("lin2020dapple", taken).lower() not in taken
