"""A researcher's own library on the site (issue 10): venue, type, links, true source, tags, et al.,
a derived bibliography that pybtex's plain style formats without a warning, and LaTeX titles
that read the same on the paper page, in the bibliography and in records.json."""

from __future__ import annotations

import itertools
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pybtex.errors
import pybtex.plugin
import pytest
from bs4 import Tag
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser
from sphinx.cmd.build import build_main

from conftest import find, soup
from readinglist.config import load_config
from readinglist.enrich.pipeline import enrich
from readinglist.enrich.taxonomy import load_taxonomy
from readinglist.latex import to_text
from readinglist.model import Library, SourceRef, Work
from readinglist.render.bibliography import derive, entry_text, problems, sanitized_bib
from readinglist.render.bibtypes import PLAIN_TYPE, WORDS
from readinglist.render.pages import site_pages
from readinglist.site import generate
from readinglist.site.records import records

SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"  # never the repository's own list
TOPICS = SEEDS / "conf" / "topics.toml"
ABSTRACT = "We study training of large models on GPU clusters and report the measured speedups."


def _library(*works: Work) -> Library:
    return enrich(list(works), load_taxonomy(TOPICS))


def _page(library: Library, key: str) -> str:
    pages = site_pages(library, {}, {}, {"title": "t", "description": "d"}, [])
    paper = library.by_key()[key]
    return pages[f"papers/{paper.slug}.md"]


def _format_plain(bib: str) -> None:
    """Parse the derived bibliography and format it as sphinxcontrib-bibtex does, warnings fatal."""
    pybtex.errors.set_strict_mode(True)
    data = Parser().parse_string(bib)
    style = pybtex.plugin.find_plugin("pybtex.style.formatting", "plain")()
    list(style.format_entries(data.entries.values()))


# --- the derived bibliography ---------------------------------------------------------------------

HUTTER = Work(
    "hutter2019automl",
    "Automated Machine Learning",
    year=2019,
    entry_type="book",
    extra=(("editor", "Hutter, Frank and Kotthoff, Lars"), ("publisher", "Springer")),
)
SMITH = Work("s", "W", authors=("A Smith",), year=2021, entry_type="inproceedings")


def test_an_edited_book_keeps_its_editors_and_its_type() -> None:
    entry = derive(HUTTER, {})
    assert entry.kind == "book" and not entry.problem
    assert entry.persons["editor"] == ["{Hutter}, {Frank}", "{Kotthoff}, {Lars}"]
    _format_plain(sanitized_bib(_library(HUTTER)))


