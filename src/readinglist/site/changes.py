"""Every "has anything changed?" check made before Sphinx starts: two of them, one per command.

1. ``readinglist generate`` (:func:`is_current`) compares a fingerprint of the generator's inputs
   with the one the last complete generate stamped into the state file (readinglist.cache, header
   ``inputs``): conf/readinglist.toml, refs.bib, the taxonomy and identity files and the last Zotero
   sync's files, by their bytes; each note's front matter and where its body starts (not the
   body: the paper page includes the note file, so Sphinx sees a body edit alone); the
   hand-written pages' names (the "About" menu); and the code. The stamp also holds a digest of
   the manifest's files, so an edited manifest is noticed, and every file the manifest lists must
   still exist. It reads every input, because a page depends on their content: an equal
   fingerprint means a generate would write the same bytes, so enrichment and rendering (and
   scikit-learn's second-long import) are skipped. The stamp is cleared when a generate starts
   rendering and set only when it ends, so a killed generate leaves none.

2. ``readinglist build`` (:func:`holds`) compares the path, size and modification time of every
   file Sphinx could read, and of every file of the built site, with what the last successful
   build recorded (``readinglist-uptodate.json`` in the doctree folder, build.doctrees_path): no
   file is read, because this check runs before the generate and must cost far less than
   Sphinx's own no-op (1.5 s at 1,000 papers, 15 s at 10,000: it starts, loads and saves its
   environment, writes the index pages again). The inputs: every file under docs/ (the output
   folder, ``_build`` folders and lock files aside; the state file among them), conf/, refs.bib,
   the taxonomy and identity files, this package's files, the name and version of every
   installed distribution (a new Sphinx, theme or extension) and Sphinx's command line. They
   include every input of the generator, so a build whose inputs all hold does not generate
   either. The output: every file in the site folder, the Pagefind index among them.

   The inputs are stated before Sphinx runs, so a note saved while Sphinx reads makes the next
   build run again. The record is removed before Sphinx starts and written only after the build
   and its search index have succeeded: a failed or killed build leaves none. Files outside these
   folders that a hand-written conf.py reads are not watched; touching conf.py rebuilds.

The first is exact and the second cheap; the second holding implies the first would.
"""

from __future__ import annotations

import hashlib
import json
import os
import site
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from pathlib import Path

from ..cache import Store, key_of
from ..config import CONFIG_FILE, Config
from ..fetch.zotero_state import CHILDREN, SETTINGS
from ..model import Note
from ..writer import stamp, write_if_changed
from . import search
from .manifest import all_exist, read_manifest, stamp_of

STAMP = "readinglist-uptodate.json"  # the build's record, in the site's doctree folder: a new site has none
SKIPPED_DIRS = frozenset({"_build", ".git", "__pycache__", ".ipynb_checkpoints"})
PACKAGE = Path(__file__).resolve().parent.parent
INPUTS = "inputs"  # the generator's stamp in the state file's header


def inputs_fingerprint(config: Config, hand_written: list[str], notes: dict[str, Note]) -> str:
    """``notes``: every note by slug (``render.notes.load_notes``). A key of the cache's kind
    (readinglist.cache.key_of: the files by their bytes, and the code)."""
    # conf/identity.toml: its [[different]] keys keep pasted entries on pages of their own (site/pasted.py)
    files = (config.root / CONFIG_FILE, config.bib_path, config.taxonomy_path, config.identity_path, *synced(config))
    states = tuple((slug, note_state(note)) for slug, note in sorted(notes.items()))
    return key_of("inputs", *files, states, tuple(hand_written))


def settings(config: Config) -> tuple[tuple[str, object], ...]:
    """Every setting but the root, by name: what the render memo and the page record are kept
    under, so a setting added to ``Config`` is in their keys without being named there."""
    return tuple((f.name, getattr(config, f.name)) for f in fields(config) if f.name != "root")


def synced(config: Config) -> tuple[Path, ...]:
    """The files of the last Zotero sync that pages show (render/zotero.py): its notes and
    highlights, and which summary field each highlight colour fills. Written by the sync only."""
    return (config.root / CHILDREN, config.root / SETTINGS)


def note_state(note: Note) -> str:
    """What of a note the generated pages show: its front matter and whether (and where) its body starts."""
    return f"{sorted(note.meta.items())!r}|{note.has_body}|{note.body_line}"


