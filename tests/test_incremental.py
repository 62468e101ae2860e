"""Incremental generation: a note edit re-renders its paper page and the listings, nothing else.

Each edit is checked three ways: the files whose bytes changed (one paper page at most), whether
the library was built again (never for a note's front matter or body, always for a ``title:``)
and the result against a clean generate of the same inputs in a fresh folder, byte for byte.
The caches are shortcuts: corrupt, stale or foreign ones are ignored and the result is the same.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import pytest

from conftest import copy_seeds
from readinglist import cache
from readinglist.config import load_config
from readinglist.site import assemble, generate, manifest, pagestate

LOCK = ".readinglist-build.lock"
DAPPLE = "lin2020dapple"  # a seed paper with a note (status: read, two tags)
DL2 = "lin2019dl2"  # another note of the seeds
QUIET = "lin2019aligraph"  # a seed paper whose note the edits below leave alone


def _seeds(folder: Path, seed_bib_text: str) -> Path:
    root = copy_seeds(folder, refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    return root


def _docs(root: Path) -> dict[str, bytes]:
    """The files under docs/ but the lock and the pickled caches: their bytes follow which results
    were served (pickle shares an object it meets twice), so they are compared unpickled (``_cached``)."""
    docs = root / "docs"
    files = [p for p in docs.rglob("*") if p.is_file() and p.name != LOCK and p.name not in generate.STATE_FILES]
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in files}


def _cached(root: Path) -> dict[str, object]:
    """The pickled caches under docs/, unpickled (the enrichment, its per-work results)."""
    found = {}
    store = cache.Store.open(root / "docs")
    for kind in (assemble.LIBRARY, assemble.RECALL):
        found[kind] = pickle.loads(store.entries[kind][2])
    return found


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    """The generator's files whose bytes differ (the notes are the edits themselves)."""
    return {rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel)} - {
        rel for rel in after.keys() | before.keys() if rel.startswith("notes/")
    }


class Builds:
    """Counts the libraries built (``assemble.enrich``) while the test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = assemble.enrich

        def counted(*args: object, **kwargs: object) -> assemble.Enriched:
            self.count += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(assemble, "enrich", counted)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Builds:
    return Builds(monkeypatch)


def _note(root: Path, slug: str) -> Path:
    return root / "docs" / "notes" / f"{slug}.md"


def _status(root: Path) -> None:
    path = _note(root, DAPPLE)
    path.write_text(path.read_text(encoding="utf-8").replace("status: read", "status: reading"), encoding="utf-8")


def _tags(root: Path) -> None:
    path = _note(root, DAPPLE)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("tags: [", "tags: [a new tag, "), encoding="utf-8")


def _new(root: Path) -> None:
    _note(root, "lin2019grid").write_text("---\nstatus: to-read\ntags: [queue me]\n---\nLater.\n", encoding="utf-8")


def _delete(root: Path) -> None:
    _note(root, DAPPLE).unlink()


def _body(root: Path) -> None:
    with open(_note(root, DAPPLE), "a", encoding="utf-8") as f:
        f.write("\nOne more thought.\n")


def _title(root: Path) -> None:
    path = _note(root, DAPPLE)
    path.write_text(path.read_text(encoding="utf-8").replace("---\n", "---\ntitle: DAPPLE, renamed\n", 1), "utf-8")


EDITS: dict[str, tuple[Callable[[Path], None], int]] = {  # the edit, and how many libraries it builds
    "status": (_status, 0),
    "tags": (_tags, 0),
    "new note": (_new, 0),
    "deleted note": (_delete, 0),
    "body": (_body, 0),
    "title": (_title, 1),  # a title is part of the text papers are compared by
}


@pytest.mark.parametrize("name", list(EDITS))
def test_a_note_edit_renders_what_a_clean_generate_renders(
    name: str, tmp_path: Path, seed_bib_text: str, builds: Builds
) -> None:
    edit, libraries = EDITS[name]
    root = _seeds(tmp_path / "incremental", seed_bib_text)
    generate.run(load_config(root))
    before = _docs(root)
    builds.count = 0
    edit(root)
    generate.run(load_config(root))
    after = _docs(root)
    assert builds.count == libraries
    papers = {rel for rel in _changed(before, after) if rel.startswith("papers/")}
    if name == "body":  # the page includes the note: nothing to generate
        assert _changed(before, after) == set()
    elif name == "new note":
        assert papers == {"papers/lin2019grid.md"}
    elif name != "title":  # a new title shows on every page that links the paper
        assert papers == {f"papers/{DAPPLE}.md"}
    clean = _seeds(tmp_path / "clean", seed_bib_text)
    edit(clean)
    generate.run(load_config(clean))
    assert after == _docs(clean)
    assert _cached(root) == _cached(clean)


def test_a_status_change_rewrites_the_listings_that_show_the_paper_and_no_other_file(
    tmp_path: Path, seed_bib_text: str
) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    before = {rel: (root / "docs" / rel).stat().st_mtime_ns for rel in _docs(root)}
    _status(root)
    report = generate.run(load_config(root))
    after = {rel: (root / "docs" / rel).stat().st_mtime_ns for rel in _docs(root)}
    rewritten = {rel for rel in after if before.get(rel) != after[rel] and not rel.startswith("notes/")}
    # write-if-changed: the report counts what moved (the state file is no page: _docs leaves it out)
    assert report.written == len(rewritten)
    assert f"papers/{DAPPLE}.md" in rewritten and "queue.md" not in rewritten  # read -> reading: not queued
    assert {"index.md", "topics/index.md", "tags/pipeline-parallelism.md"} <= rewritten
    assert not {rel for rel in rewritten if rel.startswith("papers/")} - {f"papers/{DAPPLE}.md"}


def _corrupt_bytes(path: Path) -> None:
    """Bits flipped in the middle of the enrichment's bytes: its digest no longer matches."""
    data = bytearray(path.read_bytes())
    payload = cache.Store.open(path.parent).entries[assemble.LIBRARY][2]
    at = data.find(payload) + len(payload) // 2
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    """Cut in the results (a cut in the trusted header is an error: test_state_file.py)."""
    path.write_bytes(path.read_bytes()[:-100])


