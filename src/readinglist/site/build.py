"""``readinglist build``: generate, then sphinx-build to HTML with warnings as errors.

One build of a project at a time: ``readinglist generate`` and ``readinglist build`` hold the
build lock (:func:`locked`) from their first write to their last (generate, Sphinx, Pagefind);
a second build waits for the first. A plain ``sphinx-build`` takes it in the Sphinx extension.
"""

from __future__ import annotations

import hashlib
from contextlib import AbstractContextManager
from pathlib import Path

from .. import lock
from ..config import Config
from ..errors import Code, ReadingListError
from ..writer import remove_temp_files
from . import changes, early
from .manifest import RECORDS
from .search import index_if_stale

SPHINX_FLAGS = ("-b", "html", "-n", "-W", "--keep-going", "-q")
LOCK = "readinglist-build"  # docs/.readinglist-build.lock (lock.lock_path)
# Sphinx's doctrees and pickled environment (3.5 MB at 180 papers, with absolute paths of the
# machine that built it) are its cache, not the site: kept beside the site, never in it, where
# `sphinx-build -M` keeps them too. Another --out gets a folder of its own (doctrees_path).
BUILD = "_build"
HTML = "html"
DOCTREES = "doctrees"
OUT_TEMPS = {RECORDS}  # the files the tool writes atomically into a site (the extension copies it)


def locked(config: Config) -> AbstractContextManager[None]:
    """The build lock of the project: held for generating the pages and building the site."""
    try:
        config.docs_path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReadingListError(
            f"cannot create the folder: {exc.strerror}", config.docs_path, code=Code.UNWRITABLE
        ) from None
    return lock.exclusive(config.docs_path / LOCK, "build")


def default_out(config: Config) -> Path:
    return config.docs_path / BUILD / HTML


def doctrees_path(config: Config, out: Path) -> Path:
    """Where Sphinx keeps its doctrees for a build into ``out``: ``docs/_build/doctrees`` for the
    default site, else a folder named for ``out`` beside it (two sites never share an environment)."""
    if out.resolve() == default_out(config).resolve():
        return config.docs_path / BUILD / DOCTREES
    digest = hashlib.sha256(str(out.resolve()).encode("utf-8")).hexdigest()[:12]
    return config.docs_path / BUILD / f"{DOCTREES}-{digest}"


def sphinx_args(config: Config, out: Path, jobs: str = "1", search: bool = True) -> list[str]:
    """The caller has generated the pages (the extension need not check its inputs again) and
    runs Pagefind itself once Sphinx has exited. Sphinx runs in a process of its own, so the
    collector tuning of big builds (sphinx_ext/memory.py) changes nobody else's process."""
    settings = ["-D", "readinglist_generate=0", "-D", f"readinglist_search={int(search)}"]
    settings += ["-D", "readinglist_search_later=1", "-D", "readinglist_tune_gc=1", "-D", "readinglist_exit_frozen=1"]
    doctrees = ["-d", str(doctrees_path(config, out))]
    return [*SPHINX_FLAGS, *settings, *doctrees, "-j", jobs, str(config.docs_path), str(out)]


def up_to_date(config: Config, out: Path, jobs: str = "1", search: bool = True) -> bool:
    """True when nothing the generator or Sphinx reads changed since the last successful build into
    ``out``, nor the site itself: then neither need run (changes.py). The caller holds the lock."""
    argv = sphinx_args(config, out, jobs, search)
    doctrees = doctrees_path(config, out)
    return changes.holds(out, doctrees, changes.inputs(config, out, argv), indexed=search)


def run(
    config: Config, out: Path, jobs: str = "1", search: bool = True, sphinx: early.Sphinx | None = None
) -> int | None:
    """Sphinx in its own process, then Pagefind: the two never hold their memory at once
    (at 10,000 papers, 1.9 GB and 1.8 GB). The caller holds the build lock. None: the site was
    up to date, so neither ran (changes.py).

    The extension marks the index stale before Sphinx writes a page (``search.STALE``), so an
    index that a killed build left behind the pages is made by the next build. ``sphinx``: the
    process the caller may have started early (early.py), with this config's ``sphinx_args``.
    """
    remove_temp_files(out, OUT_TEMPS)  # a copy of records.json interrupted before its rename (under the lock)
    argv = sphinx_args(config, out, jobs, search)
    before, doctrees = changes.inputs(config, out, argv), doctrees_path(config, out)
    if changes.holds(out, doctrees, before, indexed=search):
        return None
    changes.forget(doctrees)
    result = (sphinx or early.Sphinx(argv)).result()
    if result.returncode != 0:
        # With --keep-going Sphinx saves its environment even when a warning failed the build, and
        # the next build would not read that page again: it would pass with the fault still there.
        (doctrees / "environment.pickle").unlink(missing_ok=True)
        return result.returncode
    if search:
        index_if_stale(out, doctrees)  # its record beside the doctrees, not in the site
    changes.record(out, doctrees, before)
    return 0
