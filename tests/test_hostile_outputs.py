"""Every output, over hostile refs.bib entries: one input policy (issue 26, parts 4-6).

Driven by the registries, not by a list of outputs: the generator runs every renderer that
``registry.KINDS`` names (pages, downloads, feeds, charts, records.json), each file is checked by
its type, each paper's Cite menu by ``cite.FORMATS``, and a kind the registry gains is covered
here without a new test (``test_every_kind_is_written`` fails until its files appear). The
entries are typed into refs.bib as a person could: years no chart may use (``²⁰²⁰``, ``6``,
``99999``, ``2020a``, ``MMXX``), markup, unsafe characters, unsafe links, absolute paths.
Each builds or fails with one line.
"""

from __future__ import annotations

import ast
import contextlib
import gzip
import importlib.resources
import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from itertools import cycle
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser as BibParser

from hostile_kit import FRAGMENTS, HOSTILE_YEARS, records_project, sphinx_build
from readinglist.chars import strip_unsafe
from readinglist.config import load_config
from readinglist.errors import ReadingListError
from readinglist.model import Library, Paper, Work
from readinglist.render import accessors, registry
from readinglist.render.cite import FORMATS
from readinglist.render.inputs import Inputs
from readinglist.site import generate
from readinglist.site.manifest import open_state, read_manifest
from readinglist.years import EARLIEST, latest, plausible_year

TYPES = ["article", "inproceedings", "book", "phdthesis", "misc", "online", "web_page", "proceedings"]
# Field values as typed: an unbalanced brace makes an entry refs.bib skips, with one line.
TYPED = st.sampled_from(FRAGMENTS)
LATEX = st.sampled_from(["$x^2$", "\\emph{x}", '{\\"o}', "\\url{javascript:alert(1)}", "{Braced}", "\\&"])
TEXT = st.lists(st.one_of(st.text(max_size=8), TYPED, LATEX), max_size=4).map("".join).map(strip_unsafe)
LINKS = st.sampled_from(["https://x.org/a", "javascript:alert(1)", "doi:10.1145/1", "/home/ann/x.pdf", "10.1/x y"])
SECRET = "/home/someone-private"  # a user's folder, as a reference manager writes it


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, str]]:
    """A few hand-typed entries with hostile years and field text, and one sane entry (charts need a year)."""
    out = [{"type": "article", "title": "A sane paper", "author": "Ann Lee", "journal": "J", "year": "2019"}]
    for _ in range(draw(st.integers(1, 3))):
        entry = {"type": draw(st.sampled_from(TYPES)), "title": "T " + draw(TEXT), "author": "Bo " + draw(TEXT)}
        entry["year"] = draw(st.sampled_from(HOSTILE_YEARS) | st.text("0123456789²⁰٢", max_size=6))
        entry |= {name: draw(TEXT) for name in draw(st.sets(st.sampled_from(["journal", "booktitle", "note"])))}
        entry |= {name: draw(LINKS) for name in draw(st.sets(st.sampled_from(["url", "doi", "file", "date"])))}
        out.append(entry)
    return out


def _bib(root: Path, found: list[dict[str, str]]) -> str:
    """refs.bib text: each entry with a provenance naming a file by absolute paths (the project's own, a user's)."""
    out = []
    for n, entry in enumerate(found):
        kind, fields = entry["type"], {k: v for k, v in entry.items() if k != "type"}
        fields["provenance"] = f"{root}/conf/sources/mine.bib:{n + 1} {{bibtex}}; {SECRET}/lib.bib:{n + 1} {{bibtex}}"
        fields["owner"] = "someone-private"  # JabRef's user name, and Mendeley's PDF on that user's disk
        fields.setdefault("file", f":{SECRET}/papers/x.pdf:PDF")
        body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items())
        out.append(f"@{kind}{{{'sane' if n == 0 else f'hand{n}'},\n{body}}}\n\n")
    return "".join(out)


def _project(root: Path, found: list[dict[str, str]]) -> Path:
    records_project(root, [])
    (root / "refs.bib").write_text(_bib(root, found), encoding="utf-8")
    notes = root / "docs" / "notes"
    notes.mkdir(parents=True)
    (notes / "sane.md").write_text("---\nstatus: to-read\ntags: [hostile]\n---\nA note.\n", encoding="utf-8")
    return root


