"""Moved (issue 29): the generator's results live in :mod:`readinglist.cache`, the collector's
tuning in :mod:`readinglist.memory`.

Kept only so that ``site/sphinx_ext/bibcache.py`` keeps importing ``collector_paused`` from here
until it imports it from ``readinglist.memory``; nothing else may import this module.
"""

from __future__ import annotations

from ..memory import collector_paused

__all__ = ["collector_paused"]
