"""Extension points (issue 29, part 4): a new import format is its reader module, one row of
``sources.FORMATS`` and one fixture; a new page kind is its module, one row of
``render/registry.KINDS`` and its stored sample. Nothing else is edited: the help, a new list's
source globs and READMEs, the "About this record" words, the generator, the landing page's menu,
the manifest, ``.gitignore`` and the stored-sample check all come from the tables.

The test does what a contributor does, in a copy of the package (run in a subprocess with the copy
first on ``PYTHONPATH``): it writes a toy format and a toy page kind, counts the files that differ
from this checkout, and checks every place that must know of them. ``test_a_place_written_by_hand_again_fails``
hard-codes one of those places again, as it was before, and shows the check fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import readinglist
from conftest import FIXTURES, copy_seeds
from readinglist import sources

PACKAGE = Path(readinglist.__file__).resolve().parent

# The toy import format: one record a line, "TOY title | authors; ... | year".
TOY_READER = '''"""A toy import format: one record a line, ``TOY title | author; author | year``."""

from __future__ import annotations

from pathlib import Path

from ..model import RawRecord, ReadResult, Skip, SourceRef
from .text import read_text

KIND = "toy"


def looks_like(head: str, path: Path) -> bool:
    return head.lstrip().startswith("TOY ")


def read(path: Path, label: str) -> ReadResult:
    return read_string(read_text(path, label), label)


def read_string(text: str, label: str) -> ReadResult:
    records, skipped = [], []
    for n, line in enumerate(text.split("\\n"), 1):
        parts = [part.strip() for part in line.removeprefix("TOY ").split("|")]
        if len(parts) == 3 and parts[2].isdigit():
            authors = tuple(name.strip() for name in parts[1].split(";"))
            source = SourceRef(label, n, kind=KIND)
            records.append(RawRecord(source, title=parts[0], authors=authors, year=int(parts[2])))
        elif line.strip():
            skipped.append(Skip(label, n, "", "expected TOY title | authors | year"))
    return ReadResult(tuple(records), tuple(skipped))
'''
# The row as CONTRIBUTING.md writes one.
TOY_ROW = '    Format("toy", kind="toy", name="Toy", files="Toy catalogue", shape="TOY lines", suffixes=(".toy",)),\n'
TOY_EXPORT = "TOY Fast Pipelines for Toy Training | Ann Smith; Bo Chen | 2021\n"
TOY_TITLE = "Fast Pipelines for Toy Training"

# The toy page kind: one page, in a folder of its own, in the landing page's menu.
TOY_RENDERER = '''"""A toy page kind: one page in docs/toys/."""

from __future__ import annotations

from .escape import md_text
from .inputs import Inputs


def toy_pages(inputs: Inputs) -> dict[str, str]:
    return {"toys/index.md": f"# Toys\\n\\n{md_text('A page of the toy kind')}\\n"}
'''
TOY_KIND = (
    '    Kind("toy", folder="toys", menu="toys/index", search=Search.NONE, render="toys:toy_pages",'
    ' sample="toys/index.md"),\n'
)
TOY_SAMPLE = "# Toys\n\nA page of the toy kind\n"  # what `pytest --update-fixtures` would store


@dataclass
class Toy:
    """A copy of the package (``src/readinglist``) and of the stored pages, with what was written into it."""

    root: Path
    written: dict[str, list[str]] = field(default_factory=dict)  # extension -> files it touched

    @property
    def src(self) -> Path:
        return self.root / "src"

    @property
    def package(self) -> Path:
        return self.src / "readinglist"

    @property
    def pages(self) -> Path:
        return self.root / "fixtures" / "pages"

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(self.src)}
        done = subprocess.run(
            [sys.executable, *args], cwd=cwd or self.root, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    def readinglist(self, *args: str, cwd: Path | None = None) -> str:
        return self.run("-m", "readinglist", *args, cwd=cwd).stdout

    def python(self, code: str) -> Any:
        return json.loads(self.run("-c", code).stdout)


def _copy(root: Path) -> Toy:
    toy = Toy(root)
    shutil.copytree(PACKAGE, toy.package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FIXTURES / "pages", toy.pages)
    return toy


def _write(toy: Toy, extension: str, path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    toy.written.setdefault(extension, []).append(path.relative_to(toy.root).as_posix())


def _add_row(toy: Toy, extension: str, module: str, table: str, row: str) -> None:
    """One row more in a table of the package: the line after ``<table> = (``."""
    path = toy.package / module
    text = path.read_text(encoding="utf-8")
    assert text.count(f"\n{table} = (\n") == 1, f"{module} has no table {table}"
    _write(toy, extension, path, text.replace(f"\n{table} = (\n", f"\n{table} = (\n{row}", 1))


def add_toy_format(toy: Toy) -> Path:
    """What a contributor writes for a new import format; the fixture's path."""
    _write(toy, "format", toy.package / "sources" / "toy.py", TOY_READER)
    _add_row(toy, "format", "sources/__init__.py", "FORMATS", TOY_ROW)
    fixture = toy.root / "fixtures" / "exports" / "toy" / "mine.toy"
    _write(toy, "format", fixture, TOY_EXPORT)
    return fixture


def add_toy_kind(toy: Toy) -> None:
    """What a contributor writes for a new page kind."""
    _write(toy, "page kind", toy.package / "render" / "toys.py", TOY_RENDERER)
    _add_row(toy, "page kind", "render/registry.py", "KINDS", TOY_KIND)
    _write(toy, "page kind", toy.pages / "toys" / "index.md", TOY_SAMPLE)


def changed_files(toy: Toy) -> set[str]:
    """The files of the copy that differ from this checkout (package and stored pages), new ones too."""
    changed = set()
    for base, copy in ((PACKAGE, toy.package), (FIXTURES / "pages", toy.pages)):
        for path in copy.rglob("*"):
            original = base / path.relative_to(copy)
            if path.is_file() and (not original.is_file() or original.read_bytes() != path.read_bytes()):
                changed.add(path.relative_to(toy.root).as_posix())
    return changed


# The places that must know of the toy format.


def check_help(toy: Toy) -> None:
    where = toy.python("import json, readinglist; print(json.dumps(readinglist.__file__))")
    assert str(where).startswith(str(toy.package)), where  # the copy runs, not this checkout
    assert "Toy catalogue" in " ".join(toy.readinglist("import", "--help").split())
    assert "Toy catalogue" in " ".join(toy.readinglist("--help").split())
    (toy.root / "unknown.txt").write_text("neither format\n", encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "readinglist", "import", "--dry-run", "--store", "x.bib", "unknown.txt"],
        cwd=toy.root, env={**os.environ, "PYTHONPATH": str(toy.src)}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "Toy catalogue (TOY lines)" in refused.stderr, refused.stderr  # the error on a file no reader claims


def new_list(toy: Toy, fixture: Path) -> Path:
    """A new list, with the toy export in its conf/sources/."""
    project = toy.root / "list"
    toy.readinglist("init", str(project))
    shutil.copy(fixture, project / "conf" / "sources" / fixture.name)
    return project


def check_scaffold(toy: Toy, project: Path) -> None:
    code = f"""import json, pathlib
from readinglist.config import load_config
print(json.dumps([p.name for p in load_config(pathlib.Path({str(project)!r})).source_paths()]))"""
    assert toy.python(code) == ["mine.toy"]  # picked up by the new list's globs, and its README is not
    for readme in ("README.md", "conf/sources/README.md"):
        assert "Toy catalogue" in " ".join((project / readme).read_text(encoding="utf-8").split()), readme


def check_import(toy: Toy, project: Path) -> None:
    """A bare ``readinglist import`` in the new list reads the toy export into refs.bib."""
    toy.readinglist("import", cwd=project)
    refs = (project / "refs.bib").read_text(encoding="utf-8")
    assert TOY_TITLE in refs and "mine.toy:1 {toy}" in refs, refs


def check_about(toy: Toy, project: Path) -> None:
    """The words of the About block, for a record the toy reader read."""
    code = f"""import json
from readinglist.model import Work
from readinglist.render.about import reader_source
from readinglist.sources import read_source
record = read_source(__import__("pathlib").Path({str(project / "conf" / "sources" / "mine.toy")!r}), "mine.toy").records[0]
print(json.dumps(reader_source(Work(key="k", title=record.title, sources=(record.source,)))))"""  # noqa: E501
    assert toy.python(code) == "Toy import"


# The places that must know of the toy page kind.


def check_kind(toy: Toy) -> Path:
    """The seeds generated with the toy kind: its page is written, listed and owned."""
    seeds = copy_seeds(toy.root / "seeds")
    toy.readinglist("--root", str(seeds), "generate")
    docs = seeds / "docs"
    assert (docs / "toys" / "index.md").is_file()
    assert "toys/index" in (docs / "index.md").read_text(encoding="utf-8")  # the landing page's menu
    code = "import json; from readinglist.render import registry as r; print(json.dumps([r.kind_of('toys/index').name, r.may_write('toys/index.md'), r.git_ignores(), r.samples()]))"  # noqa: E501
    name, owned, ignores, samples = toy.python(code)
    assert name == "toy" and owned and "docs/toys/" in ignores  # the manifest owns it; a new list ignores it
    assert samples["toy"] == "toys/index.md"
    return docs


def check_sample(toy: Toy, docs: Path) -> None:
    """The stored-sample check of tests/test_stored_pages.py, over the copy's table: every kind of
    MyST page names a stored sample, and the generated page is that sample, byte for byte."""
    code = "import json; from readinglist.render import registry as r; print(json.dumps([[k.name, k.sample] for k in r.KINDS if '.md' in k.suffixes]))"  # noqa: E501
    kinds = toy.python(code)
    assert isinstance(kinds, list) and ["toy", "toys/index.md"] in kinds
    for name, sample in kinds:
        assert sample, f"the kind {name} names no stored sample"
    assert (docs / "toys" / "index.md").read_bytes() == (toy.pages / "toys" / "index.md").read_bytes()


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Toy:
    toy = _copy(tmp_path_factory.mktemp("toy"))
    add_toy_format(toy)
    add_toy_kind(toy)
    return toy


def test_each_extension_touches_at_most_three_files(toy: Toy) -> None:
    assert changed_files(toy) == {f for files in toy.written.values() for f in files if "/exports/" not in f}
    assert {name: len(files) for name, files in toy.written.items()} == {"format": 3, "page kind": 3}


def test_a_toy_format_is_listed_globbed_imported_and_named(toy: Toy) -> None:
    check_help(toy)
    project = new_list(toy, toy.root / "fixtures" / "exports" / "toy" / "mine.toy")
    check_scaffold(toy, project)
    check_import(toy, project)
    check_about(toy, project)


def test_a_toy_page_kind_is_rendered_registered_and_sample_checked(toy: Toy) -> None:
    check_sample(toy, check_kind(toy))


# A derived place written by hand again, as it was before the tables: its check fails.
HARD_CODED = {  # place: (module, the derived text, the text by hand, what the failure names)
    "help": ("cli.py", "help=formats)", 'help="BibTeX, BibLaTeX, CSL-JSON or dump files")', "Toy catalogue"),
    "scaffold": ("scaffold/conf/readinglist.toml.tmpl", "{{ source_globs }}", '["conf/sources/*.bib"]', "mine.toy"),
    "about": ("render/about.py", "about_words(ref.kind)", '{"bibtex": "BibTeX"}.get(ref.kind, ref.kind)', "Toy import"),
    "menu": ("render/registry.py", "[kind.menu for kind in KINDS if kind.menu]", '["years"]', "toys/index"),
}


@pytest.mark.parametrize("place", sorted(HARD_CODED))
def test_a_place_written_by_hand_again_fails(tmp_path: Path, place: str) -> None:
    toy = _copy(tmp_path)
    fixture = add_toy_format(toy)
    add_toy_kind(toy)
    module, derived, by_hand, named = HARD_CODED[place]
    path = toy.package / module
    text = path.read_text(encoding="utf-8")
    assert text.count(derived) == 1, f"{module} no longer has {derived!r}: update HARD_CODED"
    path.write_text(text.replace(derived, by_hand), encoding="utf-8")
    with pytest.raises(AssertionError, match=named):
        if place == "help":
            check_help(toy)
        elif place == "menu":
            check_kind(toy)
        else:
            project = new_list(toy, fixture)
            check_scaffold(toy, project) if place == "scaffold" else check_about(toy, project)


def test_each_row_is_its_readers_kind_and_interface() -> None:
    for row in sources.FORMATS:
        reader = row.reader
        assert row.kind == reader.KIND, row.module  # the row and the module name the same kind
        assert callable(reader.looks_like) and callable(reader.read) and callable(reader.read_string)
        assert row.suffixes and all(s.startswith(".") for s in row.suffixes), row.module
    assert [row.reader for row in sources.FORMATS] == list(sources.READERS)


def test_the_table_loads_no_reader_for_the_help_the_scaffold_or_a_page() -> None:
    """The words, globs and help come from the rows: no reader (and no pybtex) is imported for them."""
    probe = (
        "import sys, readinglist.cli, readinglist.project, readinglist.render.about as a, readinglist.sources as s; "
        "s.listed(); s.source_globs(); a.about_words('bibtex'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pybtex' or m in {'readinglist.sources.' + "
        "f.module for f in s.FORMATS}))"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
