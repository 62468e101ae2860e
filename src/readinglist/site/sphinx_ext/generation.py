"""The pages generated when a build starts, under the build lock, and builds killed while writing or outright.

A plain ``sphinx-build docs OUT`` (as Read the Docs runs it) generates the pages first, so it
builds the whole list; ``readinglist build`` has generated already (``readinglist_generate``
is off) and holds the lock itself.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.config import Config as SphinxConfig
from sphinx.errors import ExtensionError
from sphinx.util import logging

from ...compat import leave_quietly
from ...config import Config as SiteConfig
from ...config import load_config
from ...errors import ReadingListError
from ...writer import remove_temp_files
from .. import build, child, early
from .settings import root
from .state import state

logger = logging.getLogger(__name__)

# The build lock (``build.locked``), held from generating until the build has finished. A lock
# is held by a process, so its holds are the process's, not an app's: the one module-level
# state of the extension. Apps of one process share one hold, so a test's or a conf.py's second
# app never waits for the first.
_lock_holders: WeakKeyDictionary[Sphinx, Path] = WeakKeyDictionary()
_held: dict[Path, ExitStack] = {}

# In the output folder while Sphinx writes: Sphinx saves its environment before it writes the pages,
# so after a build killed while writing it would write only the pages whose sources are newer than
# their HTML, not those that only depend on changed pages (toctrees, titles). Found by the next
# build, the mark has it write every page again.
WRITING = ".readinglist-writing"


def _wait_for_pages(app: Sphinx) -> None:
    """Started before the pages were complete (site/early.py): wait for the go, or leave quietly
    when none comes, before anything reads a page or writes into the output folder."""
    fd = app.config.readinglist_wait_fd
    if fd < 0:
        return
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        go = pipe.read(1)
    if go != early.GO:
        leave_quietly()  # nothing was written, nothing to clean up


def _generate(app: Sphinx) -> None:
    if not app.config.readinglist_generate:  # ``readinglist build`` has just generated (and holds the lock)
        return
    from .. import generate  # deferred: scikit-learn and friends take a second to import

    try:
        config = load_config(root(app))
        _lock_build(app, config)
        remove_temp_files(Path(app.outdir), build.OUT_TEMPS)
        report = generate.run(config, allow_empty=app.config.readinglist_allow_empty)
    except (ReadingListError, OSError) as exc:
        unlock_build(app, exc)
        message = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.filename else str(exc)
        raise ExtensionError(message) from None
    for line in report.lines():
        logger.info("[readinglist] %s", line)


def _lock_build(app: Sphinx, config: SiteConfig) -> None:
    if config.docs_path not in _held:
        with ExitStack() as stack:
            stack.enter_context(build.locked(config))
            _held[config.docs_path] = stack.pop_all()
    _lock_holders[app] = config.docs_path


def unlock_build(app: Sphinx, exception: BaseException | None) -> None:
    path = _lock_holders.pop(app, None)
    if path is not None and path not in _lock_holders.values():
        _held.pop(path).close()


def _workers_die_with_build(app: Sphinx, config: SphinxConfig) -> None:
    # A build, not the loading of the extension: importing it (autodoc, a test) forks nothing.
    # config-inited comes before Sphinx forks its -j workers (they read and write the pages).
    child.forks_die_with_parent()  # a killed sphinx-build takes its -j workers with it


def _check_interrupted(app: Sphinx) -> None:
    state(app).interrupted = (Path(app.outdir) / WRITING).is_file()


def _write_all_if_interrupted(app: Sphinx, env: Any) -> list[str]:
    Path(app.outdir).mkdir(parents=True, exist_ok=True)
    (Path(app.outdir) / WRITING).write_text("a build is writing this folder\n", encoding="utf-8")
    kept = state(app)
    interrupted, kept.interrupted = kept.interrupted, False
    if not interrupted:
        return []
    logger.info("[readinglist] the last build was interrupted: every page is written again")
    return sorted(env.found_docs)


def _writing_done(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        (Path(app.outdir) / WRITING).unlink(missing_ok=True)


def setup(app: Sphinx) -> None:
    app.add_config_value("readinglist_root", "..", "env", types=[str])
    app.add_config_value("readinglist_generate", True, "", types=[bool])
    app.add_config_value("readinglist_allow_empty", False, "", types=[bool])  # see generate.run
    app.add_config_value(early.SETTING, -1, "", types=[int])  # set only by readinglist build
    app.connect("config-inited", _workers_die_with_build)
    # Before sphinxcontrib-bibtex (priority 500) reads the bibliography the generator writes.
    app.connect("builder-inited", _wait_for_pages, priority=90)  # what comes first reads no page
    app.connect("builder-inited", _generate, priority=100)
    app.connect("builder-inited", _check_interrupted)
    app.connect("env-updated", _write_all_if_interrupted)
    app.connect("build-finished", _writing_done, priority=400)  # the pages are written; before Pagefind
    app.connect("build-finished", unlock_build, priority=900)  # last: after Pagefind
