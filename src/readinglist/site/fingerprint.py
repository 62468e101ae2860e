"""A fingerprint of everything the generated pages depend on, to skip a generate that would write nothing.

Editing a note's body changes no generated page (pages include notes), so a no-op or
note-only rebuild need not parse refs.bib or compute similarities at all.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..config import Config
from ..errors import ReadingListError
from ..render.notes import read_note
from .manifest import MANIFEST, read_manifest

STAMP = ".readinglist-inputs"
PACKAGE = Path(__file__).resolve().parent.parent


def inputs_fingerprint(config: Config, hand_written: list[str]) -> str:
    digest = hashlib.sha256()
    # conf/identity.toml: its [[different]] keys keep pasted entries on pages of their own (site/pasted.py)
    for path in [
        config.root / "conf" / "readinglist.toml",
        config.bib_path,
        config.taxonomy_path,
        config.identity_path,
    ]:
        digest.update(_read(path))
    for note in sorted(config.notes_path.glob("*.md")) if config.notes_path.is_dir() else []:
        parsed = read_note(note)  # its front matter and whether it has a body show on the page
        digest.update(f"{note.name}|{sorted(parsed.meta.items())!r}|{parsed.has_body}|{parsed.body_line}".encode())
    digest.update("|".join(hand_written).encode())
    for source in sorted(PACKAGE.rglob("*")):  # a new version of the tool may render differently
        if source.suffix in {".py", ".j2", ".toml", ".csl"}:  # .csl: the Cite menu's ACL style
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _read(path: Path) -> bytes:
    """The bytes of an input, ``-`` if it does not exist (the stage that reads it says if that is wrong)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b"-"
    except OSError as exc:  # unreadable, or a directory: one line, not a traceback
        raise ReadingListError(f"cannot read: {exc.strerror or exc}", path) from None


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
