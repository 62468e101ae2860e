"""Moved to :mod:`readinglist.cache` (issue 29): the generator's results live in one cache.

Kept only so that ``site/sphinx_ext/bibcache.py`` keeps importing ``collector_paused`` from here
until it imports it from ``readinglist.cache``; nothing else may import this module.
"""

from __future__ import annotations

from ..cache import collector_paused

__all__ = ["collector_paused"]
