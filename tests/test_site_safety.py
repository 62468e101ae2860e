"""Issue 31: what a built site publishes. No file outside the project (a note or a page that is a
link out of it), no Sphinx doctrees or pickles, a page of its own for every tag, and the same
bytes from two clean builds, Pagefind's files included.

Two clean builds of one project, in two folders, are shared by the tests (each ~10 s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hostile_kit import dump_record, records_project
from readinglist.render.reading import tag_slug
from readinglist.site import pagefindorder
from readinglist.site.shards import ENTRY, SIZE_ENV

SECRET = "s3cr3t-outside-the-project"
TAGS = ["CON", "a/b", "a b", "index"]  # a reserved name, and two that hyphenate alike


def _project(folder: Path) -> Path:
    records = [dump_record(n, f"Paper {n} on graphs", f"We propose system {n}.", "Ann Lee") for n in range(4)]
    root = records_project(folder, records)
    notes = root / "docs" / "notes"
    notes.mkdir()
    (notes / "hostile0.md").write_text(f"---\ntags: [{', '.join(repr(t) for t in TAGS)}]\n---\nMine.\n")
    (root / "kept").mkdir()  # a note kept elsewhere in the project, linked: still fine
    (root / "kept" / "hostile1.md").write_text("---\nstatus: read\n---\nLinked inside the project.\n")
    (notes / "hostile1.md").symlink_to(root / "kept" / "hostile1.md")
    return root


def _build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, SIZE_ENV: "1"}  # a shard a paper: filters with several values in every bundle
    command = [sys.executable, "-m", "readinglist", "--root", str(root), "build", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("elsewhere") / "passwd"
    path.write_text(f"root:x:0:0:{SECRET}:/root:/bin/sh\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    built = []
    for name in ("first", "second"):
        root = _project(tmp_path_factory.mktemp(name) / "project")
        result = _build(root)
        assert result.returncode == 0, result.stderr
        built.append(root / "docs" / "_build" / "html")
    return built[0], built[1]


def _all_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_two_clean_builds_are_byte_identical(sites: tuple[Path, Path]) -> None:
    first, second = map(_all_files, sites)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    assert any("/filter/" in name for name in first)  # Pagefind's filters are among them


def test_every_pagefind_bundle_is_put_in_order(sites: tuple[Path, Path], tmp_path: Path) -> None:
    """tidy reads every bundle Pagefind wrote (else it leaves it, and builds differ only by chance):
    a copy tidied again is unchanged (and loses no file)."""
    bundles = sorted(p.parent for p in sites[0].rglob(ENTRY))
    assert bundles
    for bundle in bundles:
        copy = tmp_path / bundle.relative_to(sites[0])
        shutil.copytree(bundle, copy)
        assert pagefindorder.tidy(copy)
        assert _all_files(copy) == _all_files(bundle)


def test_the_site_holds_no_doctrees_or_pickles(sites: tuple[Path, Path]) -> None:
    site = sites[0]
    found = [p for p in site.rglob("*") if p.suffix in (".pickle", ".doctree") or p.name == ".doctrees"]
    assert found == []
    assert (site.parent / "doctrees" / "environment.pickle").is_file()  # beside the site: rebuilds stay incremental


def test_every_tag_has_a_page_of_its_own(sites: tuple[Path, Path]) -> None:
    pages = {tag: sites[0] / "tags" / f"{tag_slug(tag)}.html" for tag in TAGS}
    assert len(set(pages.values())) == len(TAGS)
    for tag, page in pages.items():
        assert f"Tag: {tag}" in page.read_text(encoding="utf-8")
    assert tag_slug("CON").lower() not in {"con", "index"} and "/" not in tag_slug("a/b")
    assert tag_slug("a-b") == tag_slug("a b") == "a-b"  # one tag written two ways, as "GPU" and "gpu"
    assert tag_slug("Machine-Learning") == "machine-learning"  # a plain tag keeps a readable name


def test_a_note_linked_inside_the_project_is_published(sites: tuple[Path, Path]) -> None:
    assert "Linked inside the project." in (sites[0] / "papers" / "hostile1.html").read_text(encoding="utf-8")


def _nowhere(root: Path) -> None:
    """The secret is in no file under the project: pages, site, doctrees, search index, caches."""
    leaked = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if SECRET.encode() in data or (path.suffix in (".pf_fragment", ".pf_index") and _gunzipped(data)):
                leaked.append(path)
    assert leaked == []


def _gunzipped(data: bytes) -> bool:
    import zlib

    try:
        return SECRET.encode() in zlib.decompress(data, wbits=31)
    except zlib.error:
        return False


@pytest.mark.parametrize(
    ("link", "where"),
    [
        ("docs/notes/hostile2.md", "file"),  # a note that links out
        ("docs/notes", "folder"),  # the notes folder itself
        ("docs/leak.md", "file"),  # a hand page that links out
    ],
)
def test_a_link_out_of_the_project_is_refused(tmp_path: Path, secret: Path, link: str, where: str) -> None:
    root = _project(tmp_path / "project")
    path = root / link
    if where == "folder":
        outside = tmp_path / "synced-notes"
        outside.mkdir()
        (outside / "hostile2.md").symlink_to(secret)
        (outside / "hostile3.md").write_text(f"---\ntags: [x]\n---\n{SECRET}\n")
        for note in path.iterdir():
            note.unlink()
        path.rmdir()
        path.symlink_to(outside)
    else:
        path.symlink_to(secret)
    result = _build(root)
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"readinglist: error: {path}") or f"{link}" in result.stderr
    assert result.stderr.endswith("[readinglist.outside-project]\n")
    _nowhere(root)


def test_the_pages_check_finds_what_resolving_each_path_finds(tmp_path: Path) -> None:
    """``notes.outside`` resolves each folder once and a file only when it is a link: it must
    name a page exactly when resolving that page alone would find it outside the project."""
    from readinglist.render.notes import outside

    root, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (root / "docs" / "papers").mkdir(parents=True)
    (elsewhere / "folder").mkdir(parents=True)
    (elsewhere / "secret.md").write_text("secret", encoding="utf-8")
    (elsewhere / "folder" / "x.md").write_text("x", encoding="utf-8")
    (root / "docs" / "papers" / "plain.md").write_text("plain", encoding="utf-8")
    (root / "docs" / "in.md").symlink_to(root / "docs" / "papers" / "plain.md")
    (root / "docs" / "out.md").symlink_to(elsewhere / "secret.md")
    (root / "docs" / "linked").symlink_to(elsewhere / "folder")
    (elsewhere / "folder" / "back.md").symlink_to(root / "docs" / "papers" / "plain.md")
    pages = [root / "docs" / rel for rel in ("papers/plain.md", "in.md", "out.md", "linked/x.md", "linked/back.md")]
    for page in pages:
        naive = not page.resolve().is_relative_to(root.resolve())
        assert (outside([pages[0], page], root) == page) == naive, page
    assert outside(pages[:2], root) is None