def _foreign(path: Path) -> None:
    """A well-formed file for the right key whose payload is not an enrichment: never served."""
    store = cache.Store.open(path.parent)
    store.put(assemble.LIBRARY, store.entries[assemble.LIBRARY][0], {"library": "not one"})
    store.save()


@pytest.mark.parametrize("damage", [_corrupt_bytes, _truncated, _foreign])
def test_a_damaged_enrichment_cache_is_built_again(
    damage: Callable[[Path], None], tmp_path: Path, seed_bib_text: str, builds: Builds
) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    damage(root / "docs" / cache.FILE)
    _status(root)
    builds.count = 0
    generate.run(load_config(root))
    assert builds.count == 1
    clean = _seeds(tmp_path / "clean", seed_bib_text)
    _status(clean)
    generate.run(load_config(clean))
    assert _docs(root) == _docs(clean)  # the cache written again is the clean run's, byte for byte


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


INPUTS: dict[str, tuple[Callable[[Path], None], int]] = {  # an input's edit, and the libraries it builds
    "refs.bib": (_replace("refs.bib", "DAPPLE", "DAPPLE-2"), 1),
    "topics.toml": (_replace("conf/topics.toml", 'title = "', 'title = "New: '), 1),
    "identity.toml": (_replace("conf/identity.toml", "# Identity", "# The identity"), 1),  # bytes, not meaning
    "related_top_k": (_replace("conf/readinglist.toml", "related_top_k = 5", "related_top_k = 3"), 1),
    "site title": (_replace("conf/readinglist.toml", 'title = "', 'title = "New: '), 0),  # pages, not enrichment
}


@pytest.mark.parametrize("name", list(INPUTS))
def test_an_input_of_the_enrichment_builds_it_again(
    name: str, tmp_path: Path, seed_bib_text: str, builds: Builds
) -> None:
    """The cache's key is of every input enrichment reads: change one and it is not served."""
    edit, libraries = INPUTS[name]
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    edit(root)
    builds.count = 0
    generate.run(load_config(root))
    assert builds.count == libraries
    clean = _seeds(tmp_path / "clean", seed_bib_text)
    edit(clean)
    generate.run(load_config(clean))
    assert _docs(root) == _docs(clean)


@pytest.mark.parametrize("damage", ["garbage", "missing", "other context"])
def test_a_damaged_page_record_renders_every_page(tmp_path: Path, seed_bib_text: str, damage: str) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    store = cache.Store.open(root / "docs")
    key = store.entries[pagestate.PAGES][0]
    record = store.get(pagestate.PAGES, key, pagestate.PageState)
    assert record is not None
    if damage == "garbage":
        store.put(pagestate.PAGES, key, {"context": 3, "notes": []})
    elif damage == "missing":
        store.drop(pagestate.PAGES)
    else:  # a record of other inputs: DL2's stale page must not be kept as it is
        (root / "docs" / "papers" / f"{DL2}.md").write_text("stale\n", encoding="utf-8")
        store.put(pagestate.PAGES, key, replace(record, context="x" + record.context))
    store.save()
    _status(root)
    generate.run(load_config(root))
    clean = _seeds(tmp_path / "clean", seed_bib_text)
    _status(clean)
    generate.run(load_config(clean))
    assert _docs(root) == _docs(clean)


