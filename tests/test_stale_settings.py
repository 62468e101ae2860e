"""No setting and no input can be served stale by the generator's caches.

Starting from a built copy of the seed list, each setting of ``[site]`` (the ``Config``
dataclass's fields, so a new setting is covered without editing this file) and each input file
(refs.bib, conf/topics.toml, conf/identity.toml, a note, a hand-written page) is changed, one
at a time; an incremental generate must then leave docs/ as a clean generate of the same inputs
in a fresh folder does, byte for byte. The change is then undone, and the next incremental
generate must give back the first build's tree: a cache keyed on too little would serve the
other side's result on one of the two trips.

Each change must show in docs/ (else the case tests nothing), unless it is listed in ``INERT``
with the reason. A setting whose type has no variation here fails with a message saying so.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from pathlib import Path

import pytest

from conftest import SEEDS, build_site, copy_seeds
from readinglist import cache
from readinglist.config import CONFIG_FILE, Config, load_config
from readinglist.site import generate
from readinglist.site.manifest import open_state, read_manifest

LOCK = ".readinglist-build.lock"
DAPPLE = "lin2020dapple"  # a seed paper with a note
NO_NOTE = "yulearnable"  # a seed paper without one
Edit = Callable[[Path], None]


@dataclass(frozen=True)
class Built:
    root: Path
    docs: dict[str, bytes]  # the first generate's docs/ (_docs)
    files: frozenset[str]  # every file under root after it, relative


def _docs(root: Path) -> dict[str, bytes]:
    """The generated tree under the configured docs folder, the generator's caches aside (their
    bytes follow which results were served); its manifest and its inputs' stamp are compared."""
    docs = load_config(root).docs_path
    skip = generate.STATE_FILES | {LOCK}
    found = [p for p in docs.rglob("*") if p.is_file() and p.name not in skip]
    owned = "\n".join(sorted(read_manifest(open_state(docs)))).encode()  # the state file's manifest
    return {"<manifest>": owned} | {p.relative_to(docs).as_posix(): p.read_bytes() for p in found}


