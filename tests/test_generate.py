"""``readinglist generate`` on a copy of the repository layout: pages, idempotence, notes and ownership."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SEEDS, copy_seeds, generate_again, generate_in_a_process
from readinglist.config import Config
from readinglist.errors import Code, ReadingListError
from readinglist.latex import to_text
from readinglist.site import generate, manifest
from readinglist.site.records import records
from readinglist.store import bibfile

STATE = {
    ".readinglist-state",  # readinglist.cache: the one state file (issue 29)
    ".readinglist-manifest.json",
    ".readinglist-inputs",
    ".readinglist-library.pickle",
    ".readinglist-pages.json",
    ".readinglist-render.pickle",
    ".readinglist-recall.pickle",
    ".readinglist-cache.pickle",  # readinglist.cache: the one cache (issue 29)
}  # the generator's own state
HAND_WRITTEN = {"conf.py", "guide.md"} | {f"develop/{p.name}" for p in (SEEDS / "docs" / "develop").glob("*.md")}
DAPPLE = "DAPPLE: A Pipelined Data Parallel Approach for Training Large Models"


@pytest.fixture
def site(seed_config: Config) -> Config:
    return seed_config


def _manifest(config: Config) -> set[str]:
    header = manifest.open_state(config.docs_path).header
    assert header is not None
    return set(header["files"])


def _files(docs: Path) -> dict[str, Path]:
    return {p.relative_to(docs).as_posix(): p for p in docs.rglob("*") if p.is_file()}


def _dapple_key(config: Config) -> str:
    works = bibfile.load(config.bib_path).works()
    [key] = [w.key for w in works if to_text(w.title) == DAPPLE]
    return key


def _note_for(config: Config, key: str) -> Path:
    """The notes file of ``key``: the repository's own DAPPLE note, or a new one if its key differs."""
    note = config.notes_path / f"{key}.md"
    if not note.exists():
        note.write_text("---\nstatus: read\ntags: [pipelines]\n---\nMy notes.\n", encoding="utf-8")
    return note


def test_config_paths_are_relative_to_root(site: Config) -> None:
    assert site.bib_path == site.root / "refs.bib"
    assert site.docs_path == site.root / "docs"
    assert site.notes_path == site.root / "docs" / "notes"
    assert [p.name for p in site.source_paths()] == ["jun-yang.txt", "wei-lin.txt", "xin-liu.txt"]


def test_generate_writes_one_page_per_paper_and_lists_them(site: Config) -> None:
    report = generate.run(site)
    docs = site.docs_path
    keys = set(bibfile.load(site.bib_path).entries)
    papers = {p.stem for p in (docs / "papers").glob("*.md")}
    assert len(papers) == 28
    assert papers == keys
    assert report.library is not None  # a first run generates
    assert len(report.library.papers) == 28
    for name in ("index.md", "years.md", "bibliography.md", "topics/index.md", "authors/index.md"):
        assert (docs / name).is_file(), name
    topic_ids = {t.id for t in report.library.topics}
    assert {p.stem for p in (docs / "topics").glob("*.md")} == topic_ids | {"index"}
    # The manifest lists exactly the files the generator wrote, and nothing hand-written.
    generated = {
        rel for rel in _files(docs) if rel not in STATE and rel not in HAND_WRITTEN and not rel.startswith("notes/")
    }
    assert _manifest(site) == generated
    assert report.written == len(generated)
    assert report.deleted == 0


def test_paper_page_shows_the_record(site: Config) -> None:
    generate.run(site)
    key = _dapple_key(site)
    page = (site.docs_path / "papers" / f"{key}.md").read_text(encoding="utf-8")
    assert "# DAPPLE\\: A Pipelined Data Parallel Approach for Training Large Models" in page
    assert f"(rl:bibliography#cite-{key})" in page
    assert "cs.DC" in page


def test_second_run_writes_nothing(site: Config) -> None:
    first = generate.run(site)
    assert first.written > 0
    before = {rel: (p.read_bytes(), p.stat().st_mtime_ns) for rel, p in _files(site.docs_path).items()}
    second = generate.run(site)
    assert (second.written, second.deleted) == (0, 0)
    after = {rel: (p.read_bytes(), p.stat().st_mtime_ns) for rel, p in _files(site.docs_path).items()}
    assert after == before


