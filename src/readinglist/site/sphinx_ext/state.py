"""What the extension keeps during a build: on the Sphinx app, never in a module.

One process can run several apps (the tests, a conf.py that builds twice), one after the
other or side by side; each has a ``State`` of its own. With ``-j N`` a forked reader gets a
copy, which is all it needs: only the main process writes pages and runs the handlers below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sphinx.application import Sphinx

from .bibcache import Cache

ATTRIBUTE = "_readinglist_state"


@dataclass
class State:
    written: int = 0  # documents written by this build (the search index is stale from the first)
    interrupted: bool = False  # the last build of this output folder was killed while writing
    navigation: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = field(default_factory=dict)  # by folder
    records: dict[str, str] | None = None  # records.json's lines by page name (facets, citation meta tags)
    feeds: dict[str, list[list[str]]] = field(default_factory=dict)  # the feeds' index (feed links)
    bibliography: Cache = field(default_factory=Cache)  # formatted bibliography entries
    gc_thresholds: tuple[int, int, int] | None = None  # the collector's, while memory.py tunes it
    gc_paused_at: float | None = None  # resident MB when memory.py paused the collector, while paused
    statuses: dict[str, str] | None = None  # each paper's reading status by doc (liststatus.py), read once a build
    page_data: dict[str, Any] = field(default_factory=dict)  # paper pages' data files by name (pagedata.py), read once


def state(app: Sphinx) -> State:
    """The app's state, made on first use."""
    found = getattr(app, ATTRIBUTE, None)
    if not isinstance(found, State):
        found = State()
        setattr(app, ATTRIBUTE, found)
    return found
