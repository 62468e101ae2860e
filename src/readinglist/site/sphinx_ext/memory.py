"""Memory and garbage collection in big builds: a bound on kept doctrees, and opt-in GC tuning.

**Kept doctrees** (``readinglist_doctree_cache``, on by default). A serial Sphinx build keeps
every doctree it has read in memory until it writes it (``compat.kept_doctrees``), to
save unpickling it again: at 10,000 papers that is most of the build's 3 GB. Past the bound,
a doctree read is left on disk (Sphinx pickles every doctree anyway) and unpickled when its
page is written; the pages come out the same. Below it, nothing changes.

**A process that exits after its build** (``readinglist_exit_frozen = True``; ``readinglist
build`` and ``nox -s serve`` set it, since their Sphinx is a process of its own). It ends
holding its environment, millions of objects in reference cycles, and Python's last garbage
collection walked them only to free memory the operating system frees anyway: 1 s of a 2 s
no-op Sphinx run at 1,000 papers. Frozen once the build has finished, they are left to the
operating system. Off by default: a process that goes on (a test session, a conf.py that
builds twice) would keep them.

**Garbage-collector tuning**: opt in with ``readinglist_tune_gc = True``.

It changes the collector of the whole Python process, which a conf.py that runs other code,
or a test session, may not want, so it is off unless asked for; ``readinglist build`` asks.
What it does, and what it saved (2 cores, docs/develop/performance.md):

- fewer collections of the youngest generation: doctrees are large trees of small objects that
  live until written, and the default threshold (700) spent a sixth of a build in GC;
- no collection at all while Sphinx unpickles its environment (millions of objects, none of
  them garbage: 5 s of a no-op rebuild at 10,000 papers); frozen once loaded, they are not
  scanned again. When the build ends they are collectable again and the thresholds are restored;
- no collection at all in a build that reads few documents (a note edit's rebuild), until the
  process has grown by ``PAUSE_MB``: a single collection of the objects a few long listings leave
  took 1.9 s of a 14 s rebuild at 10,000 papers, to free some 80 MB.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from ...compat import kept_doctrees
from .state import state

THRESHOLDS = (50_000, 50, 100)
# Doctrees kept for writing. A paper's doctree is about 0.2 MB in memory, so 1,000 of them cost
# about 200 MB; at 1,000 papers every page stays cached and the build is as fast as before.
KEPT_DOCTREES = 1_000
# A build that reads at most this many documents runs with the collector paused (see above),
# until its memory has grown by PAUSE_MB: a page rewritten by every page's navigation can make
# a build that reads one document write all of them, each leaving its garbage.
FEW_DOCUMENTS = 100
PAUSE_MB = 500


def _bound(app: Sphinx, *args: Any) -> None:
    """Drop the doctree read last once the cache is full (called before each read and after all)."""
    kept = kept_doctrees(app.env)  # a private dict of Sphinx's
    limit = app.config.readinglist_doctree_cache
    while kept is not None and len(kept) > limit:
        kept.popitem()  # the newest: the oldest are written first (Sphinx writes in sorted order)


def _before_loading(app: Sphinx, config: Config) -> None:
    if config.readinglist_tune_gc:
        state(app).gc_thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.disable()


def _loaded(app: Sphinx) -> None:
    if state(app).gc_thresholds is not None:
        gc.freeze()
        gc.enable()


def _pause_if_few(app: Sphinx, env: Any, docnames: list[str]) -> None:
    if state(app).gc_thresholds is not None and len(docnames) <= FEW_DOCUMENTS:
        state(app).gc_paused_at = _resident_mb()
        gc.disable()


def _resume_if_grown(app: Sphinx, *args: Any) -> None:
    """After each document read or written: collect again once the pause has cost PAUSE_MB."""
    paused_at = state(app).gc_paused_at
    if paused_at is not None and _resident_mb() - paused_at > PAUSE_MB:
        _resume(app)


def _resume(app: Sphinx) -> None:
    if state(app).gc_paused_at is not None:
        state(app).gc_paused_at = None
        gc.enable()


def _resident_mb() -> float:
    """The process's resident memory; where /proc is missing, its peak (which only grows; in
    bytes on macOS, kilobytes elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource  # not on Windows, where neither is available: no pause is ever cut short

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def _finished(app: Sphinx, exception: BaseException | None) -> None:
    if app.config.readinglist_exit_frozen:
        # The process exits next and _exit_frozen freezes what is left: thawing millions of
        # objects (1 s at 10,000 papers) or a first collection after a pause would be wasted.
        return
    _resume(app)
    saved = state(app).gc_thresholds
    if saved is not None:
        gc.unfreeze()
        gc.set_threshold(*saved)
        state(app).gc_thresholds = None


def _exit_frozen(app: Sphinx, exception: BaseException | None) -> None:
    if app.config.readinglist_exit_frozen:
        gc.freeze()  # the collector skips frozen objects, at exit too


def setup(app: Sphinx) -> None:
    app.add_config_value("readinglist_tune_gc", False, "", types=[bool])
    app.add_config_value("readinglist_doctree_cache", KEPT_DOCTREES, "", types=[int])
    app.connect("source-read", _bound)
    app.connect("env-updated", _bound)
    app.connect("config-inited", _before_loading, priority=900)  # just before the environment is loaded
    app.connect("builder-inited", _loaded, priority=50)
    app.connect("env-before-read-docs", _pause_if_few)
    app.connect("doctree-read", _resume_if_grown)
    app.connect("doctree-resolved", _resume_if_grown)
    app.connect("build-finished", _finished, priority=950)
    app.add_config_value("readinglist_exit_frozen", False, "", types=[bool])
    app.connect("build-finished", _exit_frozen, priority=990)  # after _finished
