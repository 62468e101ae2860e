"""The bibliography readers: a corpus of real-world-shaped exports (tests/fixtures/exports/), read through
the one reader table, with every skipped entry reported as file:line and the rest loaded."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database import Person

from readinglist.errors import Code, ReadingListError
from readinglist.model import RawRecord, ReadResult
from readinglist.sources import FORMATS, READERS, read_dump, read_source
from readinglist.sources.fields import to_biblatex, to_bibtex

EXPORTS = Path(__file__).parent / "fixtures" / "exports"

# file -> (records read, [(line, key, words of the reason)] skipped)
EXPECTED: dict[str, tuple[int, list[tuple[int, str, str]]]] = {
    "zotero-better-bibtex.bib": (3, []),
    "zotero-better-biblatex.bib": (5, []),
    "jabref.bib": (2, []),
    "jabref-windows-1252.bib": (1, []),  # "% Encoding: windows-1252" on its first line, as JabRef writes it
    "mendeley.bib": (3, []),
    "bibdesk.bib": (2, []),
    "dblp.bib": (2, []),  # the @proceedings is only its paper's crossref target: a venue, not a paper
    "google-scholar.bib": (3, []),
    "endnote.bib": (3, []),
    "acl-anthology.bib": (2, []),
    "arxiv.bib": (2, []),
    "zotero.json": (4, []),
    "citeproc.json": (3, [(35, "notitle", "no title"), (41, "", "not a CSL-JSON item")]),
    # Warnings (``Warned``) are listed with the skips: the entry is read all the same, as BibTeX does.
    "broken-undefined-string.bib": (3, [(13, "bad1", "undefined @string macro 'jcp' in field 'journal' (kept")]),
    "broken-duplicate-key.bib": (
        4,
        [
            (13, "Same2020", "another paper (the entry at line 1): imported as 'Same2020b'"),
            (19, "repeated2021", "given twice: the first is kept"),
        ],
    ),
    "broken-unclosed.bib": (
        3,
        [(7, "open1", "never closed"), (19, "open2", "never closed"), (30, "truncated", "never closed")],
    ),
    "biblatex-names.bib": (3, [(20, "badname2021", "cannot read the name"), (26, "badextended2021", "nickname")]),
    "biblatex-types.bib": (14, [(103, "unknown2020", "unknown entry type @foo: imported as @misc")]),
    "latex-title.bib": (1, []),
    "mendeley-types.bib": (
        10,
        [
            (31, "Scales2015", "another paper (the entry at line 22): imported as 'Scales2015b'"),
            (71, "Doe6", "the year '6' is not between 1400 and"),
        ],
    ),
    "pmlr-proceedings.bib": (2, []),  # the title-less @Proceedings header is the papers' venue, no skip
    "pmlr-header-only.bib": (1, []),
    "ieee-macros.bib": (2, [(14, "undefined2020", "undefined @string macro 'IEEE_J_PROC' in field 'booktitle'")]),
    "biblatex-crossref.bib": (6, []),
    # Cases of real libraries (tests/test_real_exports.py): a pasted arXiv id and abstract, file: URLs,
    # names listed with commas (or a reference's "Family, I., & Family, I."), a book section's book as "journal".
    "mendeley-pasted-arxiv.bib": (9, []),
    "mendeley-synced.bib": (
        6,
        [
            (1, "Mantyla2008LivingArviointia", "the url names a file on your own disk"),
            (9, "Huberman2008SocialMicroscope", "the url names a file on your own disk"),
            (17, "Peng:2016", "separated by commas, not 'and': read as 7 names"),
            (27, "JoanGubermanJudithSaksBarbaraShapiro2006", "separated by commas, not 'and': read as 3 names"),
            (34, "Autio2013InnovationManagement", "separated by commas, not 'and': read as 3 names"),
        ],
    ),
}


def _read(name: str) -> ReadResult:
    return read_source(EXPORTS / name, name)


def _by_key(name: str) -> dict[str, RawRecord]:
    return {r.key: r for r in _read(name).records}


def test_the_table_covers_every_fixture() -> None:
    assert sorted(EXPECTED) == sorted(p.name for p in EXPORTS.iterdir())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_export_reads_with_its_expected_records_and_skips(name: str) -> None:
    result = _read(name)
    count, skips = EXPECTED[name]
    assert len(result.records) == count
    assert [(s.file, s.line, s.key) for s in result.skipped] == [(name, line, key) for line, key, _ in skips]
    for skip, (_, _, words) in zip(result.skipped, skips, strict=True):
        assert words in skip.reason
        assert skip.render().startswith(f"{name}:{skip.line}: ") and "\n" not in skip.render()
    kind = "csl-json" if name.endswith(".json") else "bibtex"
    assert all(r.source.kind == kind and r.source.file == name and r.title for r in result.records)


def test_entry_lines_are_where_each_entry_starts() -> None:
    assert [r.source.line for r in _read("broken-unclosed.bib").records] == [1, 13, 24]
    assert [r.source.line for r in _read("citeproc.json").records] == [2, 20, 42]
    assert [r.source.line for r in _read("mendeley.bib").records] == [6, 21, 33]


def test_keyless_entries_load_with_an_empty_key() -> None:
    records = _read("endnote.bib").records
    assert [r.key for r in records] == ["", "", ""]
    assert records[0].doi == "10.1109/TPDS.2021.3052862" and records[0].year == 2021
    assert [r.key for r in _read("mendeley.bib").records] == ["", "He2016", ""]


def test_et_al_and_others_are_a_flag_not_an_author() -> None:
    works = _by_key("biblatex-names.bib")
    assert (works["etal2021"].authors, works["etal2021"].et_al) == (("Alpha, Ann",), True)
    assert (works["others2021"].authors, works["others2021"].et_al) == (("Alpha, Ann", "Beta, Bob"), True)
    assert dict(works["others2021"].fields)["editor"] == "Gamma, Gil and others"
    [brown] = [r for r in _read("endnote.bib").records if r.et_al]
    assert brown.authors == ("Brown, Tom",)


def test_biblatex_extended_names_become_bibtex_names() -> None:
    [ludwig, maria] = _by_key("biblatex-names.bib")["heuvel2020"].authors
    person = Person(ludwig)
    assert (person.prelast_names, person.last_names, person.first_names) == (["van"], ["Heuvel"], ["Ludwig"])
    person = Person(maria)
    assert (person.last_names, person.first_names, person.middle_names) == (["{Di Stefano}"], ["Maria"], ["Luisa"])
    assert _by_key("zotero-better-biblatex.bib")["heuvel2019flows"].authors[0] == "van den Heuvel, Ludwig"


def test_biblatex_fields_map_to_bibtex_names() -> None:
    works = _by_key("biblatex-types.bib")
    journal = works["journal2019"]
    assert (journal.year, dict(journal.fields)) == (2019, {"journal": "Journal of Parallel Computing", "month": "May"})
    assert (works["blog2022"].year, dict(works["blog2022"].fields)["month"]) == (2022, "October")  # a date range
    assert dict(works["ortiz2021thesis"].fields)["school"] == "Stanford University"
    assert dict(works["chen2018report"].fields)["institution"] == "Microsoft Research"
    flows = _by_key("zotero-better-biblatex.bib")["heuvel2019flows"]
    assert dict(flows.fields)["address"] == "Cambridge, MA"


def test_every_biblatex_type_is_read_and_aliases_are_normalized() -> None:
    types = {key: r.entry_type for key, r in _by_key("biblatex-types.bib").items()}
    assert types == {
        "smith2019patent": "patent", "blog2022": "online", "hutter2019automl": "collection",
        "wiki2021sgd": "inreference", "paszke2019pytorch": "software", "paszke2019pytorch13": "software",
        "chen2018report": "report", "ortiz2021thesis": "thesis", "journal2019": "article",
        "conf2018": "inproceedings", "web2017": "online", "web2016": "online", "feurer2019hpo": "incollection",
        "unknown2020": "misc",
    }  # fmt: skip
    assert dict(_by_key("biblatex-types.bib")["unknown2020"].fields)["entrysubtype"] == "foo"


def test_crossref_fills_the_paper_from_its_proceedings() -> None:
    works = _by_key("dblp.bib")
    assert "DBLP:conf/sosp/2019" not in works
    paper = dict(works["DBLP:conf/sosp/NarayananHPSDGG19"].fields)
    assert paper["booktitle"].startswith("Proceedings of the 27th {ACM} Symposium")
    assert paper["editor"] == "Tim Brecht and Carey Williamson" and paper["publisher"] == "{ACM}"
    assert works["DBLP:conf/sosp/NarayananHPSDGG19"].year == 2019
    # The proceedings' own DOI and URL are not the paper's.
    assert works["DBLP:conf/sosp/NarayananHPSDGG19"].doi == "10.1145/3341301.3359646"
    assert works["DBLP:conf/sosp/NarayananHPSDGG19"].url == ""


def test_a_paper_never_takes_its_containers_identifiers(tmp_path: Path) -> None:
    """DOI, URL, eprint, ISBN, abstract and pages name the proceedings, not a paper in them."""
    container = (
        "@proceedings{sosp19, title = {Proceedings of SOSP}, publisher = {ACM}, year = {2019},\n"
        "  doi = {10.1145/3341301}, url = {https://doi.org/10.1145/3341301}, isbn = {978-1-4503-6873-5},\n"
        "  eprint = {1901.00001}, archiveprefix = {arXiv}, abstract = {The proceedings.}, pages = {1--500}}\n"
    )
    papers = "".join(
        f"@{kind}{{{kind}1, title = {{A {kind}}}, author = {{Smith, Ann}}, crossref = {{sosp19}}}}\n"
        for kind in ("inproceedings", "misc", "article")
    )
    bib = tmp_path / "papers.bib"
    bib.write_text(papers + container, encoding="utf-8")
    for record in read_source(bib, "papers.bib").records:
        fields = dict(record.fields)
        assert (record.doi, record.url, record.eprint, record.abstract) == ("", "", "", ""), record.key
        assert "isbn" not in fields and "pages" not in fields, record.key
        assert record.year == 2019 and fields["publisher"] == "ACM", record.key


def test_xdata_and_crossref_chain() -> None:
    works = _by_key("biblatex-types.bib")
    assert dict(works["hutter2019automl"].fields)["publisher"] == "Springer"
    chapter = dict(works["feurer2019hpo"].fields)
    venue = ("Automated Machine Learning", "Springer", "Cham")
    assert (chapter["booktitle"], chapter["publisher"], chapter["address"]) == venue
    assert works["feurer2019hpo"].title == "Hyperparameter Optimization"
    assert works["paszke2019pytorch13"].url == "https://github.com/pytorch/pytorch"


def test_crossref_chains_follow_biblatex_inheritance() -> None:
    works = _by_key("biblatex-crossref.bib")
    volume = dict(works["knuth1997vol1"].fields)
    assert (volume["maintitle"], volume["publisher"], volume["address"]) == (
        "The Art of Computer Programming", "Addison-Wesley", "Reading, MA")  # fmt: skip
    assert works["knuth1997vol1"].authors == ("Knuth, Donald E.",)
    chapter = works["knuth1997ch1"]
    assert (chapter.title, chapter.year, chapter.authors) == ("Basic Concepts", 1997, ("Knuth, Donald E.",))
    assert dict(chapter.fields)["booktitle"] == "Fundamental Algorithms"
    assert dict(chapter.fields)["bookauthor"] == "Knuth, Donald E."
    assert works["orphan2020"].title == "A Crossref to Nothing"  # a missing parent is no reason to skip
    assert works["cycle1"].year == 2020 and dict(works["cycle1"].fields)["note"] == "from the second"


def test_string_macros_concatenation_and_month_macros() -> None:
    works = _by_key("bibdesk.bib")
    assert dict(works["srivastava2014dropout"].fields)["journal"] == "Journal of Machine Learning Research"
    imagenet = dict(works["krizhevsky2012imagenet"].fields)
    assert imagenet["booktitle"] == "Advances in Neural Information Processing Systems 25"
    assert imagenet["month"] == "December"
    assert works["srivastava2014dropout"].url == "http://jmlr.org/papers/v15/srivastava14a.html"  # bdsk-url-1
    assert "bdsk-file-1" not in imagenet and "date-added" not in imagenet


def test_keywords_are_tags_and_arxiv_categories_are_categories() -> None:
    [attention, *_] = _read("mendeley.bib").records
    assert attention.categories == ("cs.CL", "cs.LG")
    assert attention.keywords == ("transformers", "toread")  # mendeley-tags too
    assert attention.eprint == "1706.03762"
    dapple = _by_key("zotero-better-bibtex.bib")["lin2020dapple"]
    assert dapple.categories == ("cs.DC",)
    assert dapple.keywords == ("Computer Science - Distributed; Parallel; and Cluster Computing",
                               "Computer Science - Machine Learning")  # fmt: skip
    assert _by_key("arxiv.bib")["fan2020dapple"].categories == ("cs.DC",)


def test_identifiers() -> None:
    assert _by_key("arxiv.bib")["fan2020dapple"].eprint == "2007.01045v1"
    assert _by_key("dblp.bib")["DBLP:journals/corr/abs-2007-01045"].eprint == "2007.01045"
    assert _by_key("google-scholar.bib")["devlin2018bert"].eprint == "1810.04805"
    assert _by_key("zotero-better-biblatex.bib")["fan2020dapple"].eprint == "2007.01045"
    assert _by_key("acl-anthology.bib")["devlin-etal-2019-bert"].doi == "10.18653/v1/N19-1423"


def test_bookkeeping_fields_are_dropped() -> None:
    fields = {name for r in _read("mendeley.bib").records + _read("dblp.bib").records for name, _ in r.fields}
    assert not fields & {"file", "mendeley-groups", "mendeley-tags", "biburl", "bibsource", "timestamp", "arxivid"}


def test_latex_text_is_kept_as_written() -> None:
    [record] = _read("latex-title.bib").records
    assert record.title == (
        r"Literate {\TeX} and \LaTeX{} for \mbox{GPT-3}: Stochastic \(\lambda\)-calculi and the $\aleph$ project"
    )
    assert _by_key("zotero-better-bibtex.bib")["lin2020dapple"].title.startswith("{{DAPPLE}}: {{A Pipelined")


def test_csl_json_fields_names_and_text() -> None:
    works = _by_key("citeproc.json")
    resnet = works["he2016resnet"]
    assert (resnet.entry_type, resnet.year, resnet.doi) == ("inproceedings", 2016, "10.1109/CVPR.2016.90")
    assert resnet.categories == ("cs.CV",) and resnet.keywords == ("residual networks", "image recognition")
    assert dict(resnet.fields)["booktitle"].startswith("Proceedings of the IEEE")
    flows = works["heuvel2019flows"]
    assert flows.authors == ("van den Heuvel, Ludwig", "{The OpenFlows Consortium}", "Smith, Jr., Jane")
    assert flows.title == r"Normalizing Flows for Sparse Data: 50\% Fewer Samples \& Better {pH} Estimates"
    assert dict(flows.fields) == {"journal": "Journal of Machine Learning Research", "volume": "20", "number": "84",
                                  "pages": "1-33", "month": "May"}  # fmt: skip
    assert works["openai2023gpt4"].eprint == "2303.08774" and works["openai2023gpt4"].year == 2023


def test_zotero_csl_json() -> None:
    preprint, chapter, thesis, page = _read("zotero.json").records
    assert (preprint.entry_type, preprint.eprint, preprint.year) == ("misc", "2007.01045", 2020)
    assert dict(chapter.fields)["editor"] == "Hutter, Frank and Kotthoff, Lars"
    assert dict(thesis.fields)["school"] == "Stanford University"
    assert page.title == r"Introducing \emph{PyTorch} Fully Sharded Data Parallel (FSDP) API"
    assert dict(page.fields)["urldate"] == "2023-04-01"


@pytest.mark.parametrize(("name", "renamed"), [("dblp.bib", "dblp.txt"), ("citeproc.json", "export.bib")])
def test_the_format_is_detected_from_the_content(tmp_path: Path, name: str, renamed: str) -> None:
    shutil.copy(EXPORTS / name, tmp_path / renamed)
    assert read_source(tmp_path / renamed, name) == _read(name)


def test_a_file_that_is_no_bibliography_is_one_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.bib"
    path.write_text("\n\nThese are my notes about papers: read them soon.\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_source(path, "notes.bib")
    assert (info.value.file, info.value.line, info.value.code) == ("notes.bib", 3, Code.UNKNOWN_FORMAT)
    assert "\n" not in str(info.value)


def test_broken_json_is_one_error_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text('[\n  {"id": "a", "title": "A"},\n  {"id": "b" "title": "B"}\n]\n', encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_source(path, "items.json")
    assert (info.value.file, info.value.line, info.value.code) == ("items.json", 3, Code.BAD_CSL_JSON)


def test_jabref_encoding_line_is_honoured() -> None:
    [record] = _read("jabref-windows-1252.bib").records
    assert record.authors == ("Müller, Jürgen", "García, Sofía") and record.title == "Café Effects on Naïve Bayes"


def test_a_numeric_biblatex_month_is_a_month_name() -> None:
    assert dict(_by_key("biblatex-types.bib")["web2017"].fields)["month"] == "November"


def test_json_that_is_not_csl_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_text('{\n  "name": "x",\n  "version": "1.0.0"\n}\n', encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_source(path, "package.json")
    assert (info.value.file, info.value.line, info.value.code) == ("package.json", 1, Code.BAD_CSL_JSON)


def test_unclosed_entries_cost_linear_scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unclosed brace makes pybtex scan to the end of the file; the reader must not do that per bad entry."""
    from pybtex.scanner import Scanner

    from readinglist.sources.bibtex import read_string

    good = "@article{k%d,\n  title = {Good %d},\n  year = {2020}\n}\n\n"
    bad = "@article{b%d,\n  title = {Unclosed {x %d,\n  year = {2020}\n}\n\n"
    scanned: list[int] = []
    original = Scanner.skip_to

    def skip_to(self: Scanner, patterns: object) -> object:
        scanned.append(1)
        return original(self, patterns)

    monkeypatch.setattr(Scanner, "skip_to", skip_to)
    for n in (200, 800):
        scanned.clear()
        result = read_string("".join((bad if i % 10 == 0 else good) % (i, i) for i in range(n)), "x.bib")
        assert (len(result.records), len(result.skipped)) == (n - n // 10, n // 10)
        if n == 200:
            small = len(scanned)
    assert len(scanned) < 5 * small  # four times the entries: about four times the tokens, not sixteen


def test_read_dump_still_returns_the_records(tmp_path: Path) -> None:
    assert read_dump(EXPORTS / "arxiv.bib", "arxiv.bib") == list(_read("arxiv.bib").records)


def test_field_table_round_trip() -> None:
    fields = {"journaltitle": "J", "location": "Paris", "date": "2019-05-01", "title": "T"}
    bibtex = to_bibtex(fields, "article")
    assert bibtex == {"journal": "J", "address": "Paris", "year": "2019", "month": "May", "title": "T"}
    assert to_biblatex(bibtex) == {"journaltitle": "J", "location": "Paris", "year": "2019", "month": "May",
                                   "title": "T"}  # fmt: skip


TOKENS = ["@article{", "@string{", "@comment{", "@preamble{", "@misc(", "@", "{", "}", "(", ")", ",", "=", '"', "#",
          "\n", " and ", "others", "family=", "crossref = ", "xdata = ", "date = ", "title = ", "author = ",
          "jan", "k1", "k2", "\\", "%", "[", "]", '{"id": ', '"title": ', '"author": [', "2019-05", "{\\TeX}", "\x00",
          "\ufeff", "\r"]  # fmt: skip
text_like_exports = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=5)), max_size=60).map("".join)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(text_like_exports)
def test_any_text_is_records_or_one_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "input"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _read_cleanly(path)


@FUZZ
@given(st.sampled_from(sorted(EXPECTED)), st.data())
def test_any_cut_of_an_export_is_records_or_one_error(tmp_path: Path, name: str, data: st.DataObject) -> None:
    raw = (EXPORTS / name).read_bytes()
    start = data.draw(st.integers(0, len(raw)))
    end = data.draw(st.integers(start, len(raw)))
    insert = data.draw(st.sampled_from(TOKENS)).encode("utf-8", "surrogatepass")
    path = tmp_path / "input"
    path.write_bytes(raw[:start] + insert + raw[end:])
    _read_cleanly(path)


def _read_cleanly(path: Path) -> None:
    try:
        result = read_source(path, "input")
    except ReadingListError as error:
        assert error.file == "input" and error.message and "\n" not in str(error)
    else:
        assert isinstance(result, ReadResult)
        assert all(skip.file == "input" and skip.line >= 1 for skip in result.skipped)
        assert all(record.source.line >= 1 for record in result.records)


def test_every_reader_has_the_interface() -> None:
    for reader in READERS:
        assert reader.KIND in {f.kind for f in FORMATS}
        assert callable(reader.looks_like) and callable(reader.read)
