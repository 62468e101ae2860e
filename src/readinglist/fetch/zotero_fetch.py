"""What changed in a Zotero library since a version: the items, the deletions, the collection's scope.

The items are asked for trashed ones included (``includeTrashed=1``): an item moved to the trash
is not in ``/deleted``, and would otherwise vanish from the sync unseen. If the library's version
moves while its pages are read (someone edits meanwhile), the pages may have shifted under the
reader, so the listing starts again from the first page, as the API's documentation advises.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import Code, ReadingListError
from .zotero_api import PAGE, WHO, Client

RESTARTS = 3  # readings of a library that keeps changing, before the sync gives up


@dataclass
class Fetched:
    """What the API said changed: the library version reached, items, deleted keys, collections."""

    version: int
    items: list[dict[str, Any]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    scope: frozenset[str] | None = None  # the collection and its subcollections; None: the whole library


def fetch(client: Client, since: int, collection: str) -> Fetched | None:
    """Everything that changed since ``since``; None when the library answers 304 (one request)."""
    for _ in range(RESTARTS):
        read = _items(client, since)
        if read is None:
            return None
        if read.version:
            deleted = _deleted(client, since) if since else []
            scope = _scope(client, collection) if collection else None
            return Fetched(read.version, read.items, deleted, scope)
    raise ReadingListError(
        f"the library changed {RESTARTS} times while it was read; run the sync again", WHO, code=Code.BAD_ANSWER
    )


def _items(client: Client, since: int) -> Fetched | None:
    """Every changed item at one library version; version 0 if the version moved meanwhile."""
    url = client.url("items", since=since or None, format="json", limit=PAGE, includeTrashed=1)
    items: list[dict[str, Any]] = []
    version = 0
    with _progress() as advance:
        for answer, total in client.pages(url, since_version=since or None):
            if answer.status == 304:
                return None
            if version and answer.version != version:
                return Fetched(0)
            version = answer.version
            items += [i for i in _list(answer.body) if isinstance(i, dict) and isinstance(i.get("data"), dict)]
            advance(len(items), total)
    return Fetched(version, items)


def _deleted(client: Client, since: int) -> list[str]:
    answer = client.get(client.url("deleted", since=since))
    body = answer.body if isinstance(answer.body, dict) else {}
    return [k for k in _list(body.get("items")) if isinstance(k, str)]


def _scope(client: Client, collection: str) -> frozenset[str]:
    """The collection and every collection under it (the API lists each collection's parent)."""
    parents: dict[str, str] = {}
    for answer, _ in client.pages(client.url("collections", format="json", limit=PAGE)):
        for c in _list(answer.body):
            data = c.get("data", {}) if isinstance(c, dict) else {}
            parents[str(data.get("key", ""))] = str(data.get("parentCollection") or "")
    if collection not in parents:
        raise ReadingListError(
            f"no collection {collection} in {client.library} (--collection takes the key from its URL)",
            WHO,
            code=Code.NOT_FOUND,
        )
    scope = {collection}
    while grown := {k for k, parent in parents.items() if parent in scope and k not in scope}:
        scope |= grown
    return frozenset(scope)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None]]:
    """``fetching Zotero items`` with a bar (300/1,000) on a terminal's stderr; nothing elsewhere."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("fetching Zotero items", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total or None)
