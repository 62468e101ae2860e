"""Bring your own library (issue 10): importing BibTeX/BibLaTeX/CSL-JSON into the store.

The report, skips, --strict, --dry-run, keys, identity (DOI, arXiv id, title + year, versions),
conf/identity.toml by key, the ``--bib`` trap, the default sources, and refs.bib that a person
pasted BibLaTeX into (a bad entry is left out of the site, never fatal to it).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser

from conftest import FIXTURES, SEEDS, copy_seeds, seed_paths
from readinglist import arxiv_categories
from readinglist.cli import main
from readinglist.config import load_config
from readinglist.errors import Code, ReadingListError
from readinglist.model import SOURCE_KINDS, SourceRef, Work
from readinglist.store import bibfile, importer
from readinglist.store.identity import load_rules
from readinglist.store.tolerant import NO_KEY
from readinglist.years import EARLIEST, latest

EXPORTS = FIXTURES / "exports"
DAPPLE = "lin2020dapple"  # the seed list's DAPPLE, from Wei Lin's profile (2020, arXiv cs.DC)

MINE = """\
@article{Smith2021Pipes,
  title = {Pipelines for Everyone},
  author = {Smith, Ann and others},
  journal = {Journal of Pipes},
  year = {2021},
  doi = {https://doi.org/10.1000/PIPES.1},
  keywords = {pipelines, cs.DC},
}

@artcle{typo2020, title = {Typo}}

@inproceedings{müller2020,
  title = {Umlaut Keys Considered},
  author = {Müller, Jo},
  booktitle = {Proc. of Keys},
  year = {2020},
}

@article{title = {Keyless Entry From Mendeley},
  author = {Doe, Jane},
  year = {2019},
}
"""


def _project(tmp_path: Path, bib: str = MINE) -> Path:
    root = tmp_path / "project"
    (root / "conf").mkdir(parents=True)
    (root / "mine.bib").write_text(bib, encoding="utf-8")
    return root


def _works(bib: Path) -> dict[str, Work]:
    return {w.key: w for w in bibfile.load(bib).works()}


# --- the report, skips, --strict, --dry-run --------------------------------------------------------


def test_a_bibtex_file_is_imported_and_each_skip_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    assert main(["--root", str(root), "import", str(root / "mine.bib")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "4 added, 0 merged, 0 unchanged, 0 skipped, 1 warning (refs.bib updated)"
    # As BibTeX does, an unknown type is read as @misc with a warning: a typo loses no entry.
    assert "  warning mine.bib:10: typo2020: unknown entry type @artcle: imported as @misc" in lines
    works = _works(root / "refs.bib")
    assert works["typo2020"].entry_type == "misc" and ("entrysubtype", "artcle") in works["typo2020"].extra
    pipes = works["Smith2021Pipes"]
    assert (pipes.entry_type, pipes.doi, pipes.keywords, pipes.categories) == (
        "article", "10.1000/PIPES.1", ("pipelines",), ("cs.DC",),
    )  # fmt: skip
    assert ("journal", "Journal of Pipes") in pipes.extra and pipes.et_al
    assert pipes.sources == (SourceRef("mine.bib", 1, kind="bibtex"),)
    assert "provenance = {mine.bib:1 {bibtex}}" in (root / "refs.bib").read_text(encoding="utf-8")


def test_strict_exits_1_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    assert main(["--root", str(root), "import", "--strict", str(root / "mine.bib")]) == 1
    out = capsys.readouterr().out
    assert "--strict: 0 skipped, 1 warning, nothing written" in out.splitlines()[0]
    assert "warning mine.bib:10: typo2020" in out
    assert not (root / "refs.bib").exists()


def test_dry_run_prints_the_changes_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_seeds(tmp_path / "seeds")
    before = (root / "refs.bib").read_bytes()
    assert main(["--root", str(root), "import", "--dry-run", str(EXPORTS / "dblp.bib")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "1 added, 1 merged, 0 unchanged, 0 skipped (dry run: refs.bib would be updated; nothing written)"
    )
    assert f"into {DAPPLE} (identical title and year)" in out
    assert "  would add DBLP:conf/sosp/NarayananHPSDGG19 from " in out
    assert (root / "refs.bib").read_bytes() == before
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".refs.bib")) in ([], [".refs.bib.lock"])


# --- keys ---------------------------------------------------------------------------------------------


def test_a_valid_free_key_is_kept_and_others_are_generated_and_reported(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    shutil.copy(SEEDS / "refs.bib", bib)
    mine = tmp_path / "mine.bib"
    taken = (
        "@article{LIN2020DAPPLE,\n  title = {Another Paper Entirely},\n  author = {Lin, Wei},\n  year = {2020},\n}\n"
    )
    mine.write_text(MINE + "\n" + taken, encoding="utf-8")
    report = importer.run([mine], bib, tmp_path)
    keys = set(_works(bib))
    assert "Smith2021Pipes" in keys  # the user's own key
    assert {"muller2020umlaut", "doe2019keyless", "lin2020another"} <= keys
    assert set(report.notes) == {
        "mine.bib:12: key 'müller2020' is not a valid key; stored as muller2020umlaut",
        "mine.bib:19: no key; stored as doe2019keyless",
        "mine.bib:24: key 'LIN2020DAPPLE' is taken; stored as lin2020another",
    }
    assert all(f"  {note}" in str(report).splitlines() for note in report.notes)


# --- identity: DOI, arXiv id, title + year, versions ---------------------------------------------------


def test_a_dblp_record_of_a_listed_paper_merges_with_the_reason(seed_bib: Path) -> None:
    report = importer.run([EXPORTS / "dblp.bib"], seed_bib, EXPORTS)
    assert (report.added, report.merged) == (1, 1)  # PipeDream is new; DAPPLE is the seed's
    assert report.merges == (f"dblp.bib:34 into {DAPPLE} (identical title and year)",)
    works = _works(seed_bib)
    assert len([w for w in works.values() if "DAPPLE" in w.title]) == 1
    dapple = works[DAPPLE]
    assert (dapple.eprint, dapple.year, dapple.categories) == ("2007.01045", 2020, ("cs.DC",))
    assert ("journal", "CoRR") in dapple.extra and len(dapple.authors) == 13  # the profile knew only its owner
    # The arXiv record (another version suffix) is the same work by its arXiv id.
    again = importer.run([EXPORTS / "arxiv.bib"], seed_bib, EXPORTS)
    assert f"arxiv.bib:11 into {DAPPLE} (same arXiv id)" in again.merges


def test_the_published_version_is_linked_not_merged(seed_bib: Path, tmp_path: Path) -> None:
    published = tmp_path / "ppopp.bib"
    published.write_text(
        "@inproceedings{fan2021dapple,\n"
        "  title = {{DAPPLE:} a pipelined data parallel approach for training large models},\n"
        "  author = {Fan, Shiqing and Lin, Wei},\n  booktitle = {PPoPP '21},\n  year = {2021},\n"
        "  doi = {10.1145/3437801.3441593},\n}\n",
        encoding="utf-8",
    )
    report = importer.run([published], seed_bib, tmp_path)
    assert (report.added, report.merged) == (1, 0)
    assert report.notes == (f"linked ppopp.bib:1 as a version of {DAPPLE} (identical title, 2020 and 2021)",)
    works = _works(seed_bib)
    assert ("related", DAPPLE) in works["fan2021dapple"].extra
    assert works["fan2021dapple"].doi == "10.1145/3437801.3441593"
    assert importer.run([published], seed_bib, tmp_path).written is False  # linked once, then unchanged


def test_identity_toml_names_works_by_key(seed_bib: Path, tmp_path: Path) -> None:
    rules = tmp_path / "identity.toml"
    rules.write_text(f'[[different]]\nkeys = ["{DAPPLE}", "fan2020dapple"]\n', encoding="utf-8")
    report = importer.run([EXPORTS / "arxiv.bib"], seed_bib, EXPORTS, load_rules(rules))
    assert (report.added, report.merged) == (2, 0)  # kept apart from the seed's DAPPLE
    rules.write_text('[[same]]\nrecords = ["arxiv.bib:1"]\nkeys = ["wang2019characterizing"]\n', encoding="utf-8")
    other = tmp_path / "refs.bib"
    shutil.copy(SEEDS / "refs.bib", other)
    forced = importer.run([EXPORTS / "arxiv.bib"], other, EXPORTS, load_rules(rules))
    assert "arxiv.bib:1 into wang2019characterizing (forced by conf/identity.toml)" in forced.merges


# --- the store: safety, the --bib trap, default sources ------------------------------------------------


def test_a_seed_reimport_leaves_refs_bib_byte_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_seeds(tmp_path / "seeds")
    assert main(["--root", str(root), "import"]) == 0  # its own conf/sources
    assert capsys.readouterr().out.splitlines()[0] == "0 added, 0 merged, 30 unchanged, 0 skipped (refs.bib unchanged)"
    assert (root / "refs.bib").read_bytes() == (SEEDS / "refs.bib").read_bytes()


def test_a_bib_file_under_conf_sources_is_a_default_source(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "conf" / "sources").mkdir()
    shutil.move(root / "mine.bib", root / "conf" / "sources" / "mine.bib")
    (root / "conf" / "sources" / ".DS_Store").write_bytes(b"\0\0")
    assert [p.name for p in load_config(root).source_paths()] == ["mine.bib"]
    assert main(["--root", str(root), "import"]) == 0
    assert "Smith2021Pipes" in _works(root / "refs.bib")


@pytest.mark.parametrize("option", ["--bib", "--store"])
def test_the_store_is_never_one_of_the_sources(tmp_path: Path, option: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path)
    mine = root / "mine.bib"
    assert main(["--root", str(root), "import", option, str(mine), *map(str, seed_paths()), str(mine)]) == 1
    err = capsys.readouterr().err
    assert f"{mine}: is both a source to import and the store to write into" in err
    assert err.endswith(" [readinglist.bad-sources]\n")
    assert mine.read_text(encoding="utf-8") == MINE


def test_import_never_rewrites_a_refs_bib_it_cannot_fully_read(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    text = "@misc{ok2020, title = {OK}}\n\n@misc{bad, author = {A, B, C, D}, title = {Bad}}\n"
    bib.write_text(text, encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        importer.run(seed_paths()[:1], bib, SEEDS)
    assert (info.value.file, info.value.line, info.value.code) == (str(bib), 3, Code.BAD_BIBTEX)
    assert "bad" in str(info.value)  # the entry's key
    assert bib.read_text(encoding="utf-8") == text


# --- refs.bib with pasted BibLaTeX: tolerant for the site -------------------------------------------------

PASTED = """\
@string{jml = {Journal of ML}}

@article{heuvel2019,
  title = {Pasted from Zotero},
  author = {family=Heuvel, given=Jan, prefix=van den, useprefix=true and Alpha, Ann and et al.},
  journaltitle = jml,
  date = {2019-05-01},
  keywords = {pipelines},
}

@article{undef2020, title = {Bad Macro}, journal = nosuch, year = {2020}}

@article{title = {No key}, year = {2020}}

@online{site2022, title = {A Web Page}, url = {https://example.org}, urldate = {2022-01-02}, date = {2022}}

@inproceedings{child2021, crossref = {proc2021}, title = {Child Paper}, author = {Beta, Bo}}

@proceedings{proc2021, title = {Proceedings of Things}, year = {2021}, editor = {Ed, Di}, doi = {10.1/proc}}

@misc{heuvel2019, title = {Duplicate key}}

@misc{unclosed2020, title = {Never {closed},
  year = {2020},

@patent{patent2001, title = {A Patent}, year = 2001}
"""


def test_pasted_biblatex_entries_are_read_and_bad_ones_skipped_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(PASTED, encoding="utf-8")
    store = bibfile.load(path, tolerant=True)
    assert [s.render() for s in store.skipped] == [
        f"{path}:11: undef2020: undefined @string 'nosuch'",
        f"{path}:13: (no key): {NO_KEY}",
        f"{path}:21: heuvel2019: duplicate citation key (first at line 3)",
        f"{path}:23: unclosed2020: entry is never closed (unbalanced braces)",
    ]
    works = {w.key: w for w in store.works()}
    assert set(works) == {"heuvel2019", "site2022", "child2021", "proc2021", "patent2001"}
    heuvel = works["heuvel2019"]
    assert (heuvel.year, heuvel.authors, heuvel.et_al) == (2019, ("Jan van den Heuvel", "Ann Alpha"), True)
    assert ("journal", "Journal of ML") in heuvel.extra and heuvel.keywords == ("pipelines",)
    child = works["child2021"]
    assert (child.year, child.doi) == (2021, "")  # the proceedings' DOI is not the paper's
    assert ("booktitle", "Proceedings of Things") in child.extra
    assert works["site2022"].url == "https://example.org" and works["site2022"].entry_type == "online"
    with pytest.raises(ReadingListError) as info:  # the import's strict read: one line, with the line
        bibfile.load(path)
    assert (info.value.line, info.value.code) == (11, Code.BAD_BIBTEX) and "\n" not in str(info.value)


def test_generate_makes_pages_of_the_pasted_entries_and_reports_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from readinglist.site import generate

    root = copy_seeds(tmp_path / "seeds", notes=False)
    (root / "refs.bib").write_text(PASTED, encoding="utf-8")
    report = generate.run(load_config(root))
    assert report.library is not None and len(report.library.papers) == 5
    assert {p.name for p in (root / "docs" / "papers").glob("*.md")} >= {"heuvel2019.md", "patent2001.md"}
    assert "readinglist: skipped refs.bib:11: undef2020: undefined @string 'nosuch'" in (capsys.readouterr().err)


def test_an_edited_book_gets_its_key_from_the_editor(tmp_path: Path) -> None:
    book = tmp_path / "book.bib"
    book.write_text(
        "@book{Hütter2019,\n  editor = {Hutter, Frank and Kotthoff, Lars},\n  title = {Automated Machine Learning},\n"
        "  publisher = {Springer},\n  year = {2019},\n}\n",
        encoding="utf-8",
    )
    report = importer.run([book], tmp_path / "refs.bib", tmp_path)
    assert list(_works(tmp_path / "refs.bib")) == ["hutter2019automated"]
    assert report.notes == ("book.bib:1: key 'Hütter2019' is not a valid key; stored as hutter2019automated",)


def test_a_big_import_shows_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.progress import Progress

    advanced: list[float] = []
    monkeypatch.setattr(Progress, "advance", lambda self, task, amount=1: advanced.append(amount))
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    with importer._progress(importer.PROGRESS_FROM - 1) as advance:
        advance()  # a small import: no bar
    with importer._progress(importer.PROGRESS_FROM) as advance:
        advance()
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    with importer._progress(10 * importer.PROGRESS_FROM) as advance:
        advance()  # not a terminal (a pipe, a log file): no bar
    assert advanced == [1]


def test_identity_toml_tables_are_checked(tmp_path: Path) -> None:
    rules = tmp_path / "identity.toml"
    rules.write_text('[[same]]\nkeys = "lin2020dapple"\n', encoding="utf-8")
    with pytest.raises(ReadingListError, match=r"\[\[same\]\] #1 needs records = .* and/or keys = "):
        load_rules(rules)


# --- the field table: what the writer writes, the reader reads back ------------------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-", min_size=1, max_size=8)
_TEXT = st.lists(_WORD, min_size=1, max_size=5).map(" ".join)
_NAME = st.text(alphabet="abcdefghijABCDEFGHIJ", min_size=1, max_size=8)  # a Work's authors are display names
_VENUE = st.sampled_from(["journal", "booktitle", "publisher", "volume", "pages", "note", "school", "address"])


@st.composite
def _any_work(draw: st.DrawFn) -> Work:
    categories = draw(st.lists(st.sampled_from(sorted(arxiv_categories.ids())), max_size=3, unique=True))
    keywords = draw(st.lists(_TEXT.filter(lambda k: k not in arxiv_categories.ids()), max_size=3, unique=True))
    kind = draw(st.sampled_from(sorted(SOURCE_KINDS)))
    line = draw(st.integers(1, 10_000))
    return Work(
        key="k",
        title=draw(_TEXT),
        authors=tuple(draw(st.lists(st.tuples(_NAME, _NAME).map(lambda n: f"{n[0]} {n[1]}"), max_size=3))),
        year=draw(st.none() | st.integers(EARLIEST, latest())),  # outside it, a year is unknown
        categories=tuple(categories),
        keywords=tuple(keywords),
        eprint=draw(st.sampled_from(["", "2007.01045", "2007.01045v2", "hep-th/9901001"])),
        doi=draw(st.sampled_from(["", "10.1145/3437801.3441593"])),
        url=draw(st.sampled_from(["", "https://example.org/a?b=c"])),
        entry_type=draw(st.sampled_from(sorted(bibfile.ENTRY_TYPES - {"set", "xdata"}))),
        extra=tuple(draw(st.dictionaries(_VENUE, _TEXT, max_size=3)).items()),
        sources=(SourceRef(f"{draw(_WORD)}.bib", line, kind=kind),),
    )


@given(_any_work())
def test_the_field_table_reads_back_what_it_writes(work: Work) -> None:
    text = bibfile.format_work(work.key, work)
    assert text == bibfile.format_entry(work.key, bibfile.work_to_entry(work))
    (key, entry), *_ = Parser().parse_string(text).entries.items()
    again = bibfile.entry_to_work(key, entry)
    assert replace(again, extra=()) == replace(work, extra=())
    assert sorted(again.extra) == sorted(work.extra)


def test_reading_a_big_source_says_so_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    shown: list[str] = []
    original = Console.status

    def status(self: Console, text: str, **kw: object) -> object:
        shown.append(text)
        return original(self, text)

    monkeypatch.setattr(Console, "status", status)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    root = _project(tmp_path)
    size = (root / "mine.bib").stat().st_size
    monkeypatch.setattr(importer, "BIG_FILE", size)
    importer.run([root / "mine.bib"], root / "refs.bib", root, dry_run=True)
    monkeypatch.setattr(importer, "BIG_FILE", size + 1)
    importer.run([root / "mine.bib"], root / "refs.bib", root, dry_run=True)
    assert shown == ["reading mine.bib"]


def test_an_item_uri_as_a_csl_id_is_not_kept_as_the_key() -> None:
    """Zotero's CSL-JSON export gives item URIs as ids: a generated key names the page instead."""
    from readinglist.store.keys import is_valid_key

    assert not is_valid_key("http://zotero.org/users/local/q8YxEXtR/items/ZC4M8NAU")
    assert not is_valid_key("urn:isbn:0451450523")
    assert is_valid_key("lin2020dapple") and is_valid_key("DBLP:conf/sosp/NarayananHPSDGG19")


@pytest.mark.parametrize("written", ["2021a", "forthcoming 2026"])
def test_a_year_a_person_wrote_as_text_survives_a_reimport(tmp_path: Path, written: str) -> None:
    """A hand-edited ``year`` that is not a number is the person's, not a gap to fill."""
    from readinglist.store import importer

    source = tmp_path / "mine.bib"
    source.write_text("@article{z,\n  author = {E, F},\n  title = {Zeta paper},\n  year = {2021},\n}\n")
    bib = tmp_path / "refs.bib"
    importer.run([source], bib, tmp_path)
    bib.write_text(bib.read_text(encoding="utf-8").replace("year = {2021}", f"year = {{{written}}}"))
    importer.run([source], bib, tmp_path)
    assert f"year = {{{written}}}" in bib.read_text(encoding="utf-8")