def _generate(root: Path) -> list[str]:
    """Run the generator; what it printed to stderr, each line a one-line report naming refs.bib."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        try:
            generate.run(load_config(root))
        except ReadingListError as error:  # fails: one line
            assert "\n" not in str(error), error
            raise
    lines = [line for line in said.getvalue().splitlines() if line.strip()]
    assert all("refs.bib" in line for line in lines), lines
    return lines


@settings(
    max_examples=10,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink would generate the site many times
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(entries())
@example([{"type": "article", "title": "Sane", "author": "Ann Lee", "journal": "J", "year": "2019"}] + [
    {"type": "article", "title": f"T {y}", "author": "Bo Chen", "journal": "J", "year": y} for y in HOSTILE_YEARS
])  # fmt: skip
def test_every_output_takes_hostile_entries(
    tmp_path_factory: pytest.TempPathFactory, found: list[dict[str, str]]
) -> None:
    root = _project(tmp_path_factory.mktemp("outputs"), found)
    _generate(root)
    docs = root / "docs"
    written = sorted(read_manifest(open_state(docs)))
    records = json.loads((docs / "records.json").read_text(encoding="utf-8"))
    if any(r["key"] == "sane" for r in records):  # a broken entry may take its neighbour with it (one line)
        _assert_every_kind_is_written(written)
    for rel in written:
        _check_file(docs / rel, root)
    for rel in written:
        if registry.kind_of(rel.removesuffix(".md")) is registry.BY_NAME["paper"] and rel.endswith(".md"):
            _check_cite_menu((docs / rel).read_text(encoding="utf-8"))
    _check_years(docs)


def _assert_every_kind_is_written(written: list[str]) -> None:
    """Each kind of the registry that hostile entries and a tagged note can have has files (the
    related data only with related papers)."""
    kinds = {kind.name for rel in written if (kind := registry.kind_of(rel.rsplit(".", 1)[0]))}
    expected = {kind.name for kind in registry.KINDS} - {"related data"}
    assert expected <= kinds, expected - kinds


def _check_file(path: Path, root: Path) -> None:
    """Parses as its type; holds no unsafe character, no path of the build folder and no user's folder."""
    text = path.read_text(encoding="utf-8")
    assert strip_unsafe(text) == text, path
    assert str(root) not in text and SECRET not in text and "someone-private" not in text, path
    if path.suffix == ".md" and text.startswith("---\n"):
        yaml.safe_load(text[4 : text.index("\n---\n", 4)])
    elif path.suffix == ".json":
        json.loads(text)
    elif path.suffix == ".bib":
        BibParser().parse_string(text)
    elif path.suffix in {".xml", ".svg"}:
        ET.fromstring(text.encode("utf-8"))


CITE = re.compile(r"^(`{3,})\{readinglist-cite\}\n(.*?)^\1$", re.M | re.S)  # a longer fence around backticks


def _check_cite_menu(page: str) -> None:
    """The menu's tabs are the registry's formats, in order; the CSL-JSON tab parses, with a plausible year."""
    [(_, block)] = CITE.findall(page)
    tabs = [json.loads(line) for line in block.splitlines() if line.strip()]
    labels = [f.label for f in FORMATS]
    assert [t["label"] for t in tabs] == [label for label in labels if label in {t["label"] for t in tabs}]
    assert {"BibTeX", "CSL-JSON", "RIS"} <= {t["label"] for t in tabs}
    [item] = json.loads(next(t["text"] for t in tabs if t["label"] == "CSL-JSON"))
    for parts in item.get("issued", {}).get("date-parts", []):
        assert plausible_year(parts[0]) == parts[0]


YEAR_SPAN = re.compile(r"(\d+)–(\d+)")


def _check_years(docs: Path) -> None:
    """records.json, the landing page's range and every chart use plausible years only."""
    for record in json.loads((docs / "records.json").read_text(encoding="utf-8")):
        assert record["year"] is None or EARLIEST <= record["year"] <= latest(), record
    spans = YEAR_SPAN.findall((docs / "index.md").read_text(encoding="utf-8"))
    spans += [s for svg in (docs / "charts").rglob("*.svg") for s in YEAR_SPAN.findall(svg.read_text("utf-8"))]
    assert all(EARLIEST <= int(a) <= int(b) <= latest() for a, b in spans), spans


@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink would build the site many times
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(entries())
def test_hostile_entries_build_with_no_warning(
    tmp_path_factory: pytest.TempPathFactory, found: list[dict[str, str]]
) -> None:
    """Every page kind through Sphinx with ``-n -W``: the generated Markdown is valid wherever the text lands."""
    root = _project(tmp_path_factory.mktemp("build"), found)
    status, warnings, out = sphinx_build(root)
    assert (status, warnings) == (0, "")
    assert not [path for path, data in _published(out) if SECRET.encode() in data or str(root).encode() in data]


# --- one real build: every page kind through Sphinx with -n -W, and no private path in the site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str, Path]:
    found = [{"type": "article", "title": "Sane", "author": "Ann Lee", "journal": "J", "year": "2019"}]
    found += [
        {"type": t, "title": f"Year {y}", "author": "Bo Chen and Cy Diaz", "journal": "J", "year": y, "url": link}
        for y, t, link in zip(HOSTILE_YEARS, cycle(TYPES), cycle(["https://x.org/a", "javascript:alert(1)"]))
    ]
    root = _project(tmp_path_factory.mktemp("site"), found)
    status, warnings, out = sphinx_build(root)
    return root, status, warnings, out