def test_a_paper_page_deleted_by_hand_comes_back(tmp_path: Path, seed_bib_text: str) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    page = root / "docs" / "papers" / f"{QUIET}.md"
    expected = page.read_bytes()
    page.unlink()
    _status(root)
    generate.run(load_config(root))
    assert page.read_bytes() == expected


def test_a_full_render_killed_halfway_leaves_no_record_to_trust(
    tmp_path: Path, seed_bib_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """refs.bib changes, the render is killed after writing the new paper pages, refs.bib is
    changed back: the pages on disk are the new library's, so none may be kept as the old one's."""
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    (root / "refs.bib").write_text(seed_bib_text.replace("DAPPLE", "DAPPLE-2"), encoding="utf-8")

    def killed(
        docs: Path, pages: dict[str, str], kept: object = (), store: cache.Store | None = None
    ) -> tuple[int, int]:
        manifest.sync(docs, {rel: text for rel, text in pages.items() if rel.startswith("papers/")}, store=store)
        raise KeyboardInterrupt

    monkeypatch.setattr(generate, "sync", killed)
    with pytest.raises(KeyboardInterrupt):
        generate.run(load_config(root))
    monkeypatch.undo()
    assert pagestate.PAGES not in cache.Store.open(root / "docs").entries
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    generate.run(load_config(root))
    clean = _seeds(tmp_path / "clean", seed_bib_text)
    generate.run(load_config(clean))
    assert _docs(root) == _docs(clean)


def test_force_builds_the_library_whatever_the_cache_holds(tmp_path: Path, seed_bib_text: str, builds: Builds) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    builds.count = 0
    generate.run(load_config(root), force=True)
    assert builds.count == 1


def test_the_cache_holds_what_was_built(tmp_path: Path, seed_bib_text: str) -> None:
    root = _seeds(tmp_path / "seeds", seed_bib_text)
    report = generate.run(load_config(root))
    assert (root / "docs" / cache.FILE).read_bytes().startswith(cache.MAGIC) and report.library is not None
    store = cache.Store.open(root / "docs")
    served = store.get(assemble.LIBRARY, store.entries[assemble.LIBRARY][0], assemble.Enriched)
    assert served is not None
    assert served.library == report.library
    # Each paper's digest goes with it, as the render would compute it: served, it is not computed again.
    held = [vars(p).get("digest") for p in served.library.papers]
    assert held == [hashlib.sha256(repr(p).encode("utf-8", "surrogatepass")).hexdigest() for p in report.library.papers]


def test_a_papers_digest_is_of_its_fields_and_a_changed_copy_has_its_own(tmp_path: Path, seed_bib_text: str) -> None:
    library = generate.run(load_config(_seeds(tmp_path / "seeds", seed_bib_text))).library
    assert library is not None
    paper = library.papers[0]
    changed = replace(paper, tldr=paper.tldr + " more")
    assert paper.digest != changed.digest and changed.digest == replace(changed).digest
    assert "digest" not in repr(paper)  # the repr it is a digest of holds the fields alone


class _Noted:
    """Records whether the collector ran while it was unpickled."""

    seen: ClassVar[list[bool]] = []

    def __init__(self) -> None:
        self.state = 1  # pickle calls __setstate__ only for an object with state

    def __setstate__(self, state: object) -> None:
        _Noted.seen.append(gc.isenabled())


def test_caches_are_unpickled_with_the_collector_paused_and_its_state_restored(tmp_path: Path) -> None:
    store = cache.Store.open(tmp_path)
    store.put("kind", "k", [_Noted()])
    store.save()
    assert gc.isenabled()
    assert isinstance(cache.Store.open(tmp_path).get("kind", "k", list), list)
    assert _Noted.seen == [False] and gc.isenabled()
    path = tmp_path / cache.FILE
    path.write_bytes(path.read_bytes().replace(b"_Noted", b"_Gone_"))  # passes no digest: not loaded
    assert cache.Store.open(tmp_path).get("kind", "k", list) is None and gc.isenabled()
    gc.disable()
    try:
        store.put("kind", "k2", [_Noted()])
        store.save()
        cache.Store.open(tmp_path).get("kind", "k2", list)
        assert not gc.isenabled()  # a caller's paused collector stays paused
    finally:
        gc.enable()