def test_notes_survive_regeneration(site: Config) -> None:
    key = _dapple_key(site)
    note = _note_for(site, key)
    other_key = next(k for k in bibfile.load(site.bib_path).entries if k != key)
    other = site.notes_path / f"{other_key}.md"
    other.write_text("---\nstatus: skimmed\ntags: [a, b]\n---\nShort note with *emphasis*.\n", encoding="utf-8")
    notes_before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in site.notes_path.iterdir()}

    generate.run(site)
    generate.run(site)

    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in site.notes_path.iterdir()} == notes_before
    for k, path in ((key, note), (other_key, other)):
        page = (site.docs_path / "papers" / f"{k}.md").read_text(encoding="utf-8")
        assert f"```{{include}} ../notes/{path.name}" in page
    # ``skimmed`` counts as read; status and tags sit under the title (render/workflow.py).
    shown = "{bdg-secondary}`Read` · **Tags:** [a](rl:tags/a), [b](rl:tags/b)"
    assert shown in (site.docs_path / "papers" / f"{other_key}.md").read_text(encoding="utf-8")
    assert not any(rel.startswith("notes/") for rel in _manifest(site))


def test_removed_paper_loses_its_page_but_keeps_its_notes(site: Config) -> None:
    key = _dapple_key(site)
    note = _note_for(site, key)
    note_bytes = note.read_bytes()
    first = generate.run(site)
    assert first.orphan_notes == ()
    page = site.docs_path / "papers" / f"{key}.md"
    assert page.exists()

    store = bibfile.load(site.bib_path)
    [chunk] = [c for c in store.chunks if c.key == key]
    text = store.text.replace(chunk.text, "", 1)
    site.bib_path.write_text(text, encoding="utf-8")
    assert key not in bibfile.load(site.bib_path).entries

    report = generate.run(site)
    assert not page.exists()
    assert report.deleted >= 1
    assert f"papers/{key}.md" not in _manifest(site)
    assert len(list((site.docs_path / "papers").glob("*.md"))) == 27
    assert note.read_bytes() == note_bytes
    assert report.orphan_notes == (key,)
    assert any(key in line for line in report.lines())


def test_handwritten_file_outside_the_manifest_is_never_overwritten(site: Config) -> None:
    index = site.docs_path / "index.md"
    index.write_text("# My own index\n\nWritten by hand.\n", encoding="utf-8")
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    with pytest.raises(ReadingListError) as info:
        generate.run(site)
    assert "index.md" in str(info.value) and info.value.code == Code.NOT_OWNED
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before
    assert not (site.docs_path / "papers").exists()  # refused before writing anything


def test_handwritten_file_elsewhere_is_left_alone(site: Config) -> None:
    extra = site.docs_path / "papers" / "my-reading-plan.md"
    extra.parent.mkdir()
    extra.write_text("# Plan\n", encoding="utf-8")
    generate.run(site)
    key = _dapple_key(site)
    store = bibfile.load(site.bib_path)
    [chunk] = [c for c in store.chunks if c.key == key]
    site.bib_path.write_text(store.text.replace(chunk.text, "", 1), encoding="utf-8")
    generate.run(site)
    assert extra.read_text(encoding="utf-8") == "# Plan\n"
    assert "papers/my-reading-plan.md" not in _manifest(site)


def test_manifest_cannot_hand_notes_or_outside_files_to_the_generator(site: Config) -> None:
    key = _dapple_key(site)
    note = _note_for(site, key)
    generate.run(site)
    # A tampered (or stale) manifest claims a note, the store and a file outside docs/.
    outside = site.root / "outside.md"
    outside.write_text("mine\n", encoding="utf-8")
    store = manifest.open_state(site.docs_path)
    assert store.header is not None
    store.header["files"] += [f"notes/{note.name}", "../refs.bib", "../outside.md", str(outside)]
    store.save()
    note_bytes, bib_bytes = note.read_bytes(), site.bib_path.read_bytes()

    report = generate.run(site)
    assert report.deleted == 0
    assert note.read_bytes() == note_bytes
    assert site.bib_path.read_bytes() == bib_bytes
    assert outside.read_text(encoding="utf-8") == "mine\n"
    assert all(not rel.startswith(("notes/", "..", "/")) for rel in _manifest(site))


