"""Page names: file-name-safe slugs of citation keys, tags and names, for every stage.

Pure (no stage imports here): the store names new keys with them, the enrichment and the
renderers name pages with them, the site writes the files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from .latex import ascii_fold

SAFE_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
# Windows device names: a file called "con.md" cannot be created there.
RESERVED = frozenset(["con", "prn", "aux", "nul"] + [f"{d}{n}" for d in ("com", "lpt") for n in range(10)])
MAX_SLUG = 64
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def hyphenated(text: str, limit: int = MAX_SLUG) -> str:
    """The ASCII letters and digits of ``text``, lower case, runs of anything else one hyphen
    ("Pipeline parallelism" -> ``pipeline-parallelism``), at most ``limit`` characters; may be empty."""
    return _NOT_SLUG.sub("-", ascii_fold(text).lower()).strip("-")[:limit].strip("-")


def is_safe(key: str) -> bool:
    return bool(SAFE_KEY.match(key)) and key.lower() not in RESERVED


def slugs(keys: Iterable[str]) -> dict[str, str]:
    """A file-name-safe, case-insensitively unique slug for every key.

    A safe key is its own slug. Any other key (separators, ``..``, upper case, device
    names, length) is reduced to safe characters and given a short hash of the key, so
    the slug is stable from build to build and cannot collide with another key's.
    """
    keys = sorted(set(keys))
    out = {key: key for key in keys if is_safe(key) and len(key) <= MAX_SLUG}
    taken = set(out.values())
    for key in keys:
        if key in out:
            continue
        base = hyphenated(key, MAX_SLUG - 17) or "entry"
        digest = hashlib.sha1(key.encode()).hexdigest()
        width = 8
        while f"{base}-{digest[:width]}" in taken:  # only a key chosen to collide gets here
            width += 1
        out[key] = f"{base}-{digest[:width]}"
        taken.add(out[key])
    return out
