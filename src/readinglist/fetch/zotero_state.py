"""What ``readinglist sync zotero`` keeps between syncs, and the owner's Zotero settings.

- ``conf/zotero-sync.toml`` (the tool's, rewritten whole after each sync, atomically and only
  when it changed): the library and collection synced, the library version reached, each
  Zotero item key's citation key in refs.bib, so a key stays the same from sync to sync, and
  the items merged into an entry the owner already had (``--prune`` never removes those).
- ``conf/zotero-notes.json`` (the tool's): each item's child notes (HTML as Zotero has it,
  sanitised only when shown) and PDF highlights, and which attachment belongs to which item
  (an annotation names its attachment, not its item). An incremental sync receives only the
  children that changed, so the rest are kept here.
- ``conf/zotero.toml`` (the owner's, read only): ``[highlights]`` maps a highlight colour to
  the summary field it stands for (``yellow = "Key result"``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Code, ReadingListError
from ..tomlfile import read_toml
from ..writer import write_if_changed

STATE = Path("conf/zotero-sync.toml")
CHILDREN = Path("conf/zotero-notes.json")
SETTINGS = Path("conf/zotero.toml")
HEADER = "# Written by `readinglist sync zotero`: where the last sync reached. The tool rewrites this file.\n"
_KEY = re.compile(r"^[A-Za-z0-9]{1,32}$")  # Zotero's object keys are 8 characters of [23456789A-Z]


@dataclass
class State:
    library: str = ""
    collection: str = ""
    version: int = 0
    keys: dict[str, str] = field(default_factory=dict)  # Zotero item key -> citation key
    merged: set[str] = field(default_factory=set)  # items merged into an entry the owner had: --prune keeps it

    def text(self) -> str:
        lines = [HEADER, f"library = {_quoted(self.library)}", f"collection = {_quoted(self.collection)}"]
        lines += [f"version = {self.version}"]
        lines += [f"merged = [{', '.join(_quoted(i) for i in sorted(self.merged) if _KEY.match(i))}]"]
        lines += ["", "[keys]  # Zotero item key -> citation key in refs.bib"]
        lines += [f"{item} = {_quoted(key)}" for item, key in sorted(self.keys.items()) if _KEY.match(item)]
        return "\n".join(lines) + "\n"


@dataclass
class Children:
    """Notes and highlights by Zotero item key; attachments by their key, naming their item."""

    items: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # item -> {"notes"|"highlights": …}
    attachments: dict[str, str] = field(default_factory=dict)

    def of(self, item: str) -> dict[str, dict[str, Any]]:
        return self.items.setdefault(item, {"notes": {}, "highlights": {}})

    def text(self) -> str:
        items = {k: v for k, v in sorted(self.items.items()) if v.get("notes") or v.get("highlights")}
        data = {"attachments": dict(sorted(self.attachments.items())), "items": items}
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def load_state(root: Path) -> State:
    path = root / STATE
    if not path.exists():
        return State()
    data = read_toml(path)
    keys, merged = data.get("keys", {}), data.get("merged", [])
    version = data.get("version", 0)
    if not isinstance(keys, dict) or not isinstance(version, int) or version < 0 or not isinstance(merged, list):
        raise ReadingListError("is out of shape (version, [keys]); delete it to sync anew", path, code=Code.BAD_CONFIG)
    library, collection = (str(data.get(name, "")) for name in ("library", "collection"))
    return State(library, collection, version, _strings(keys), {str(i) for i in merged})


def load_children(root: Path) -> Children:
    path = root / CHILDREN
    if not path.exists():
        return Children()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReadingListError(
            f"is not the tool's JSON ({exc}); delete it to sync anew", path, code=Code.BAD_CONFIG
        ) from None
    data = data if isinstance(data, dict) else {}
    items, attachments = data.get("items"), data.get("attachments")
    if not isinstance(items, dict) or not isinstance(attachments, dict):
        raise ReadingListError("is out of shape; delete it to sync anew", path, code=Code.BAD_CONFIG)
    return Children({k: v for k, v in items.items() if isinstance(v, dict)}, _strings(attachments))


def highlight_fields(root: Path) -> dict[str, str]:
    """``[highlights]`` of conf/zotero.toml: colour (a name or ``#rrggbb``) -> summary field."""
    path = root / SETTINGS
    if not path.exists():
        return {}
    table = read_toml(path).get("highlights", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise ReadingListError('[highlights] maps colours to fields: yellow = "Key result"', path, code=Code.BAD_CONFIG)
    return {str(k).lower(): v for k, v in table.items()}


def save(root: Path, state: State, children: Children) -> list[str]:
    """Write both files where they changed; the paths written."""
    written = []
    for rel, text in ((STATE, state.text()), (CHILDREN, children.text())):
        if write_if_changed(root / rel, text):
            written.append(rel.as_posix())
    return written


def _quoted(text: str) -> str:
    # JSON's string escapes are TOML's (project.py writes the title so too).
    return json.dumps(text, ensure_ascii=False)


def _strings(table: dict[Any, Any]) -> dict[str, str]:
    return {str(k): v for k, v in table.items() if isinstance(v, str)}
