"""The rendered files' memo (render/memo.py), kept from one generate to the next.

Each unit's entry holds its files under a digest of what it read; the digests leave out the
settings and the code, so the whole memo is kept under a key of those, in
``docs/.readinglist-render.pickle``, beside the enrichment's cache and written as it is
(``libcache.pickled``: a header, the key and a SHA-256). Another key, or a file that fails its
check, is an empty memo: every unit is rendered.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import CONFIG_FILE, Config
from ..render.registry import PAPERS
from .fingerprint import code_digest, read_input
from .libcache import pickled, unpickled

if TYPE_CHECKING:
    from ..render.memo import Entry

FILE = ".readinglist-render.pickle"  # relative to docs/
MAGIC = b"readinglist-render 1\n"


def key(config: Config) -> str:
    """The settings (title, base_url, graph, charts, ...) and the code: what no entry's key holds."""
    return hashlib.sha256(code_digest().encode() + b"\0" + read_input(config.root / CONFIG_FILE)).hexdigest()


def load(path: Path, wanted: str) -> dict[str, Entry]:
    from ..render.memo import Entry  # pybtex and the renderers: only a render needs them

    found = unpickled(path, wanted, MAGIC)
    valid = isinstance(found, dict) and all(isinstance(e, Entry) for e in found.values())
    return found if valid and isinstance(found, dict) else {}


def save(path: Path, wanted: str, made: dict[str, Entry], previous: dict[str, Entry], partial: bool) -> None:
    """``made``: this generate's entries. A partial render (site/pagestate.py) rendered only some
    paper pages: the others' entries are kept, to serve them once the library changes."""
    kept = {n: e for n, e in previous.items() if n.startswith(f"{PAPERS}/") and n not in made} if partial else {}
    pickled(path, wanted, MAGIC, kept | made)