def _all_files(root: Path) -> frozenset[str]:
    return frozenset(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = copy_seeds(tmp_path_factory.mktemp("stale") / "built")
    generate.run(load_config(root))
    return Built(root, _docs(root), _all_files(root))


# --- edits of the input files -------------------------------------------------------------------


def _replace(rel: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{rel} no longer holds {old!r}: update this test's edit"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _remove_entry(key: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / "refs.bib"
        text = path.read_text(encoding="utf-8")
        start = text.index(f"@misc{{{key},")
        end = text.index("\n@", start) + 1
        path.write_text(text[:start] + text[end:], encoding="utf-8")

    return edit


def _write(rel: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).write_text(text, encoding="utf-8")

    return edit


def _delete(rel: str) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).unlink()

    return edit


def _append(rel: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        with open(root / rel, "a", encoding="utf-8") as f:
            f.write(text)

    return edit


NOTE = f"docs/notes/{DAPPLE}.md"
SYNCED = {"items": {"ABCD2345": {"notes": {"N1": "<p>A synced note.</p>"}}}, "attachments": {}}  # fetch/zotero_state
INPUTS: dict[str, Edit] = {
    "refs.bib: a title": _replace("refs.bib", "{DAPPLE}: A", "{DAPPLE}, renamed: A"),
    "refs.bib: an abstract": _replace("refs.bib", "It is a challenging task", "It is a hard task"),
    "refs.bib: an entry removed (and added back)": _remove_entry(NO_NOTE),
    "topics.toml: a topic's title": _replace("conf/topics.toml", 'title = "', 'title = "New: '),
    "topics.toml: a category": _replace("conf/topics.toml", '"cs.DC", ', ""),
    "identity.toml: two people joined": _append(
        "conf/identity.toml", '\n[[same]]\nauthors = ["Wei Lin", "Jun Yang"]\n'
    ),
    "identity.toml: a comment": _replace("conf/identity.toml", "# Identity", "# The identity"),
    "readinglist.toml: a comment": _replace("conf/readinglist.toml", "# Site settings", "# The site's settings"),
    "note: status": _replace(NOTE, "status: read", "status: reading"),
    "note: tags": _replace(NOTE, "tags: [", "tags: [a new tag, "),
    "note: title": _replace(NOTE, "---\n", "---\ntitle: DAPPLE, renamed\n"),
    "note: body": _append(NOTE, "\nOne more thought.\n"),
    "note: new": _write(f"docs/notes/{NO_NOTE}.md", "---\nstatus: to-read\ntags: [queue me]\n---\nLater.\n"),
    "note: deleted": _delete(NOTE),
    "zotero-notes.json: a synced note": _write("conf/zotero-notes.json", json.dumps(SYNCED)),
    "zotero.toml: a colour's field": _write("conf/zotero.toml", '[highlights]\nyellow = "Key result"\n'),
    "hand-written page: new": _write("docs/extra.md", "# Extra\n\nA page a person wrote.\n"),
    "hand-written page: deleted": _delete("docs/guide.md"),
}

# --- variations of the settings -----------------------------------------------------------------

# A setting naming an input: pointed at a changed copy under another name (its edit above).
PATH_EDITS = {"refs.bib": "refs.bib: a title", "conf/topics.toml": "topics.toml: a topic's title"}
PATH_EDITS |= {"conf/identity.toml": "identity.toml: two people joined", "docs": "note: status"}
OVERRIDES = {"base_url": "https://example.org/list/"}  # a value the setting can hold
INERT = {  # changes that leave docs/ as it was, and why they are tested anyway
    "sources": "read by import, not by generate: no page may change",
    "author": "read by Sphinx's conf.py, not by generate",
    "identity.toml: a comment": "bytes, not meaning",
    "readinglist.toml: a comment": "bytes, not meaning",
    "zotero-notes.json: a synced note": "no seed work came from Zotero (tests/test_zotero_site.py shows one)",
    "zotero.toml: a colour's field": "no seed work came from Zotero",
}


def _default(name: str) -> object:
    field = next(f for f in fields(Config) if f.name == name)
    assert field.default is not MISSING, f"[site].{name} has no default"
    return field.default


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    assert isinstance(value, (tuple, list))
    return "[" + ", ".join(json.dumps(v) for v in value) + "]"


def _setting(name: str, value: object) -> Edit:
    def edit(root: Path) -> None:
        path = root / CONFIG_FILE
        site = tomllib.loads(path.read_text(encoding="utf-8"))["site"] | {name: value}
        path.write_text("[site]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in site.items()), encoding="utf-8")

    return edit


def _moved(name: str, rel: str) -> Edit:
    """The input ``rel`` changed under a new name, the setting pointed at it, the original kept."""
    new = (Path(rel).parent / f"moved-{Path(rel).name}").as_posix()

    def edit(root: Path) -> None:
        copy = shutil.copytree if (root / rel).is_dir() else shutil.copyfile
        copy(root / rel, root / f"{rel}.kept")
        INPUTS[PATH_EDITS[rel]](root)  # the edits name the file where the seeds keep it
        (root / rel).rename(root / new)
        (root / f"{rel}.kept").rename(root / rel)
        _setting(name, new)(root)

    return edit


def variation(name: str) -> Edit:
    """How the test changes setting ``name``: derived from its default, so a new setting needs none."""
    default = _default(name)
    if name in OVERRIDES:
        return _setting(name, OVERRIDES[name])
    if isinstance(default, str) and default and (SEEDS / default).exists():
        assert default in PATH_EDITS, f"[site].{name} names an input ({default}): give it an edit in PATH_EDITS"
        return _moved(name, default)
    if isinstance(default, bool):
        return _setting(name, not default)
    if isinstance(default, int):
        return _setting(name, 1 if default != 1 else 2)
    if isinstance(default, float):
        return _setting(name, default * 4 if default else 0.5)
    if isinstance(default, str):
        return _setting(name, f"{default} (changed)" if default else "Changed")
    if isinstance(default, tuple):
        return _setting(name, (*default, "conf/more/*"))
    raise AssertionError(f"[site].{name}: no variation for a {type(default).__name__}; add one to this test")


SETTINGS = [f.name for f in fields(Config) if f.name != "root"]


# --- the check ----------------------------------------------------------------------------------


def _diff(got: dict[str, bytes], want: dict[str, bytes], limit: int | None = 10) -> set[str]:
    return set(sorted(rel for rel in got.keys() | want.keys() if got.get(rel) != want.get(rel))[:limit])


def _restore(root: Path, built: Built) -> None:
    """Undo an edit: the seeds' input files as they were, the files the edit made gone."""
    for source in (p for p in SEEDS.rglob("*") if p.is_file() and p.name != "README.md"):
        target = root / source.relative_to(SEEDS)
        if not target.is_file() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    for rel in _all_files(root) - built.files:
        (root / rel).unlink()


def check(edit: Edit, built: Built, tmp_path: Path, inert: bool) -> None:
    root = tmp_path / "incremental"
    shutil.copytree(built.root, root)
    edit(root)
    generate.run(load_config(root))
    got = _docs(root)
    clean = copy_seeds(tmp_path / "clean")
    edit(clean)
    generate.run(load_config(clean))
    want = _docs(clean)
    assert not _diff(got, want), f"served stale, unlike a clean generate: {_diff(got, want)}"
    shows = _diff(got, built.docs, limit=None)
    assert not shows if inert else shows, f"the change shows in {shows}" if inert else "the change shows nowhere"
    _restore(root, built)
    generate.run(load_config(root))
    back = _docs(root)
    assert not _diff(back, built.docs), f"undone, served stale: {_diff(back, built.docs)}"


@pytest.mark.parametrize("name", SETTINGS)
def test_a_changed_setting_is_never_served_stale(name: str, built: Built, tmp_path: Path) -> None:
    check(variation(name), built, tmp_path, inert=name in INERT)


@pytest.mark.parametrize("name", list(INPUTS))
def test_a_changed_input_is_never_served_stale(name: str, built: Built, tmp_path: Path) -> None:
    check(INPUTS[name], built, tmp_path, inert=name in INERT)


def _html(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*.html")}


def test_a_site_rebuilt_after_a_setting_and_a_note_changed_is_a_clean_build(tmp_path: Path) -> None:
    """Through Sphinx too: the incremental build's HTML is a clean build's, page for page."""
    edits = [_setting("related_top_k", 1), INPUTS["note: status"]]
    root = copy_seeds(tmp_path / "incremental")
    build_site(root, "--no-search")
    for edit in edits:
        edit(root)
    got = _html(build_site(root, "--no-search"))
    clean = copy_seeds(tmp_path / "clean")
    for edit in edits:
        edit(clean)
    want = _html(build_site(clean, "--no-search"))
    assert not _diff(got, want), f"served stale, unlike a clean build: {_diff(got, want)}"


def test_every_input_file_the_generator_keys_on_has_an_edit_here(
    built: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the generator reads into a key (readinglist.cache.read_input) with no edit in
    ``INPUTS`` (named ``<file name>: ...``) would never be checked for staleness here."""
    read: set[str] = set()
    real = cache.read_input

    def recorded(path: Path) -> bytes:
        read.add(path.name)
        return real(path)

    monkeypatch.setattr(cache, "read_input", recorded)
    root = tmp_path / "copy"
    shutil.copytree(built.root, root)
    INPUTS["note: status"](root)
    generate.run(load_config(root))
    edited = {name.split(":")[0] for name in INPUTS}
    assert read and read <= edited, f"inputs with no edit in INPUTS: {sorted(read - edited)}"
