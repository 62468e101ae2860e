"""A ``readinglist build`` with nothing to do ends before Sphinx starts, as ``make`` would.

Sphinx's own no-op rebuild still costs 1.5 s at 1,000 papers and 15 s at 10,000: it starts,
imports its extensions, loads and saves its environment and writes the index pages again.
When no file it could read has changed since the last successful build, and nothing in the
built site has been touched, running it changes nothing, so the build stops at this check.

What is compared, as the path, size and modification time of every file (no file is read):

- the inputs: every file under docs/ (the output folder, ``_build`` folders and lock files
  aside), conf/, refs.bib, the taxonomy and identity files, this package's files, and the name
  and version of every installed distribution (a new Sphinx, theme or extension); plus
  Sphinx's command line. They include every input of the generator, so a build whose inputs
  all hold does not generate either;
- the output: every file in the site folder, the Pagefind index among them. Sphinx's doctrees
  are beside it (``build.doctrees_path``), with the stamp: a build removes the stamp before
  Sphinx changes them.

The inputs are stated before Sphinx runs, so a note saved while Sphinx reads makes the next
build run again. The stamp is removed before Sphinx starts and written only after the build
and its search index have succeeded: a failed or killed build leaves none. Files outside these
folders that a hand-written conf.py reads are not watched; touching conf.py rebuilds.
"""

from __future__ import annotations

import hashlib
import json
import os
import site
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ..config import Config
from ..writer import stamp, write_if_changed
from . import search

STAMP = "readinglist-uptodate.json"  # in the site's doctree folder (build.doctrees_path): a new site has none
SKIPPED_DIRS = frozenset({"_build", ".git", "__pycache__", ".ipynb_checkpoints"})
PACKAGE = Path(__file__).resolve().parent.parent


def _files(root: Path, skip: frozenset[Path]) -> Iterator[tuple[str, int, int]]:
    """(relative path, size, mtime in ns) of every file below ``root``, in no set order.

    Linked folders are followed, as Sphinx and the generator follow them (notes kept in a
    synced folder are a link), each real folder once, so a link loop ends.
    """
    stack, seen = [root], set()
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
            yield from _entry(entry, root, skip, stack)


def _entry(
    entry: os.DirEntry[str], root: Path, skip: frozenset[Path], stack: list[Path]
) -> Iterator[tuple[str, int, int]]:
    try:
        if entry.is_dir():  # a link to a folder too
            if entry.name not in SKIPPED_DIRS and Path(entry.path) not in skip:
                stack.append(Path(entry.path))
        elif not entry.name.endswith(".lock"):  # the build lock is touched by every build
            info = entry.stat()  # a link's target: what Sphinx reads
            yield os.path.relpath(entry.path, root), info.st_size, info.st_mtime_ns
    except FileNotFoundError:  # a dangling link, or a file removed meanwhile: nothing to read
        yield os.path.relpath(entry.path, root), -1, -1


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
