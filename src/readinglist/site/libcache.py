"""The enrichment, kept from one ``generate`` to the next, so a note edit recomputes none of it.

Enrichment (similarity neighbours, versions, topics, authors) is most of a generate: about 8 s
of 9 at 1,000 works. It reads refs.bib, conf/topics.toml, conf/identity.toml, the two related
settings, the notes' ``title:`` overrides (a title is part of the text papers are compared by)
and the code, and nothing else: a note's status, tags or body change none of it. So the
enriched library is pickled into ``docs/.readinglist-library.pickle`` under a key of exactly
those inputs, beside the manifest, and written atomically.

The file is a shortcut, never trusted: a header, key or SHA-256 that does not match, or a payload
that does not unpickle into an :class:`Enriched`, is ignored and the library is built again.
Unpickling runs no code a person could not already run: docs/conf.py is Python too.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..writer import write_bytes_if_changed
from .fingerprint import code_digest, read_input

if TYPE_CHECKING:
    from ..config import Config
    from ..model import Library

FILE = ".readinglist-library.pickle"  # relative to docs/
MAGIC = b"readinglist-library 1\n"
# The per-work results (enrich/recall.py): kept apart, because they outlive a change to refs.bib.
RECALL_FILE = ".readinglist-recall.pickle"
RECALL_MAGIC = b"readinglist-recall 1\n"


@dataclass(frozen=True)
class Enriched:
    """What ``assemble.build_library`` makes from the inputs, notes' bodies and front matter aside."""

    library: Library
    bibtex: dict[str, str]  # the public BibTeX of each shown entry, for the copy block
    messages: tuple[str, ...]  # what reading refs.bib printed (skips, folds): printed again when served
    fixed: dict[str, str]  # the generated files no note shows on (years, bibliography, records.json)
    problems: tuple[str, ...]  # what the bibliography changed, for generate's report


def key(config: Config, titles: dict[str, str]) -> str:
    """A digest of every input the enrichment reads; ``titles``: the notes' ``title:`` by slug."""
    digest = hashlib.sha256()
    for path in (config.bib_path, config.taxonomy_path, config.identity_path):
        digest.update(read_input(path) + b"\0")
    digest.update(repr((config.bib, config.related_top_k, config.related_min_score, config.infer_categories)).encode())
    digest.update(repr(sorted(titles.items())).encode())
    digest.update(code_digest().encode())
    return digest.hexdigest()


def load(path: Path, wanted: str) -> Enriched | None:
    """The cached enrichment if ``path`` holds one made under the key ``wanted``, else None."""
    found = unpickled(path, wanted, MAGIC)
    return found if isinstance(found, Enriched) else None


def save(path: Path, wanted: str, enriched: Enriched) -> None:
    pickled(path, wanted, MAGIC, enriched)


def recall_key(config: Config) -> str:
    """What the per-work results (enrich/recall.py) read besides their arguments: conf/topics.toml and the code."""
    return hashlib.sha256(read_input(config.taxonomy_path) + b"\0" + code_digest().encode()).hexdigest()


def load_recall(config: Config) -> dict[tuple[str, str], Any]:
    found = unpickled(config.docs_path / RECALL_FILE, recall_key(config), RECALL_MAGIC)
    return found if isinstance(found, dict) else {}


def save_recall(config: Config, used: dict[tuple[str, str], Any]) -> None:
    pickled(config.docs_path / RECALL_FILE, recall_key(config), RECALL_MAGIC, used)


def unpickled(path: Path, wanted: str, magic: bytes) -> object:
    """What ``path`` holds if it was pickled under ``magic`` and the key ``wanted``, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, _, payload = data.partition(b"\n\n")
    if header + b"\n" != _header(wanted, payload, magic):  # another key, a truncated or altered file
        return None
    try:
        with collector_paused():
            return pickle.loads(payload)
    except Exception:  # a file that passed its digest but was made by other code: rebuild, never fail
        return None


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while a cache is unpickled: every object it makes is kept, and the
    collector's passes over them took half of the time (the library at 10,000 works: 0.68 s to
    0.30 s). Re-enabled, the collector walks those objects once (0.08 s there): a pause moves
    that one collection, it saves the others. The command line then freezes them (generate.run)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def pickled(path: Path, wanted: str, magic: bytes, value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    # Not flushed to disk: a file torn by a power cut fails its digest and is built again.
    write_bytes_if_changed(path, _header(wanted, payload, magic) + b"\n" + payload, durable=False)


def _header(wanted: str, payload: bytes, magic: bytes) -> bytes:
    return magic + f"key {wanted}\nsha256 {hashlib.sha256(payload).hexdigest()}\n".encode()
