"""The garbage collector's tuning for the command line's generate, in one place.

Python's cyclic collector walks every tracked object of a generation each time it runs. The
generator allocates large object graphs it keeps (a cached library, the render memo, the Cite
menus' references) and almost no cycles, so the walks are time with nothing to collect:

- :func:`collector_paused`: while a cached result is unpickled (readinglist.cache). Every object
  it makes is kept; the collector's passes over them took half of the time (the library at
  10,000 works). Re-enabled, the collector walks those objects once.
- :func:`keep_loaded`: after the command line's generate has its library, whatever is loaded is
  put out of the collector's reach (``gc.freeze``; reference counting still frees it): the
  collector walked the 10,000-work library again and again during the render. Only in the
  command line's own process: a caller's collector (a test, Sphinx) is not ours to tune.

The import (store/importer.py) and the Sphinx build (site/sphinx_ext/memory.py) tune their own
collector still; they are to use these too.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside; the caller's state (a collector it paused stays paused) after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def keep_loaded() -> None:
    """Every object alive now is skipped by later collections (and at exit)."""
    gc.freeze()
