"""Reading the user's notes (``docs/notes/<key>.md``): front matter and where the body starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import ReadingListError


@dataclass(frozen=True)
class Note:
    path: Path
    body_line: int  # 0-based first line after the front matter, for {include} :start-line:
    meta: dict[str, Any] = field(default_factory=dict)
    has_body: bool = True


def load_notes(folder: Path) -> dict[str, Note]:
    """Notes by citation key (the file stem). Read only: notes are never written here."""
    if not folder.is_dir():
        return {}
    return {path.stem: read_note(path) for path in sorted(folder.glob("*.md"))}


def read_note(path: Path) -> Note:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ReadingListError(
            "notes file is not valid UTF-8", path, exc.object[: exc.start].count(b"\n") + 1
        ) from None
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return Note(path, 0, {}, bool(text.strip()))
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() in ("---", "...")), None)
    if end is None:
        raise ReadingListError("front matter opened with '---' is never closed", path, 1)
    try:
        meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ReadingListError(f"invalid front matter: {exc}", path, mark.line + 2 if mark else 1) from None
    if not isinstance(meta, dict):
        raise ReadingListError("front matter must be a mapping (key: value lines)", path, 2)
    return Note(path, end + 1, meta, any(line.strip() for line in lines[end + 1 :]))
