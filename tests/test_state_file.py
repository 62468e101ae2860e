"""The generator's one state file (readinglist.cache, site/manifest.py, site/changes.py): the
manifest it trusts and the results it does not, in one file, written whole or not at all."""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import copy_seeds
from readinglist import cache
from readinglist.cli import main
from readinglist.config import Config, load_config
from readinglist.site import generate, manifest

LOCK = ".readinglist-build.lock"  # the build lock: no state, touched by every build


@pytest.fixture
def site(seed_config: Config) -> Config:
    return seed_config


def _owned(config: Config) -> set[str]:
    return manifest.read_manifest(manifest.open_state(config.docs_path))


def _state_files(docs: Path) -> set[str]:
    return {p.name for p in docs.iterdir() if p.name.startswith(".readinglist-") and p.name != LOCK}


def test_a_generate_leaves_one_state_file(site: Config) -> None:
    generate.run(site)
    assert _state_files(site.docs_path) == {cache.FILE}
    assert _owned(site) and all((site.docs_path / rel).is_file() for rel in _owned(site))


def _as_an_older_version_left_it(config: Config) -> set[str]:
    """The state file split into the manifest and the stamp of before issue 29; returns the files."""
    docs = config.docs_path
    store = manifest.open_state(docs)
    assert store.header is not None
    files, fingerprint = store.header["files"], store.header["inputs"].split()[0]
    raw = (json.dumps({"generator": "readinglist", "files": files}, indent=1) + "\n").encode()
    (docs / manifest.OLD_MANIFEST).write_bytes(raw)
    (docs / manifest.OLD_STAMP).write_text(f"{fingerprint} {hashlib.sha256(raw).hexdigest()}\n", encoding="utf-8")
    (docs / cache.FILE).unlink()
    return set(files)


def test_an_older_versions_manifest_and_stamp_are_read_once_then_removed(site: Config) -> None:
    generate.run(site)
    files = _as_an_older_version_left_it(site)
    mine = site.docs_path / "topics" / "mine.md"  # a person's file among the generated ones
    mine.write_text("# Mine\n", encoding="utf-8")
    report = generate.run(site)
    assert report.library is None  # the old stamp held: nothing to do
    assert _state_files(site.docs_path) == {cache.FILE}
    assert _owned(site) == files and "topics/mine.md" not in files
    generate.run(site, force=True)  # a full render deletes every stale file it owns, and no other
    assert mine.read_text(encoding="utf-8") == "# Mine\n" and "topics/mine.md" not in _owned(site)


def test_a_corrupt_old_manifest_is_the_one_line_error(site: Config, capsys: pytest.CaptureFixture[str]) -> None:
    generate.run(site)
    _as_an_older_version_left_it(site)
    (site.docs_path / manifest.OLD_MANIFEST).write_text('{"files": ["index.md"', encoding="utf-8")
    assert main(["--root", str(site.root), "generate"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{site.docs_path / manifest.OLD_MANIFEST}: " in err
    assert err.endswith("[readinglist.bad-manifest]\n") and not (site.docs_path / cache.FILE).exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(cache.MAGIC) + 40],  # cut in the header: the files it owns are lost
        lambda data: b"",
        lambda data: b"readinglist-cache 2\n[]\n",  # another format
        lambda data: data.replace(b'{"files"', b'["files"', 1),  # not an object
        lambda data: data.replace(b'"files": [', b'"files": {', 1),  # not JSON
    ],
)
def test_a_corrupt_manifest_part_is_the_one_line_error(
    site: Config, capsys: pytest.CaptureFixture[str], damage: Callable[[bytes], bytes]
) -> None:
    generate.run(site)
    path = site.docs_path / cache.FILE
    damaged = damage(path.read_bytes())
    path.write_bytes(damaged)
    before = {p: p.read_bytes() for p in site.docs_path.rglob("*") if p.is_file() and p.name != LOCK}
    (site.docs_path / "extra.md").write_text("# Extra\n", encoding="utf-8")  # an input changed
    capsys.readouterr()
    assert main(["--root", str(site.root), "generate"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"readinglist: error: {path}: generator manifest is corrupt; delete it and the generated folders"
        " [readinglist.bad-manifest]\n"
    )
    assert {p: p.read_bytes() for p in before} == before  # nothing written, nothing deleted


def test_a_killed_write_leaves_the_last_complete_state(
    site: Config, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed_bib_text: str
) -> None:
    generate.run(site)
    path = site.docs_path / cache.FILE
    last = path.read_bytes()

    def killed(target: Path, data: bytes, durable: bool = True, **_: object) -> bool:
        (target.parent / f".{target.name}.k1ll3d.tmp").write_bytes(data[: len(data) // 2])
        raise KeyboardInterrupt  # as a kill would: the temporary file half written, no rename

    monkeypatch.setattr(cache, "write_bytes_if_changed", killed)
    (site.docs_path / "extra.md").write_text("# Extra\n", encoding="utf-8")  # the menu changes: a render
    with pytest.raises(KeyboardInterrupt):
        generate.run(site)
    assert path.read_bytes() == last
    monkeypatch.undo()
    generate.run(site)
    assert _state_files(site.docs_path) == {cache.FILE}  # the temporary file removed
    clean = load_config(copy_seeds(tmp_path / "clean", refs=False))
    (clean.root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    (clean.docs_path / "extra.md").write_text("# Extra\n", encoding="utf-8")
    generate.run(clean)
    assert _owned(site) == _owned(clean)
    assert all((site.docs_path / rel).read_bytes() == (clean.docs_path / rel).read_bytes() for rel in _owned(clean))


def test_a_manifest_change_alone_pickles_no_result_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = manifest.open_state(tmp_path)
    store.put("kind", "key", {"big": "result"})
    manifest.write_manifest(store, {"index.md"})
    again = manifest.open_state(tmp_path)

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("pickled again")

    monkeypatch.setattr(pickle, "dumps", refuse)  # the module cache.py pickles with
    manifest.write_manifest(again, {"index.md", "queue.md"})
    monkeypatch.undo()
    last = manifest.open_state(tmp_path)
    assert manifest.read_manifest(last) == {"index.md", "queue.md"}
    assert last.get("kind", "key", dict) == {"big": "result"} and pickle.loads(last.entries["kind"][2])


def test_an_unchanged_manifest_is_not_written(tmp_path: Path) -> None:
    store = manifest.open_state(tmp_path)
    manifest.write_manifest(store, {"index.md"})
    inode = (tmp_path / cache.FILE).stat().st_ino
    manifest.write_manifest(manifest.open_state(tmp_path), {"index.md"})
    assert (tmp_path / cache.FILE).stat().st_ino == inode  # no atomic rename: not written