def is_current(store: Store, docs: Path, fingerprint: str) -> bool:
    """True when the last generate saw these inputs and every file it wrote is still there."""
    if store.header is None or store.header.get(INPUTS) != stamp_of(fingerprint, store):
        return False
    owned = read_manifest(store)
    return bool(owned) and all_exist(docs, owned)


def unstamp(store: Store) -> None:
    """A generate starts writing: no stamp until it ends (kept by the store's next save)."""
    if store.header is not None:
        store.header.pop(INPUTS, None)


def stamp_inputs(store: Store, fingerprint: str) -> None:
    """A generate ended: its inputs and the manifest it left (saved by the caller)."""
    if store.header is not None:
        store.header[INPUTS] = stamp_of(fingerprint, store)


def _files(root: Path, skip: frozenset[Path]) -> Iterator[tuple[str, int, int]]:
    """(relative path, size, mtime in ns) of every file below ``root``, in no set order.

    Linked folders are followed, as Sphinx and the generator follow them (notes kept in a
    synced folder are a link), each real folder once, so a link loop ends.
    """
    stack, seen = [root], set()
    prefix = len(os.path.join(root, ""))  # a path below root less root: relpath costs more than the walk
    while stack:
        folder = stack.pop()
        try:
            real = folder.stat()
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        if (real.st_dev, real.st_ino) in seen:
            continue
        seen.add((real.st_dev, real.st_ino))
        for entry in entries:
            yield from _entry(entry, prefix, skip, stack)


def _entry(
    entry: os.DirEntry[str], prefix: int, skip: frozenset[Path], stack: list[Path]
) -> Iterator[tuple[str, int, int]]:
    try:
        if entry.is_dir():  # a link to a folder too
            if entry.name not in SKIPPED_DIRS and Path(entry.path) not in skip:
                stack.append(Path(entry.path))
        elif not entry.name.endswith(".lock"):  # the build lock is touched by every build
            info = entry.stat()  # a link's target: what Sphinx reads
            yield entry.path[prefix:], info.st_size, info.st_mtime_ns
    except FileNotFoundError:  # a dangling link, or a file removed meanwhile: nothing to read
        yield entry.path[prefix:], -1, -1


def _digest(parts: Iterable[object]) -> str:
    return hashlib.sha256(json.dumps(sorted(map(str, parts))).encode("utf-8")).hexdigest()


def _distributions() -> list[str]:
    """Installed distributions by name and version (a ``*.dist-info`` folder's name holds both)."""
    folders = {*site.getsitepackages(), site.getusersitepackages(), *sys.path}
    return [name for f in folders if os.path.isdir(f) for name in os.listdir(f) if name.endswith(".dist-info")]


def inputs(config: Config, out: Path, argv: Sequence[str]) -> str:
    """The digest of everything a Sphinx build of ``config``'s pages into ``out`` could read."""
    skip = frozenset({out.resolve()})
    roots = {"docs": config.docs_path, "conf": config.root / "conf", "package": PACKAGE}
    parts: list[object] = [("argv", tuple(argv)), ("python", sys.executable, sys.version), *_distributions()]
    parts += [(name, *f) for name, root in roots.items() for f in _files(root.resolve(), skip)]
    # The generator's inputs wherever conf/readinglist.toml puts them: then a build whose inputs
    # all hold need not generate either (build.up_to_date).
    stores = {"refs.bib": config.bib_path, "taxonomy": config.taxonomy_path, "identity": config.identity_path}
    parts += [(name, str(path), *stamp(path)) for name, path in stores.items()]
    return _digest(parts)


def _outputs(out: Path) -> str:
    return _digest(f for f in _files(out.resolve(), frozenset()) if not f[0].endswith(STAMP))


def holds(out: Path, doctrees: Path, before: str, indexed: bool = True) -> bool:
    """True when the last build into ``out`` saw exactly these inputs and left the site as it is.
    ``indexed``: the build makes the search index, so a stale one is something left to do."""
    if indexed and search.stale(out):
        return False
    try:
        kept = json.loads((doctrees / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(kept, dict) and kept.get("inputs") == before and kept.get("outputs") == _outputs(out)


def forget(doctrees: Path) -> None:
    (doctrees / STAMP).unlink(missing_ok=True)


def record(out: Path, doctrees: Path, before: str) -> None:
    """After a successful build: the inputs it started from and the site it left."""
    path = doctrees / STAMP
    stamp = {"inputs": before, "outputs": _outputs(out)}
    write_if_changed(path, json.dumps(stamp) + "\n", durable=False)