def test_hostile_years_build_with_no_warning(built: tuple[Path, int, str, Path]) -> None:
    _, status, warnings, out = built
    assert (status, warnings) == (0, "")
    index = (out / "index.html").read_text(encoding="utf-8")
    for a, b in YEAR_SPAN.findall(index):
        assert EARLIEST <= int(a) <= int(b) <= latest()
    records = json.loads((out / "records.json").read_text(encoding="utf-8"))
    assert {r["key"]: r["year"] for r in records}["sane"] == 2019
    assert all(r["year"] in (None, 2019, 2020, 2021) for r in records), records


def _published(out: Path) -> list[tuple[Path, bytes]]:
    """Every file of the site as bytes, Pagefind's gzipped files unpacked. Not Sphinx's cache, which
    a plain ``sphinx-build`` without ``-d`` keeps in the site (``readinglist build`` keeps it apart,
    and the Pages workflow refuses a site with a ``.doctrees``: docs/develop/reliability.md)."""
    files = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and ".doctrees" not in p.relative_to(out).parts):
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        files.append((path, data))
    return files


def test_no_published_file_holds_the_build_folder_or_a_user_folder(built: tuple[Path, int, str, Path]) -> None:
    """Issue 26, part 5: provenance with absolute paths in refs.bib, a reference manager's ``file``
    and ``owner``: the site names a source file by its name, never where it is on a machine."""
    root, status, _, out = built
    assert status == 0
    assert (out / "records.json").is_file()
    leaks = [
        path.relative_to(out).as_posix()
        for path, data in _published(out)
        for secret in (str(root).encode(), SECRET.encode(), b"someone-private")
        if secret in data
    ]
    assert leaks == []
    records = json.loads((out / "records.json").read_text(encoding="utf-8"))
    assert {s["file"] for r in records for s in r["sources"]} == {"mine.bib", "lib.bib"}


# --- the accessors themselves (render/accessors.py)


@pytest.mark.parametrize(
    ("written", "year", "text"),
    [("2020", 2020, "2020"), (" 2021 ", 2021, "2021"), ("²⁰²⁰", None, ""), ("٢٠٢٠", None, ""), ("6", None, ""),
     ("99999", None, ""), ("0", None, ""), ("2020a", None, "2020a"), ("MMXX", None, "MMXX"), ("", None, "")],
)  # fmt: skip
def test_a_year_is_plausible_or_unknown_and_words_stay_words(written: str, year: int | None, text: str) -> None:
    work = Work("k", "T", extra=(("year", written),))
    assert accessors.year_of(replace(work, year=plausible_year(written))) == year
    assert accessors.year_text(written) == text


@given(st.one_of(st.none(), st.integers(), st.sampled_from([6, 0, 1399, 1400, 2020, 99999])))
def test_year_of_is_always_plausible_or_none(year: int | None) -> None:
    found = accessors.year_of(Work("k", "T", year=year))
    assert found is None or EARLIEST <= found <= latest()


@pytest.mark.parametrize(
    ("stored", "published"),
    [("conf/sources/mine.bib", "conf/sources/mine.bib"), ("mine.bib", "mine.bib"),
     ("/home/ann/lib/mine.bib", "mine.bib"), ("C:\\Users\\ann\\mine.bib", "mine.bib"), ("~/mine.bib", "mine.bib"),
     ("../../ann/mine.bib", "mine.bib"), ("conf/../../x/mine.bib", "mine.bib"), ("\\\\share\\mine.bib", "mine.bib")],
)  # fmt: skip
def test_a_source_file_is_published_by_its_place_in_the_project_or_its_name(stored: str, published: str) -> None:
    assert accessors.public_file(stored) == published


def test_every_renderer_is_given_plausible_years() -> None:
    """``Inputs`` normalises its library: a renderer added to the registry cannot see a year 6."""
    papers = tuple(
        Paper(Work(f"k{y}", "T", year=y), f"k{y}", (), False, "", (), "", ()) for y in (6, 2019, 99999, None)
    )
    library = Library(papers, (), (), {})
    given_years = [p.work.year for p in Inputs(library, {}, {}, {}, []).library.papers]
    assert given_years == [None, 2019, None, None]
    sane = Library(papers[1:2], (), (), {})
    assert Inputs(sane, {}, {}, {}, []).library is sane  # nothing to change: the same object, caches hold


DIGIT_TESTS = {"isdigit", "isnumeric", "isdecimal"}  # each takes "²⁰²⁰" for digits; int() then refuses it


def test_no_output_reads_a_year_by_its_own_rule() -> None:
    """The regression's shape (``fields["year"].isdigit()``, then ``int()``) is left to the accessors."""
    package = Path(str(importlib.resources.files("readinglist")))
    found = [
        f"{path.relative_to(package)}:{node.lineno}"
        for folder in ("render", "site")
        for path in sorted((package / folder).rglob("*.py"))
        if path.name != "accessors.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in DIGIT_TESTS
    ]
    assert found == []
