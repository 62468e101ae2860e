"""Memory in big builds: when a Sphinx build tunes the collector and bounds its kept doctrees.

Only the event hookup is here; what each tuning does, and why, is in :mod:`readinglist.memory`.

**Kept doctrees** (``readinglist_doctree_cache``, on by default). A serial Sphinx build keeps
every doctree it has read in memory until it writes it (``compat.kept_doctrees``): at 10,000
papers that is most of the build's memory. Past the bound, a doctree read is left on disk
(Sphinx pickles every doctree anyway) and unpickled when its page is written; the pages come
out the same.

**Garbage-collector tuning** (``readinglist_tune_gc``, off by default; ``readinglist build``
sets it). It changes the collector of the whole Python process, which a conf.py that runs other
code, or a test session, may not want. The collector is off while the environment is
unpickled, which is then frozen; a build reading few documents runs with it paused until memory
has grown; when the build ends, the frozen objects and the thresholds are restored.

**A process that exits after its build** (``readinglist_exit_frozen``; ``readinglist build``
and ``nox -s serve`` set it, their Sphinx being a process of its own): what is left is frozen
for the operating system to free. Off by default: a process that goes on would keep it all.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from ... import memory
from ...compat import kept_doctrees
from .state import state


def _bound(app: Sphinx, *args: Any) -> None:
    """Before each read and after all: the doctrees kept for writing, bounded."""
    kept = kept_doctrees(app.env)  # a private dict of Sphinx's
    if kept is not None:
        memory.drop_newest(kept, app.config.readinglist_doctree_cache)


def _before_loading(app: Sphinx, config: Config) -> None:
    if config.readinglist_tune_gc:
        state(app).gc_thresholds = memory.tune_for_loading()


def _loaded(app: Sphinx) -> None:
    if state(app).gc_thresholds is not None:
        memory.loaded()


def _pause_if_few(app: Sphinx, env: Any, docnames: list[str]) -> None:
    if state(app).gc_thresholds is not None and len(docnames) <= memory.FEW_DOCUMENTS:
        state(app).gc_paused_at = memory.pause()


def _resume_if_grown(app: Sphinx, *args: Any) -> None:
    """After each document read or written."""
    paused_at = state(app).gc_paused_at
    if paused_at is not None and memory.grown(paused_at):
        _resume(app)


def _resume(app: Sphinx) -> None:
    if state(app).gc_paused_at is not None:
        state(app).gc_paused_at = None
        memory.resume()


def _finished(app: Sphinx, exception: BaseException | None) -> None:
    if app.config.readinglist_exit_frozen:
        return  # the process exits next and _exit_frozen freezes what is left: no thawing, no collection
    _resume(app)
    saved = state(app).gc_thresholds
    if saved is not None:
        memory.untune(saved)
        state(app).gc_thresholds = None


def _exit_frozen(app: Sphinx, exception: BaseException | None) -> None:
    if app.config.readinglist_exit_frozen:
        memory.keep_loaded()


def setup(app: Sphinx) -> None:
    app.add_config_value("readinglist_tune_gc", False, "", types=[bool])
    app.add_config_value("readinglist_doctree_cache", memory.KEPT_DOCTREES, "", types=[int])
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
