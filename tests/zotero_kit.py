"""A local server that answers as the Zotero Web API v3 does, and the items it serves.

Shared by the tests (test_zotero_sync.py, test_zotero_site.py) and the benchmark
(benchmarks/zotero.py puts this folder on ``sys.path``), so the three cannot drift apart.
The shapes are the API documentation's: ``GET /users/1/items?since=&format=json&limit=&start=``
with ``Last-Modified-Version``, ``Total-Results`` and ``Link: <…>; rel="next"``, 304 to
``If-Modified-Since-Version``, ``/deleted?since=``, ``/collections``, 403 for a wrong key, 404
for another library, and 429 with ``Backoff``/``Retry-After`` when told to. It imports no
pytest: the benchmark runs without it.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit


class FakeZotero:
    """One user library (``users/1``): objects by key, each with the version it last changed at.

    ``key``: the API key it accepts (None: any)."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key
        self.objects: dict[str, dict[str, Any]] = {}
        self.deleted: dict[str, int] = {}
        self.collections: dict[str, str] = {}  # key -> parent key ("" for a top-level one)
        self.version = 0
        self.log: list[tuple[str, int, int]] = []  # (path, status, objects sent)
        self.busy = 0  # answer this many requests with 429 first
        self.edit_while_read = 0  # pages after which the library changes
        self.lock = threading.Lock()

    def put(self, data: dict[str, Any]) -> None:
        self.version += 1
        data = {**data, "version": self.version}
        self.objects[data["key"]] = {"key": data["key"], "version": self.version, "data": data}

    def delete(self, key: str) -> None:
        self.version += 1
        self.objects.pop(key, None)
        self.deleted[key] = self.version

    def answer(self, path: str, query: dict[str, str], headers: Any, base: str) -> tuple[int, dict[str, str], Any]:
        if self.key is not None and headers.get("Zotero-API-Key") != self.key:
            return 403, {}, "Forbidden"
        if not path.startswith("/users/1/"):
            return 404, {}, "Not found"
        if self.busy:
            self.busy -= 1
            return 429, {"Retry-After": "2", "Backoff": "3"}, "Too many requests"
        since = int(query.get("since", "0"))
        head = {"Last-Modified-Version": str(self.version)}
        if headers.get("If-Modified-Since-Version") == str(self.version):
            return 304, head, None
        what = path.removeprefix("/users/1/")
        if what == "deleted":
            return 200, head, {"items": [k for k, v in self.deleted.items() if v > since], "collections": []}
        if what == "collections":
            parents = self.collections.items()
            found = [{"key": k, "data": {"key": k, "parentCollection": p or False}} for k, p in parents]
            return self._page(found, query, head, base, path)
        if what == "items":
            return self._items(since, query, head, base, path)
        return 404, {}, "Not found"

    def _items(
        self, since: int, query: dict[str, str], head: dict[str, str], base: str, path: str
    ) -> tuple[int, dict[str, str], Any]:
        trashed = query.get("includeTrashed") == "1"
        found = sorted(
            (o for o in self.objects.values() if o["version"] > since and (trashed or not o["data"].get("deleted"))),
            key=lambda o: str(o["key"]),
        )
        page = self._page(found, query, head, base, path)
        if self.edit_while_read:  # someone edits the library between the pages
            self.edit_while_read -= 1
            self.put(item(999))
        return page

    def _page(
        self, found: list[dict[str, Any]], query: dict[str, str], head: dict[str, str], base: str, path: str
    ) -> tuple[int, dict[str, str], Any]:
        start, limit = int(query.get("start", "0")), min(int(query.get("limit", "25")), 100)
        head |= {"Total-Results": str(len(found))}
        if start + limit < len(found):
            rest = "&".join(f"{k}={v}" for k, v in {**query, "start": str(start + limit)}.items())
            head["Link"] = f'<{base}{path}?{rest}>; rel="next", <{base}{path}>; rel="alternate"'
        return 200, head, found[start : start + limit]


@contextmanager
def served(library: FakeZotero) -> Iterator[str]:
    """``library`` on a port of its own on 127.0.0.1; yields the base address (the ``--api-url``)."""
    where: dict[str, str] = {}  # the server's own address, for its Link headers

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            with library.lock:
                status, head, body = library.answer(parts.path, query, self.headers, where["base"])
                library.log.append((parts.path, status, len(body) if isinstance(body, list) else 0))
            data = b"" if body is None else (json.dumps(body) if not isinstance(body, str) else body).encode()
            self.send_response(status)
            for name, value in head.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    where["base"] = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield where["base"]
    finally:
        server.shutdown()
        server.server_close()


def item(n: int, **more: Any) -> dict[str, Any]:
    """A journal article as the API's ``data`` has it; ``more`` replaces or adds fields."""
    return {
        "key": f"ITEM{n:04d}",
        "itemType": "journalArticle",
        "title": f"Pipelined training schedule number {n} for sparse models",
        "creators": [{"creatorType": "author", "firstName": "Ann", "lastName": f"Smith{n}"}],
        "abstractNote": f"We propose schedule {n}, which trains sparse models {n % 7 + 2}x faster on GPU clusters.",
        "publicationTitle": "Journal of Examples",
        "date": f"{2000 + n % 20}-03-01",
        "DOI": f"10.1234/example.{n}",
        "tags": [{"tag": "scheduling"}],
        "collections": ["COLLAAAA"],
        "extra": "",
        **more,
    }


def note(key: str, parent: str, html: str) -> dict[str, Any]:
    """A child note of ``parent``."""
    return {"key": key, "itemType": "note", "parentItem": parent, "note": html}


def attachment(key: str, parent: str) -> dict[str, Any]:
    """A PDF of ``parent``: what its annotations name as their parent."""
    return {"key": key, "itemType": "attachment", "parentItem": parent, "contentType": "application/pdf"}


def highlight(key: str, pdf: str, text: str, colour: str, page: str, comment: str = "", n: int = 0) -> dict[str, Any]:
    """A PDF highlight on ``pdf`` (an attachment's key); ``n`` orders it (``annotationSortIndex``)."""
    return {
        "key": key, "itemType": "annotation", "parentItem": pdf, "annotationType": "highlight",
        "annotationText": text, "annotationComment": comment, "annotationColor": colour,
        "annotationPageLabel": page, "annotationSortIndex": f"{n:05d}|000001|00010",
    }  # fmt: skip


HOSTILE_NOTE = (
    '<h1>Reading</h1><p>Compare with <a href="javascript:alert(1)">this</a> and '
    '<a href="https://example.org/x">that</a>, <em>carefully</em>.</p>'
    "<script>alert(2)</script><ul><li>{attention}`x` first</li><li>second</li></ul>"
)
MARKS = (("#ffd400", "3"), ("#ff6666", "5"), ("#5fb236", "iv"))  # yellow, red, green: colour and page label


def notes_and_highlights(parent: str, said: str = "Highlighted claim {n}") -> list[dict[str, Any]]:
    """``parent``'s hostile note, its PDF and three highlights (``MARKS``), the first without a comment."""
    found = [note("NOTE0001", parent, HOSTILE_NOTE), attachment("ATTA0001", parent)]
    for n, (colour, page) in enumerate(MARKS):
        comment = f"comment {n}" if n else ""
        found.append(highlight(f"ANNO000{n}", "ATTA0001", said.format(n=n), colour, page, comment, n))
    return found
