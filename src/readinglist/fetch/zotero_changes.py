"""The fetched items sorted out: works to import, notes and highlights to keep, items that left.

A work (not a note, attachment or annotation) in scope becomes a record; one out of the
collection's scope, or in the trash, or deleted, that an earlier sync brought is "removed". A
child note is filed under its item, an annotation under its attachment's item (an annotation
names its PDF, not the paper: the attachments' parents are kept between syncs for that).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..model import RawRecord, Skip
from ..sources.zotero_items import CHILD_TYPES, source_file, to_record
from .zotero_fetch import Fetched
from .zotero_state import Children, State


@dataclass
class Changes:
    records: list[RawRecord] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # item keys an earlier sync brought


def sort(fetched: Fetched, state: State, children: Children, library: str) -> Changes:
    """Records of the works in scope, and the items removed; ``children`` updated in place."""
    changes = Changes()
    for item in fetched.items:
        data = item["data"]
        if data.get("itemType") == "attachment" and isinstance(data.get("parentItem"), str):
            children.attachments[str(item["key"])] = data["parentItem"]
    gone = set(fetched.deleted)
    for item in fetched.items:
        key, data = str(item.get("key", "")), item["data"]
        if data.get("deleted"):  # in the trash
            gone.add(key)
        elif data.get("itemType") in CHILD_TYPES:
            file_child(item, children)
        elif fetched.scope is not None and not fetched.scope & set(_list(data.get("collections"))):
            gone.add(key)  # moved out of the collection
        else:
            _add(item, library, changes)
    changes.removed = sorted(k for k in gone if k in state.keys)
    forget(gone, children)
    return changes


def _add(item: dict[str, Any], library: str, changes: Changes) -> None:
    key = str(item["key"])
    try:
        changes.records.append(to_record(item, library))
    except ValueError as exc:
        changes.skipped.append(Skip(source_file(library, key), 1, key, str(exc)))


def file_child(item: dict[str, Any], children: Children) -> None:
    data, key = item["data"], str(item["key"])
    kind, parent = data.get("itemType"), data.get("parentItem")
    if not isinstance(parent, str):
        return  # a standalone note or file: no paper to show it on
    if kind == "note":
        children.of(parent)["notes"][key] = str(data.get("note", ""))
    elif kind == "annotation" and parent in children.attachments:
        children.of(children.attachments[parent])["highlights"][key] = {
            "text": data.get("annotationText", ""),
            "comment": data.get("annotationComment", ""),
            "color": data.get("annotationColor", ""),
            "page": data.get("annotationPageLabel", ""),
            "sort": data.get("annotationSortIndex", ""),
        }


def forget(gone: set[str], children: Children) -> None:
    """Deleted or trashed notes and highlights leave the pages; so do a removed item's."""
    for item in gone & set(children.items):
        del children.items[item]
    for entry in children.items.values():
        for kind in ("notes", "highlights"):
            for key in gone & set(entry.get(kind, {})):
                del entry[kind][key]
    for key in gone & set(children.attachments):
        del children.attachments[key]


def snapshot(children: Children) -> dict[str, str]:
    """Each item's notes and highlights as one comparable text (what changed decides what is rewritten)."""
    return {item: json.dumps(entry, sort_keys=True) for item, entry in children.items.items()}


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {item for item in before.keys() | after.keys() if before.get(item) != after.get(item)}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