def test_records_describe_every_paper(site: Config) -> None:
    report = generate.run(site)
    assert report.library is not None
    items = records(report.library)
    fields = {
        "key", "title", "title_inferred", "authors", "et_al", "year", "categories", "categories_inferred",
        "topics", "tldr", "problem", "approach", "result", "key_results", "related", "versions", "url", "sources",
    }  # fmt: skip
    assert len(items) == 28
    assert all(fields <= set(item) for item in items)  # the documented fields (more may follow)
    keys = {item["key"] for item in items}
    assert keys == set(bibfile.load(site.bib_path).entries)
    by_title = {item["title"]: item for item in items}
    pai = by_title["Characterizing Deep Learning Training Workloads on Alibaba-PAI"]
    assert {(s["file"], s["line"], s["owner"]) for s in pai["sources"]} == {
        ("conf/sources/jun-yang.txt", 15, "Jun Yang"),
        ("conf/sources/wei-lin.txt", 57, "Wei Lin"),
    }
    assert pai["year"] == 2019 and pai["categories"] == ["cs.PF"] and pai["categories_inferred"] is False
    assert pai["url"] == f"papers/{pai['key']}.html"
    for item in items:
        assert item["topics"], item["key"]  # every paper lands in at least one topic
        assert all(link["key"] in keys and link["key"] != item["key"] for link in item["related"])
        if item["categories_inferred"]:
            assert item["year"] is None  # only the untitled profile records lack arXiv categories
    json.dumps(items)  # serializable as records.json


def test_cli_generate_and_export(site: Config, capsys: pytest.CaptureFixture[str]) -> None:
    from readinglist.cli import main

    assert main(["--root", str(site.root), "generate"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("28 papers: ")
    assert main(["--root", str(site.root), "export", "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert sorted(item["key"] for item in exported) == sorted(bibfile.load(site.bib_path).entries)


def test_cli_generate_error_is_one_line(site: Config, capsys: pytest.CaptureFixture[str]) -> None:
    from readinglist.cli import main

    (site.docs_path / "index.md").write_text("# Mine\n", encoding="utf-8")
    assert main(["--root", str(site.root), "generate"]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith("readinglist: error: ") and "index.md" in err


def test_unclosed_front_matter_in_notes_is_reported(site: Config) -> None:
    key = _dapple_key(site)
    note = site.notes_path / f"{key}.md"
    note.write_text("---\nstatus: read\n\nNo closing line.\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        generate.run(site)
    assert (info.value.file, info.value.line, info.value.code) == (str(note), 1, Code.BAD_FRONT_MATTER)
    assert note.read_text(encoding="utf-8") == "---\nstatus: read\n\nNo closing line.\n"


def _walked_everything(docs: Path, owned: set[str]) -> list[str]:
    """hand_written_pages as it was: every Markdown file under docs/, then the skips (files only: it
    also took a folder named ``x.md`` for a page)."""
    found = []
    for path in sorted(p for p in docs.rglob("*.md") if p.is_file()):
        rel = path.relative_to(docs).as_posix()
        skip = rel in owned or rel == "index.md" or rel.split("/")[0] in generate.GENERATED_FOLDERS
        if not skip and not any(part.startswith(("_", ".")) for part in path.relative_to(docs).parts):
            found.append(rel.removesuffix(".md"))
    return found


PARTS = st.sampled_from(["guide", "a-b", "a", "b.md", "_build", ".hidden", "papers", "notes", "develop", "A", "x.y"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(PARTS, min_size=1, max_size=3), max_size=12), st.data())
def test_the_hand_written_pages_are_found_without_walking_the_built_and_generated_folders(
    tmp_path_factory: pytest.TempPathFactory, paths: list[list[str]], data: st.DataObject
) -> None:
    """The same pages, in the same order, as walking every file: the walk leaves out only the
    folders none of them can be in (hidden, underscored, generated)."""
    docs = tmp_path_factory.mktemp("docs")
    made = []
    for parts in paths:
        target = docs.joinpath(*parts[:-1], parts[-1] if parts[-1].endswith(".md") else parts[-1] + ".md")
        if any(p.exists() and not p.is_dir() for p in target.parents if docs in p.parents):
            continue  # a file where a folder would go
        if target.is_dir():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x", encoding="utf-8")
        made.append(target.relative_to(docs).as_posix())
    owned = set(data.draw(st.lists(st.sampled_from(made), unique=True))) if made else set()
    assert generate.hand_written_pages(docs, owned) == _walked_everything(docs, owned)


def test_only_the_command_line_tunes_its_collector(tmp_path: Path, seed_bib_text: str) -> None:
    """generate freezes what its caches loaded and raises the collector's thresholds only in a
    process of its own (``cli.console``): a caller that runs ``cli.main`` in its process (a test,
    a script) keeps its collector as it was."""
    from readinglist.memory import THRESHOLDS

    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    tuned = "gc.get_freeze_count() > 0 and gc.get_threshold() == THRESHOLDS"
    for own, frozen in ((True, True), (False, False)):
        generate_again(root / "docs")
        assert generate_in_a_process(root, own, f"THRESHOLDS = {THRESHOLDS!r}", f"({tuned})") == ["0", str(frozen)]
