"""Authors: conservative name identity (accents, case, hyphens) and listing pages."""

from __future__ import annotations

import re

from ..latex import ascii_fold
from ..store.keys import RESERVED


def author_id(name: str) -> str:
    """A filesystem-safe id; variants that differ only in accents, case or hyphens share it."""
    folded = ascii_fold(name).lower()
    aid = re.sub(r"[^a-z0-9]+", "-", folded.replace("-", "")).strip("-")[:60] or "unknown"
    return f"{aid}-author" if aid in RESERVED else aid
