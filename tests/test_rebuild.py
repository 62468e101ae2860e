"""Idempotent builds: building twice makes Sphinx find nothing outdated; a note edit re-reads one page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from hostile_kit import dump_record, indexed_titles, records_project, retitle


def _run(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    status = build_main(["-N", "-b", "html", "-n", "-W", "--keep-going", str(root / "docs"), str(root / "html")])
    out = capsys.readouterr().out
    assert status == 0, out
    return out


def test_second_build_finds_nothing_outdated_and_a_note_edit_rereads_one_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        dump_record(n, f"Paper {n} on pipelines", f"We propose system {n} for pipelines.", "Ann Lee") for n in range(3)
    ]
    root = records_project(tmp_path, records)
    first = _run(root, capsys)
    assert not re.search(r"\b0 files written", first)
    second = _run(root, capsys)
    assert "0 files written" in second
    assert "updating environment: 0 added, 0 changed, 0 removed" in second
    assert "no targets are out of date" in second
    (root / "docs" / "notes").mkdir(exist_ok=True)
    (root / "docs" / "notes" / "hostile1.md").write_text("A note about pipelines.\n", encoding="utf-8")
    third = _run(root, capsys)
    assert "0 added, 1 changed, 0 removed" in third
    (root / "docs" / "notes" / "hostile1.md").write_text("A better note.\n", encoding="utf-8")
    fourth = _run(root, capsys)
    assert "0 files written" in fourth  # the page includes the note; only Sphinx sees the change
    assert "0 added, 1 changed, 0 removed" in fourth


def test_pagefind_reindexes_only_when_a_page_was_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = [
        dump_record(n, f"Paper {n} on graphs", f"We propose system {n} for graphs.", "Ann Lee") for n in range(2)
    ]
    root = records_project(tmp_path, records)
    # Two papers: one shard of papers (pagefind-papers/0/), and the site shard (pagefind/).
    papers, rest = (root / "html" / bundle / "pagefind-entry.json" for bundle in ("pagefind-papers/0", "pagefind"))
    _run(root, capsys)
    first, kept = papers.stat().st_mtime_ns, rest.stat().st_mtime_ns
    assert "Pagefind index kept" in _run(root, capsys)  # nothing written: the index stays
    assert papers.stat().st_mtime_ns == first
    (root / "docs" / "notes").mkdir(exist_ok=True)
    (root / "docs" / "notes" / "hostile1.md").write_text("A note about lattices.\n", encoding="utf-8")
    assert "Pagefind index kept" not in _run(root, capsys)
    assert papers.stat().st_mtime_ns != first  # the paper's shard is indexed again
    assert rest.stat().st_mtime_ns == kept  # the other pages did not change: their shard is kept
    assert "lattices" in (root / "html" / "papers" / "hostile1.html").read_text(encoding="utf-8")


def test_a_deleted_page_leaves_the_site_and_the_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = records_project(tmp_path, [dump_record(1, "Paper 1 on graphs", "We propose graphs.", "Ann Lee")])
    extra = root / "docs" / "extra.md"
    extra.write_text("---\norphan: true\n---\n# Quokka habitats\n\nQuokkas.\n", encoding="utf-8")
    _run(root, capsys)
    assert "Quokka habitats" in indexed_titles(root / "html")
    extra.unlink()
    _run(root, capsys)
    assert not (root / "html" / "extra.html").exists()  # Sphinx leaves it; the extension removes it
    assert "Quokka habitats" not in indexed_titles(root / "html")


def test_readinglist_build_indexes_after_sphinx_exits(tmp_path: Path) -> None:
    from readinglist.cli import main
    from readinglist.site.search import STALE

    root = records_project(tmp_path, [dump_record(1, "Paper on graphs", "We propose a system for graphs.", "Ann Lee")])
    out = tmp_path / "site"
    assert main(["--root", str(root), "build", "--out", str(out)]) == 0
    assert (out / "pagefind" / "pagefind-entry.json").is_file() and not (out / STALE).exists()
    assert main(["--root", str(root), "build", "--no-search", "--out", str(tmp_path / "bare")]) == 0
    assert not (tmp_path / "bare" / "pagefind").exists()


def test_a_build_without_search_leaves_the_index_to_the_next_build(tmp_path: Path) -> None:
    from readinglist.cli import main
    from readinglist.site.search import STALE

    root = records_project(
        tmp_path, [dump_record(1, "Paper 1 on graphs", "We propose a system for graphs.", "Ann Lee")]
    )
    out = tmp_path / "site"
    assert main(["--root", str(root), "build", "--out", str(out)]) == 0
    retitle(root, 1, "Lattice sieving at scale")
    assert main(["--root", str(root), "build", "--no-search", "--out", str(out)]) == 0
    assert (out / STALE).is_file()  # the pages are newer than the index
    assert main(["--root", str(root), "build", "--out", str(out)]) == 0
    assert "Lattice sieving at scale" in indexed_titles(out) and not (out / STALE).exists()


def test_a_build_that_failed_on_a_warning_fails_again_until_it_is_fixed(tmp_path: Path) -> None:
    """Sphinx keeps its environment after a warning failed the build (--keep-going): the next build
    must read that page again, not pass with the fault still in the note."""
    from readinglist.cli import main

    root = records_project(tmp_path, [dump_record(1, "Paper on graphs", "We propose a system for graphs.", "Ann Lee")])
    out = tmp_path / "site"
    assert main(["--root", str(root), "build", "--no-search", "--out", str(out)]) == 0
    page = next((root / "docs" / "papers").glob("*.md"))
    note = root / "docs" / "notes" / page.name
    note.parent.mkdir(exist_ok=True)
    note.write_text("See {ref}`nowhere`.\n", encoding="utf-8")
    assert main(["--root", str(root), "build", "--no-search", "--out", str(out)]) == 1
    assert main(["--root", str(root), "build", "--no-search", "--out", str(out)]) == 1
    note.write_text("Fixed.\n", encoding="utf-8")
    assert main(["--root", str(root), "build", "--no-search", "--out", str(out)]) == 0


def test_a_status_change_rereads_its_paper_page_and_the_listings_that_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        dump_record(n, f"Paper {n} on caches", f"We propose system {n} for caches.", "Ann Lee") for n in range(3)
    ]
    root = records_project(tmp_path, records)
    docs = root / "docs"
    note = docs / "notes" / "hostile1.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("---\nstatus: to-read\n---\nA note.\n", encoding="utf-8")
    _run(root, capsys)
    author_page = root / "html" / "authors" / "l.html"  # Ann Lee's
    assert _status_shown(author_page) == {
        "Paper 0 on caches": "",
        "Paper 1 on caches": "to read",
        "Paper 2 on caches": "",
    }
    [topic] = [p for p in (root / "html" / "topics").glob("*.html") if "Paper 1 on caches" in p.read_text()]
    assert _badges(topic) == {"Paper 1 on caches": "To read"} and "Progress: 1 to read." in topic.read_text()
    before = {p: p.read_bytes() for p in docs.rglob("*.md")}
    note.write_text("---\nstatus: read\n---\nA note.\n", encoding="utf-8")
    out = _run(root, capsys)
    rewritten = {
        p.relative_to(docs).with_suffix("").as_posix()
        for p in docs.rglob("*.md")
        if before.get(p) != p.read_bytes() and "notes" not in p.parts
    }
    reread = set(re.findall(r"reading sources\.\.\. \[\s*\d+%\] (\S+)", out))
    assert "papers/hostile1" in reread and "queue" in reread  # no longer to read
    assert reread == rewritten  # Sphinx reads exactly what the generator rewrote
    assert {d for d in reread if d.startswith("papers/")} == {"papers/hostile1"}
    # The author page shows the new status, written again without being read again (liststatus.py).
    written = set(re.findall(r"writing output\.\.\. \[\s*\d+%\] (\S+)", out))
    assert "authors/l" in written and "authors/l" not in reread
    assert _status_shown(author_page) == {"Paper 0 on caches": "", "Paper 1 on caches": "read", "Paper 2 on caches": ""}
    # So do the topic page's card and progress line.
    docname = f"topics/{topic.stem}"
    assert docname in written and docname not in reread
    assert _badges(topic) == {"Paper 1 on caches": "Read"} and "Progress: 1 read." in topic.read_text()
    assert "authors/l" not in set(re.findall(r"writing output\.\.\. \[\s*\d+%\] (\S+)", _run(root, capsys)))


def _badges(page: Path) -> dict[str, str]:
    """Each card's status badge on a topic page, by the card's title."""
    cards = re.findall(
        r'aria-level="\d"><strong>([^<]*)</strong></p>\n<p class="sd-card-text">(.*?)<em>', page.read_text()
    )
    return {title: re.sub(r"<[^>]*>", "", badge).strip() for title, badge in cards if badge}


def _status_shown(page: Path) -> dict[str, str]:
    """Each listed paper's status on an author page: the text after its link and year."""
    items = re.findall(
        r'<li><p><a class="reference internal" href="[^"]*">([^<]*)</a>([^<]*)</p></li>', page.read_text()
    )
    return {title: re.sub(r"^( \(\d+\))?( — )?", "", rest) for title, rest in items}
