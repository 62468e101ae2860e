"""Hostile citation keys in a hand-edited refs.bib cannot steer where the generator writes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from sphinx.cmd.build import build_main

from conftest import copy_seeds
from readinglist.config import load_config
from readinglist.site import generate
from readinglist.slugs import MAX_SLUG, RESERVED, is_safe, slugs

# "foo-201a6b30" is the slug "Foo" would get: a key chosen to collide with it.
HOSTILE_KEYS = ["../../escape", "..", "CON", "aux", "Foo", "foo-201a6b30", "a/b", "x\\y", "k" * 120, "naïve", "a.b"]


def _project(tmp: Path) -> Path:
    copy_seeds(tmp, refs=False, sources=False, notes=False)
    entries = "".join(
        f"@misc{{{key},\n  title = {{Paper {n}}},\n  author = {{Lee, Ann}},\n  year = {{2020}},\n}}\n\n"
        for n, key in enumerate(HOSTILE_KEYS)
    )
    (tmp / "refs.bib").write_text(entries, encoding="utf-8")
    return tmp


def test_generator_writes_only_inside_docs_and_the_site_builds(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    before = {p for p in tmp_path.rglob("*") if not p.is_relative_to(root / "docs")}
    report = generate.run(load_config(root))
    after = {p for p in tmp_path.rglob("*") if not p.is_relative_to(root / "docs")}
    assert after == before
    assert report.library is not None
    papers = sorted(p.name for p in (root / "docs" / "papers").iterdir())
    data = sorted(p.name for p in (root / "docs" / "related").iterdir())
    assert data == [name.removesuffix(".md") + ".json" for name in papers]  # each page's data file
    assert len(papers) == len(HOSTILE_KEYS) == len(report.library.papers)
    assert len({name.lower() for name in papers}) == len(papers)
    status = build_main(["-b", "html", "-n", "-W", "--keep-going", "-q", str(root / "docs"), str(root / "html")])
    assert status == 0


@given(st.lists(st.text(min_size=1, max_size=90), min_size=1, max_size=12, unique=True))
def test_slugs_are_safe_unique_and_stable(keys: list[str]) -> None:
    mapping = slugs(keys)
    values = list(mapping.values())
    assert len({v.lower() for v in values}) == len(values)
    for slug in values:
        assert is_safe(slug) and len(slug) <= MAX_SLUG and slug.lower() not in RESERVED
        assert "/" not in slug and "\\" not in slug and ".." not in slug
    assert slugs(reversed(keys)) == mapping
