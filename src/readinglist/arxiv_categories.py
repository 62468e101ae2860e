"""arXiv's category taxonomy as shipped (``data/arxiv_taxonomy.toml``), read once for every stage.

The sources tell an arXiv category from a user's keyword by it; the enrichment infers a
record's categories from it. Not to be confused with the user's topics (``conf/topics.toml``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .tomlfile import package_toml


@lru_cache(maxsize=1)
def entries() -> tuple[dict[str, Any], ...]:
    """Every category of the file (aliases too, as ``alias_of``), in its order."""
    return tuple(package_toml("arxiv_taxonomy.toml")["category"])


@lru_cache(maxsize=1)  # every entry a reader sees asks which of its keywords are categories
def ids() -> frozenset[str]:
    """Every category id, aliases too: what tells an arXiv category from a user's keyword."""
    return frozenset(str(entry["id"]) for entry in entries())


@lru_cache(maxsize=1)  # every paper page names its categories
def names() -> dict[str, str]:
    """Category id to its name, canonical categories only (what a page shows beside an id)."""
    return {str(entry["id"]): str(entry["name"]) for entry in entries() if not entry.get("alias_of")}
