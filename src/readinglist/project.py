"""``readinglist init DIR``: start a new reading list from the templates in ``scaffold/``.

Every file of the new project is a template under ``scaffold/`` (``NAME.tmpl``; a leading
``dot-`` on a file or folder stands for the dot of ``.gitignore`` or ``.github/``, so the package
data has no hidden files). A file
that exists is never overwritten: ``init`` refuses a folder that is not empty, and ``--force``
only adds the files that are missing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from pathlib import Path

from . import __version__, sources
from .chars import strip_unsafe
from .errors import Code, ReadingListError
from .render import registry
from .writer import umask

SUFFIX = ".tmpl"
CACHE_DIR = ".readinglist-cache"  # answers of the arXiv API and Crossref (``readinglist add``)
# The distribution's name on the package index (``readinglist`` there is another project); the
# import package and the command keep the name ``readinglist``.
DIST = "sphinx-readinglist"


@dataclass(frozen=True)
class InitReport:
    root: Path
    written: tuple[str, ...]
    kept: tuple[str, ...]

    def lines(self) -> list[str]:
        lines = [f"new reading list in {self.root}: {len(self.written)} files written"]
        lines += [f"  kept {name} (exists)" for name in self.kept]
        lines.append(f"next: cd {self.root} && nox -s docs && nox -s tests (see README.md)")
        return lines


def init(root: Path, title: str = "", force: bool = False) -> InitReport:
    """Write the project's files into ``root``; with ``force``, only those that are missing."""
    _check_folder(root, force)
    values = _values(title or "Reading list")
    written, kept = [], []
    for name, template in _templates():
        if _create(root / name, _render(template.read_text(encoding="utf-8"), values)):
            written.append(name)
        else:
            kept.append(name)
    return InitReport(root, tuple(written), tuple(kept))


def _check_folder(root: Path, force: bool) -> None:
    if root.exists() and not root.is_dir():
        raise ReadingListError("exists and is not a folder", root, code=Code.INIT_REFUSED)
    if root.is_dir() and any(root.iterdir()) and not force:
        raise ReadingListError(
            "is not empty; choose a new folder, or --force to add only the missing files", root, code=Code.INIT_REFUSED
        )
    root.mkdir(parents=True, exist_ok=True)


def _templates(folder: Traversable | None = None, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    """(path in the new project, template) for every template, in a stable order."""
    folder = folder or resources.files("readinglist") / "scaffold"
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.is_dir() and not item.name.startswith(("_", ".")):
            yield from _templates(item, f"{prefix}{_dotted(item.name)}/")
        elif item.name.endswith(SUFFIX):
            yield prefix + _dotted(item.name.removesuffix(SUFFIX)), item


def _dotted(name: str) -> str:
    return "." + name.removeprefix("dot-") if name.startswith("dot-") else name


def _values(title: str) -> dict[str, str]:
    clean = " ".join(strip_unsafe(title).split())
    if not clean:
        raise ReadingListError(f"the title {title!r} has no visible characters", code=Code.BAD_ARGUMENT)
    return {
        "title": clean,
        # JSON's string escapes are TOML's: a quote or a backslash in the title stays text.
        "title_toml": json.dumps(clean, ensure_ascii=False),
        "requirement": requirement(),
        "dist": DIST,
        "version": __version__,
        "generated": "\n".join(registry.git_ignores()),  # .gitignore: every kind of generated file
        # The import formats' table (sources.FORMATS): conf/readinglist.toml's globs and the READMEs' words.
        "source_globs": json.dumps(sources.source_globs()),
        "formats": sources.listed("or"),
    }


def _render(text: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        text = text.replace("{{ " + name + " }}", value)
    return text


def _create(path: Path, text: str) -> bool:
    """Write a new file whole, or nothing: a hard link never replaces a file that exists."""
    if path.exists() or path.is_symlink():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o666 & ~umask())
        os.link(tmp, path)  # fails if the file appeared meanwhile: then it is the person's, and kept
    except FileExistsError:
        return False
    finally:
        Path(tmp).unlink(missing_ok=True)
    return True


def requirement() -> str:
    """The pip requirement of the readinglist that is running, for the new project's sessions.

    Installed from a Git URL: that URL and commit (it works anywhere). From a local folder or
    archive: its ``file://`` URL (this machine only; the generated README says how to change
    it). From an index: the version.
    """
    try:
        dist = metadata.distribution(DIST)
    except metadata.PackageNotFoundError:
        return f"{DIST}=={__version__}"
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    url, vcs = direct.get("url"), direct.get("vcs_info")
    if isinstance(url, str) and isinstance(vcs, dict):
        return f"{DIST} @ {vcs.get('vcs', 'git')}+{url}@{vcs.get('commit_id', '')}".rstrip("@")
    if isinstance(url, str):
        return f"{DIST} @ {url}"
    return f"{DIST}=={dist.version}"
