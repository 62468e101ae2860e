"""A fingerprint of everything the generated pages depend on, to skip a generate that would write nothing.

Editing a note's body changes no generated page (pages include notes), so a no-op or
note-only rebuild need not parse refs.bib or compute similarities at all.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..config import Config
from ..model import Note
from ..store import storefile
from .manifest import MANIFEST, read_manifest

STAMP = ".readinglist-inputs"
PACKAGE = Path(__file__).resolve().parent.parent


def inputs_fingerprint(config: Config, hand_written: list[str], notes: dict[str, Note]) -> str:
    """``notes``: every note by slug (``render.notes.load_notes``)."""
    digest = hashlib.sha256()
    # conf/identity.toml: its [[different]] keys keep pasted entries on pages of their own (site/pasted.py)
    for path in [
        config.root / "conf" / "readinglist.toml",
        config.bib_path,
        config.taxonomy_path,
        config.identity_path,
    ]:
        digest.update(read_input(path))
    for slug, note in sorted(notes.items()):
        digest.update(f"{slug}|{note_state(note)}".encode())
    digest.update("|".join(hand_written).encode())
    digest.update(code_digest().encode())
    return digest.hexdigest()


def note_state(note: Note) -> str:
    """What of a note the generated pages show: its front matter and whether (and where) its body starts.

    The body itself is not: the paper page includes the file, so Sphinx sees a body edit alone.
    """
    return f"{sorted(note.meta.items())!r}|{note.has_body}|{note.body_line}"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the tool's own files: a new version may enrich or render differently."""
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.rglob("*")):
        if source.suffix in {".py", ".j2", ".toml", ".csl"}:  # .csl: the Cite menu's ACL style
            digest.update(source.read_bytes())
    return digest.hexdigest()


def read_input(path: Path) -> bytes:
    """The bytes of an input, ``-`` if it does not exist (the stage that reads it says if that is wrong)."""
    # A regular file of bounded size only (a FIFO refs.bib blocked generate forever), one line otherwise.
    opened = storefile.open_store(path)
    if opened is None:
        return b"-"
    opened.close()
    return opened.data


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
