"""Garbage-collector tuning for big builds: opt in with ``readinglist_tune_gc = True``.

It changes the collector of the whole Python process, which a conf.py that runs other code,
or a test session, may not want, so it is off unless asked for; ``readinglist build`` asks.
What it does, and what it saved (2 cores, docs/develop/performance.md):

- fewer collections of the youngest generation: doctrees are large trees of small objects that
  live until written, and the default threshold (700) spent a sixth of a build in GC;
- no collection at all while Sphinx unpickles its environment (millions of objects, none of
  them garbage: 5 s of a no-op rebuild at 10,000 papers); frozen once loaded, they are not
  scanned again. When the build ends they are collectable again and the thresholds are restored.
"""

from __future__ import annotations

import gc

from sphinx.application import Sphinx
from sphinx.config import Config

from .state import state

THRESHOLDS = (50_000, 50, 100)


def _before_loading(app: Sphinx, config: Config) -> None:
    if config.readinglist_tune_gc:
        state(app).gc_thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.disable()


def _loaded(app: Sphinx) -> None:
    if state(app).gc_thresholds is not None:
        gc.freeze()
        gc.enable()


def _finished(app: Sphinx, exception: BaseException | None) -> None:
    saved = state(app).gc_thresholds
    if saved is not None:
        gc.unfreeze()
        gc.set_threshold(*saved)
        state(app).gc_thresholds = None


def setup(app: Sphinx) -> None:
    app.add_config_value("readinglist_tune_gc", False, "", types=[bool])
    app.connect("config-inited", _before_loading, priority=900)  # just before the environment is loaded
    app.connect("builder-inited", _loaded, priority=50)
    app.connect("build-finished", _finished, priority=950)
