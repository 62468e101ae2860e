"""The on-disk cache of API answers (``.readinglist-cache/`` in the project): add a paper twice, ask once.

Answers are stored as the service sent them, and only once they parsed, so a better parser
reads old answers anew and a broken answer is never kept.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import quote

from ..writer import write_if_changed
from .ids import Identifier

MAX_NAME = 120  # longer names (a long DOI) become a hash: file systems limit names to 255 bytes
EXTENSIONS = {"arxiv": ".xml", "crossref": ".json"}


class Cache:
    def __init__(self, folder: Path, refresh: bool = False) -> None:
        self.folder = folder
        self.refresh = refresh  # ask again, then overwrite what was kept

    def path(self, ident: Identifier) -> Path:
        name = quote(ident.base, safe="")
        if len(name) > MAX_NAME:
            name = hashlib.sha256(ident.base.encode("utf-8")).hexdigest()
        return self.folder / ident.kind / (name + EXTENSIONS[ident.kind])

    def get(self, ident: Identifier) -> str | None:
        if self.refresh:
            return None
        try:
            return self.path(ident).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None  # not kept, or unreadable: ask the service

    def put(self, ident: Identifier, text: str) -> None:
        if not (self.folder / ".gitignore").exists():
            # Ignored by Git even in a project whose .gitignore does not name the folder.
            write_if_changed(self.folder / ".gitignore", "# answers of the arXiv API and Crossref\n*\n", durable=False)
        write_if_changed(self.path(ident), text, durable=False)
