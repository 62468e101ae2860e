"""A fingerprint of everything the generated pages depend on, to skip a generate that would write nothing.

Editing a note's body changes no generated page (pages include notes), so a no-op or
note-only rebuild need not parse refs.bib or compute similarities at all.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields
from pathlib import Path

from ..cache import key_of
from ..config import CONFIG_FILE, Config
from ..fetch.zotero_state import CHILDREN, SETTINGS
from ..model import Note
from .manifest import MANIFEST, read_manifest

STAMP = ".readinglist-inputs"


def inputs_fingerprint(config: Config, hand_written: list[str], notes: dict[str, Note]) -> str:
    """``notes``: every note by slug (``render.notes.load_notes``). A key of the cache's kind
    (readinglist.cache.key_of: the files by their bytes, and the code)."""
    # conf/identity.toml: its [[different]] keys keep pasted entries on pages of their own (site/pasted.py)
    files = (config.root / CONFIG_FILE, config.bib_path, config.taxonomy_path, config.identity_path, *synced(config))
    states = tuple((slug, note_state(note)) for slug, note in sorted(notes.items()))
    return key_of("inputs", *files, states, tuple(hand_written))


def settings(config: Config) -> tuple[tuple[str, object], ...]:
    """Every setting but the root, by name: what the render memo and the page record are kept
    under, so a setting added to ``Config`` is in their keys without being named there."""
    return tuple((f.name, getattr(config, f.name)) for f in fields(config) if f.name != "root")


def synced(config: Config) -> tuple[Path, ...]:
    """The files of the last Zotero sync that pages show (render/zotero.py): its notes and
    highlights, and which summary field each highlight colour fills. Written by the sync only."""
    return (config.root / CHILDREN, config.root / SETTINGS)


def note_state(note: Note) -> str:
    """What of a note the generated pages show: its front matter and whether (and where) its body starts.

    The body itself is not: the paper page includes the file, so Sphinx sees a body edit alone.
    """
    return f"{sorted(note.meta.items())!r}|{note.has_body}|{note.body_line}"


def stamp_text(docs: Path, fingerprint: str) -> str:
    """The inputs' fingerprint and the manifest's own, so an edited manifest is noticed too."""
    manifest = docs / MANIFEST
    mark = hashlib.sha256(manifest.read_bytes()).hexdigest() if manifest.exists() else "-"
    return f"{fingerprint} {mark}\n"


def is_current(docs: Path, fingerprint: str) -> bool:
    """True when the last generate saw these inputs and every file it wrote is still there."""
    stamp = docs / STAMP
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != stamp_text(docs, fingerprint):
        return False
    owned = read_manifest(docs)
    return bool(owned) and all((docs / rel).exists() for rel in owned)