def test_a_paper_without_its_booktitle_is_listed_as_misc_and_reported_once(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("% mine\n\n@inproceedings{s,\n  title = {W},\n  author = {Smith, A},\n  year = {2021},\n}\n")
    library = _library(SMITH, HUTTER)
    text = sanitized_bib(library)
    assert "@misc{s," in text
    _format_plain(text)
    assert problems(library, bib) == [
        "refs.bib:3: s: @inproceedings has no booktitle: the bibliography lists it as @misc"
    ]


def test_biblatex_fields_and_crossref_parents_fill_what_the_plain_style_needs() -> None:
    article = Work(
        "a",
        "T",
        authors=("Ann Lee",),
        entry_type="article",
        extra=(("journaltitle", "J. {ML}"), ("date", "2019-05-01")),
    )
    parent = Work("procs", "Proceedings of {ICML}", entry_type="proceedings", year=2020, extra=(("publisher", "PMLR"),))
    child = Work("c", "Child", authors=("Bo Li",), entry_type="inproceedings", extra=(("crossref", "procs"),))
    works = {w.key: w for w in (article, parent, child)}
    got = derive(article, works)
    assert got.kind == "article" and got.fields["journal"] == "J. ML"
    assert (got.fields["year"], got.fields["month"]) == ("2019", "May")
    got = derive(child, works)
    assert got.kind == "inproceedings" and not got.problem
    assert got.fields["booktitle"] == "Proceedings of ICML" and got.fields["year"] == "2020"


def test_every_type_with_every_combination_of_the_fields_it_may_need_formats_without_a_warning() -> None:
    """Exhaustive over the fields the plain style's templates require: no REQUIRED row is too lax."""
    needed = ["journal", "booktitle", "publisher", "school", "institution", "editor"]
    kinds = [*sorted({plain: name for name, plain in PLAIN_TYPE.items()}.values()), "thesis", "software"]
    entries = []
    for n, (entry_type, mask) in enumerate(itertools.product(kinds, range(1 << (len(needed) + 2)))):
        extra = tuple((name, "V") for i, name in enumerate(needed) if mask >> i & 1)
        authors = ("Ann Lee",) if mask >> len(needed) & 1 else ()
        work = Work(f"e{n}", "T", authors, year=2020 if mask >> (len(needed) + 1) & 1 else None, extra=extra)
        entries.append(entry_text(work.key, replace(work, entry_type=entry_type), {}))
    _format_plain("".join(entries))


TYPES = sorted(set(PLAIN_TYPE) | set(WORDS) | {"patent", "software", "online", "xyzzy", ""})
FIELDS = (
    "journal journaltitle booktitle eventtitle publisher school institution organization editor crossref date "
    "month address location volume number pages series edition howpublished chapter type note url doi"
).split()
values = st.one_of(
    st.sampled_from(["", "{}", "  ", "X", "Springer", "2019-13", "%", "\\relax", "{\\TeX}", "Hutter, Frank and others",
                     "et al.", "a, b, c, d", "parent", "https://x.org/a", "javascript:alert(1)", "10.1145/3.4", "and"]),
    st.text(max_size=12),
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entry_type=st.sampled_from(TYPES),
    fields=st.dictionaries(st.sampled_from(FIELDS), values, max_size=8),
    authors=st.lists(
        st.one_of(st.sampled_from(["Ann Lee", "et al.", "others", "", "{}", "Lee, A, B, C"]), st.text(max_size=8)),
        max_size=3,
    ),
    et_al=st.booleans(),
    title=values,
    year=st.one_of(st.none(), st.integers(1, 2100)),
    eprint=st.sampled_from(["", "2101.00001v2", "bad id"]),
)
def test_no_derived_entry_makes_the_plain_style_warn(
    entry_type: str, fields: dict[str, str], authors: list[str], et_al: bool, title: str, year: int | None, eprint: str
) -> None:
    """Any type, any present or absent fields: pybtex in strict mode formats the copy without an error."""
    parent = Work("parent", "Parent", entry_type="proceedings", extra=(("publisher", "P"), ("editor", "Ed, A")))
    work = Work(
        "w", title, tuple(authors), et_al, year, entry_type=entry_type, extra=tuple(fields.items()), eprint=eprint
    )
    works = {"w": work, "parent": parent}
    _format_plain(entry_text("w", work, works) + entry_text("parent", parent, works))


# --- the paper page and records.json -------------------------------------------------------------

FULL = Work(
    "knuth",
    "A title",
    authors=("Ann Alpha", "et al."),
    year=2020,
    abstract=ABSTRACT,
    entry_type="article",
    eprint="2101.00001v2",
    extra=(
        ("journal", "Journal of {ML} Systems"),
        ("publisher", "ACM"),
        ("doi", "https://doi.org/10.1145/3458817.3476145"),
        ("url", "javascript:alert(1)"),
        ("pdf", "https://example.org/paper.pdf"),
        ("keywords", "GPU scheduling; cs.DC-like, training"),
    ),
    sources=(SourceRef("mine.bib", 120, kind="bibtex"), SourceRef("arXiv:2101.00001", 1, kind="arxiv")),
)


def test_a_page_shows_venue_type_safe_links_true_source_and_tags() -> None:
    library = _library(FULL)
    page = _page(library, "knuth")
    assert "**Type:** Journal article" in page
    assert "**Venue:** Journal of ML Systems · ACM" in page
    assert "[arXiv\\:2101\\.00001v2](<https://arxiv.org/abs/2101.00001v2>)" in page
    assert "(<https://doi.org/10.1145/3458817.3476145>)" in page
    assert "[PDF](<https://example.org/paper.pdf>)" in page
    assert "javascript" not in page
    assert "**Source:** BibTeX import\\; arXiv API" in page  # in words; the file and line are the maintainer's
    reader, about = page.split("{dropdown} About this record")
    assert "mine\\.bib" not in reader and "Source\\: BibTeX\\: mine\\.bib\\:120; arXiv API" in about
    assert "author profile" not in page
    assert "**Tags:** GPU scheduling\\, cs\\.DC\\-like\\, training" in page
    item = records(library)[0]
    assert item["type"] == "Journal article" and item["venue"] == "Journal of ML Systems · ACM"
    assert item["doi"] == "10.1145/3458817.3476145" and item["link"] == "" and item["eprint"] == "2101.00001v2"
    assert item["keywords"] == ["GPU scheduling", "cs.DC-like", "training"]
    assert [s["kind"] for s in item["sources"]] == ["bibtex", "arxiv"]


def test_keywords_are_tags_not_categories() -> None:
    work = Work("k", "Kw", abstract=ABSTRACT, keywords=("cs.DC", "scheduling"))
    library = _library(work)
    paper = library.by_key()["k"]
    assert "scheduling" not in paper.categories
    assert "**Tags:** cs\\.DC\\, scheduling" in _page(library, "k")


@pytest.mark.parametrize("name", ["et al.", "et al", "others", "Et Al.", "et~al."])
def test_et_al_is_a_flag_never_an_author(name: str) -> None:
    one = Work("one", "First", authors=("Ann Alpha", name), year=2020, abstract=ABSTRACT)
    two = Work("two", "Second", authors=("Bo Beta", name), year=2021, abstract="A different text about compilers.")
    library = _library(one, two)
    assert all(a.name.lower().replace("~", " ") not in {"et al.", "et al", "others"} for a in library.authors)
    for paper in library.papers:
        assert paper.work.et_al and name not in paper.work.authors
        assert all("et al" not in link.reason and "others" not in link.reason for link in paper.related)
    assert "**Authors:** [Ann Alpha](rl:authors/a#author-ann-alpha) et al." in _page(library, "one")
    assert [r["authors"] for r in records(library)] == [["Ann Alpha"], ["Bo Beta"]]
    assert "others}" not in sanitized_bib(library).replace(" and others", "")


# --- LaTeX titles through a whole Sphinx build ---------------------------------------------------

TITLES = {
    "literate": (
        r"Literate {\TeX} and \LaTeX{} for \mbox{GPT-3}: Stochastic \(\lambda\)-calculi and the $\aleph$ project",
        "Literate TeX and LaTeX for GPT-3: Stochastic λ-calculi and the ℵ project",
    ),
    "accents": (
        r"M\"{u}ller and {\'e}t\'e with \BibTeX\ and \textsc{SmallCaps}",
        "Müller and été with BibTeX and SmallCaps",
    ),
    "roles": (
        r"\emph{Big} models at \url{https://example.org/x} and \[x+y\] too",
        "Big models at https://example.org/x and x+y too",
    ),
}
REFS = "\n".join(
    f"@article{{{key},\n  title = {{{latex}}},\n  author = {{Alpha, Ann and et al.}},\n"
    # An abstract of its own per entry: entries with one abstract are one work, shown on one page.
    f"  journaltitle = {{J. of Tests}},\n  date = {{2019-05-01}},\n  abstract = {{{ABSTRACT} Case {key}.}},\n}}\n"
    for key, (latex, _) in TITLES.items()
) + (
    "@book{hutter2019automl,\n  editor = {Hutter, Frank and Kotthoff, Lars},\n  title = {Automated Machine Learning},\n"
    "  publisher = {Springer},\n  year = {2019},\n}\n"
    "@inproceedings{s,\n  title = {W},\n  author = {Smith, A},\n  year = {2021},\n}\n"
    "@phdthesis{th,\n  title = {A Thesis},\n  author = {Doe, Jane},\n  year = {2018},\n}\n"
    "@software{sw,\n  title = {A Tool},\n  author = {Roe, Rick},\n  year = {2022},\n  url = {https://example.org/tool},\n}\n"
)


def _project(tmp: Path) -> Path:
    (tmp / "conf").mkdir(parents=True)
    shutil.copy(TOPICS, tmp / "conf" / "topics.toml")
    (tmp / "conf" / "readinglist.toml").write_text('[site]\ntitle = "Library"\n', encoding="utf-8")
    (tmp / "docs").mkdir()
    shutil.copy(SEEDS / "docs" / "conf.py", tmp / "docs" / "conf.py")
    (tmp / "refs.bib").write_text(REFS, encoding="utf-8")
    return tmp


def _words(node: Tag) -> str:
    for math in node.find_all("math"):
        math.replace_with(math.get_text())  # what a reader (and Pagefind) reads: λ, not \lambda
    return " ".join(node.get_text().replace("¶", "").split())


@pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API modifications")
def test_a_library_of_real_entries_builds_without_warnings_and_titles_agree(tmp_path: Path) -> None:
    root = _project(tmp_path)
    out, log = root / "html", root / "warnings.txt"
    status = build_main(["-b", "html", "-n", "-W", "--keep-going", "-q", "-w", str(log), str(root / "docs"), str(out)])
    assert (status, log.read_text(encoding="utf-8")) == (0, "")
    listed = {item["key"]: item for item in json.loads((out / "records.json").read_text(encoding="utf-8"))}
    bibliography = soup(out / "bibliography.html")
    for key, (latex, expected) in TITLES.items():
        assert to_text(latex) == expected
        assert listed[key]["title"] == expected and listed[key]["authors"] == ["Ann Alpha"]
        page = soup(out / "papers" / f"{key}.html")
        assert _words(find(page, "h1")) == expected
        entry = find(bibliography, id=f"cite-{key}")
        assert f"Ann Alpha and others. {expected}. J. of Tests, May 2019." in _words(entry)  # plain style's "et al."
        body = _words(find(page, attrs={"data-pagefind-body": True}))
        assert "Type: Journal article · Venue: J. of Tests" in body and "Year: 2019" in body
    raw = ("\\lambda", "\\aleph", "\\TeX", "\\LaTeX", "\\mbox", "\\textsc", "\\(", "\\[", "\\emph", "\\url")
    for html in out.rglob("*.html"):  # every page a reader or Pagefind reads: topic cards, lists, search
        text = _words(soup(html))
        assert not [r for r in raw if r in text], html
    hutter = _words(find(bibliography, id="cite-hutter2019automl"))
    assert "Frank Hutter and Lars Kotthoff, editors" in hutter


def test_generate_reports_each_changed_entry_once_against_its_line(tmp_path: Path) -> None:
    config = load_config(_project(tmp_path))
    lines = generate.run(config).lines(verbose=True)  # -v: each note; a build says how many (test_quiet_build.py)
    at = REFS[: REFS.index("@inproceedings{s,")].count("\n") + 1
    assert [line for line in lines if ": s: " in line] == [
        f"refs.bib:{at}: s: @inproceedings has no booktitle: the bibliography lists it as @misc"
    ]
    assert not [line for line in lines if "hutter2019automl" in line or "literate" in line]
    assert generate.run(config).lines() == ["inputs unchanged since the last generate: 0 files written"]


def test_a_users_keywords_place_a_paper_in_a_topic() -> None:
    work = Work("k", "A title", abstract="We describe a method.", keywords=("compiler", "kernel fusion"))
    assert _library(work).by_key()["k"].topics != _library(replace(work, keywords=())).by_key()["k"].topics
