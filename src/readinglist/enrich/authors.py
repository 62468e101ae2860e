"""Authors: conservative name identity (accents, case, hyphens) and listing pages."""

from __future__ import annotations

import re

from ..latex import ascii_fold


def author_id(name: str) -> str:
    """A filesystem-safe id; variants that differ only in accents, case or hyphens share it."""
    folded = ascii_fold(name).lower()
    return re.sub(r"[^a-z0-9]+", "-", folded.replace("-", "")).strip("-")[:60] or "unknown"
