"""Every garbage-collector and memory tuning of readinglist, in one place.

Python's cyclic collector walks every tracked object of a generation each time it runs. The
generator, the import and a Sphinx build allocate large object graphs they keep (a cached
library, the import's 3-gram index, Sphinx's environment and doctrees) and almost no cycles, so
those walks are time spent with nothing to collect. Each function below says when it applies.

Who calls what: the generator's cache (readinglist.cache) unpickles as it allocates; the
Sphinx bibliography's cache pauses the collector while it unpickles; the import
(store/importer.py) allocates as it merges; the command line's generate runs at a tuned
build's thresholds and keeps what it loaded; a Sphinx build, when asked
(``readinglist_tune_gc``, ``readinglist_exit_frozen``), tunes it through the event hookup in
``site/sphinx_ext/memory.py``, which also bounds the doctrees Sphinx keeps. A caller's
collector (a test, a plain sphinx-build) is never tuned unless it asks.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# The thresholds of a tuned Sphinx build: doctrees are large trees of small objects that live
# until written, and at the default threshold (700) a sixth of a build went to collections.
THRESHOLDS = (50_000, 50, 100)
# A tuned build that reads at most FEW_DOCUMENTS (a note edit's rebuild) runs with the collector
# paused, until the process has grown by PAUSE_MB: a page rewritten by every page's navigation
# can make a build that reads one document write all of them, each leaving its garbage.
FEW_DOCUMENTS = 100
PAUSE_MB = 500
# Doctrees a serial Sphinx build keeps for writing (about 0.2 MB each in memory): below this
# many pages every doctree stays in memory, as Sphinx does by default.
KEPT_DOCTREES = 1_000


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside; the caller's state (a collector it paused stays paused) after.

    For unpickling a kept result (readinglist.cache, the bibliography's cache): every object
    made is kept, and collections during the load walk them all for nothing."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def allocating() -> Iterator[None]:
    """As :func:`collector_paused`, for a span that allocates millions of objects it keeps
    (the import's merge and its 3-gram index, a cached library unpickled); after it, what the
    span allocated is moved to the oldest generation in one step (``freeze`` then ``unfreeze``),
    before the collector runs again: left in the youngest, the first collections after the span
    walked all of it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:  # a caller's paused collector: its generations are its own
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def tune_own_process() -> None:
    """The command line's own process, before its generate loads the cached library: the
    thresholds of a tuned Sphinx build (:data:`THRESHOLDS`). At the default ones, a note edit's
    generate ran hundreds of young collections over what its render allocates and keeps."""
    gc.set_threshold(*THRESHOLDS)


def keep_loaded() -> None:
    """Every object alive now is skipped by later collections, at exit too (``gc.freeze``;
    reference counting still frees it). For a process that keeps what it loaded until it exits:
    the command line's generate after loading its library, a Sphinx process of its own once its
    build has finished (``readinglist_exit_frozen``), whose last collection walked millions of
    objects only to free memory the operating system frees anyway."""
    gc.freeze()


def tune_for_loading() -> tuple[int, int, int]:
    """A tuned Sphinx build, before its environment is unpickled (millions of objects, none of
    them garbage): collections off, :data:`THRESHOLDS` for later. Returns the thresholds to
    restore with :func:`untune`."""
    saved = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    gc.disable()
    return saved


def loaded() -> None:
    """The environment is loaded: kept out of later collections (:func:`keep_loaded`), which resume."""
    gc.freeze()
    gc.enable()


def pause() -> float:
    """No collection until :func:`resume`, in a build that reads few documents (:data:`FEW_DOCUMENTS`):
    one collection of what a few long listings leave took a seventh of such a rebuild at
    10,000 works, to free little. Returns the resident memory now, for :func:`grown`."""
    now = resident_mb()
    gc.disable()
    return now


def grown(paused_at: float) -> bool:
    """Whether the process has grown by more than :data:`PAUSE_MB` since :func:`pause`."""
    return resident_mb() - paused_at > PAUSE_MB


def resume() -> None:
    gc.enable()


def untune(saved: tuple[int, int, int]) -> None:
    """The end of a tuned build in a process that goes on: what it loaded is collectable again,
    under the thresholds it had before (:func:`tune_for_loading`)."""
    gc.unfreeze()
    gc.set_threshold(*saved)


def drop_newest(kept: dict[Any, Any], limit: int) -> None:
    """Trim Sphinx's doctrees kept for writing to ``limit``: the newest go, being the last written
    (Sphinx writes in sorted order); each is unpickled again from disk when its page is written."""
    while len(kept) > limit:
        kept.popitem()


def resident_mb() -> float:
    """The process's resident memory; where /proc is missing, its peak (which only grows; in
    bytes on macOS, kilobytes elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource  # not on Windows, where neither is available: no pause is ever cut short

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024
