"""A synced Zotero library as a site: its pages build with zero warnings, and a paper's note and
highlights show under "From Zotero", sanitised.

The items are served from a local server in the Web API's shape (as in test_zotero_sync.py,
which this module does not import: a smaller server, only what a first sync asks for).
"""

from __future__ import annotations

import http.server
import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import build_site, find, soup, words
from readinglist.cli import main
from readinglist.fetch import zotero_state
from readinglist.project import init

KEY = "k3y"
VOCABULARY = sorted(
    {
        *"sparse pipeline cache graph kernel compiler scheduler memory vision speech parser robot protein".split(),
        *"quantum market climate lattice tensor sensor query index network routing storage shader audio".split(),
        *"language proof theorem circuit battery genome traffic weather image video text code search".split(),
        *"privacy fairness energy latency contract ledger drone satellite river forest ocean cell neuron".split(),
    }
)


@contextmanager
def served(objects: list[dict[str, Any]]) -> Iterator[str]:
    """``/users/1/items`` of ``objects`` (library version 1), 100 a page with ``Link: rel="next"``."""
    where: dict[str, str] = {}  # the server's own address, for its Link headers

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            start, limit = int(query.get("start", "0")), int(query.get("limit", "25"))
            head = {"Last-Modified-Version": "1", "Total-Results": str(len(objects))}
            if start + limit < len(objects):
                rest = "&".join(f"{k}={v}" for k, v in {**query, "start": str(start + limit)}.items())
                head["Link"] = f'<{where["base"]}{parts.path}?{rest}>; rel="next"'
            data = json.dumps(objects[start : start + limit]).encode()
            self.send_response(200 if self.headers.get("Zotero-API-Key") == KEY else 403)
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


def wrapped(data: dict[str, Any]) -> dict[str, Any]:
    return {"key": data["key"], "version": 1, "library": {"type": "user", "id": 1}, "data": {**data, "version": 1}}


def article(n: int) -> dict[str, Any]:
    """A distinct paper: its title and abstract drawn from a vocabulary by a generator seeded with ``n``."""
    pick = random.Random(n).sample(VOCABULARY, 14)
    return wrapped({
        "key": f"ITEM{n:04d}",
        "itemType": "journalArticle" if n % 3 else "conferencePaper",
        "title": f"{pick[0].capitalize()} {pick[1]} for {pick[2]} {pick[3]}",
        "creators": [{"creatorType": "author", "firstName": "Ann", "lastName": f"Author{n % 97}"},
                     {"creatorType": "author", "name": "Example Consortium"}],
        "abstractNote": f"We propose {' '.join(pick[4:9])} for {' '.join(pick[9:])}, {n % 9 + 2}x faster.",
        "publicationTitle" if n % 3 else "proceedingsTitle": "Journal of Examples",
        "date": f"{1990 + n % 35}",
        "tags": [{"tag": pick[0]}],
        "extra": f"Citation Key: author{n}study" if n % 2 else "",
    })  # fmt: skip


def children() -> list[dict[str, Any]]:
    note = (
        '<h1>Reading</h1><p>Compare with <a href="javascript:alert(1)">this</a> and '
        '<a href="https://example.org/x">that</a>, <em>carefully</em>.</p>'
        "<script>alert(2)</script><ul><li>{attention}`x` first</li><li>second</li></ul>"
    )
    found = [
        wrapped({"key": "NOTE0001", "itemType": "note", "parentItem": "ITEM0001", "note": note}),
        wrapped({"key": "ATTA0001", "itemType": "attachment", "parentItem": "ITEM0001"}),
    ]
    for n, (colour, page) in enumerate((("#ffd400", "3"), ("#ff6666", "5"), ("#5fb236", "iv"))):
        found.append(wrapped({
            "key": f"ANNO000{n}", "itemType": "annotation", "parentItem": "ATTA0001", "annotationType": "highlight",
            "annotationText": f"Highlighted claim {n} <b>x</b>", "annotationComment": f"comment {n}",
            "annotationColor": colour, "annotationPageLabel": page, "annotationSortIndex": f"0000{n}|000001|00010",
        }))  # fmt: skip
    return found


def synced(root: Path, objects: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    init(root)
    (root / "conf" / "zotero.toml").write_text('[highlights]\nyellow = "Key result"\n', encoding="utf-8")
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    with served(objects) as url:
        assert main(["--root", str(root), "sync", "zotero", "--user", "1", "--api-url", url]) == 0


def test_a_note_and_three_highlights_show_under_from_zotero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "list"
    synced(root, [article(n) for n in range(6)] + children(), monkeypatch)
    key = zotero_state.load_state(root).keys["ITEM0001"]
    out = build_site(root, "--no-search")
    page = soup(out / "papers" / f"{key}.html")
    section = find(page, "section", id="from-zotero")
    said = words(section)
    assert "Compare with this and that, carefully." in said and "{attention}`x` first" in said
    assert find(section, "a", href="https://example.org/x").get_text() == "that"
    marks = [words(li) for li in section.find_all("li") if "Highlighted claim" in words(li)]
    assert marks == [  # a highlight is plain text: its "<b>" is shown, not obeyed
        "Key result (p. 3): “Highlighted claim 0 <b>x</b>” — comment 0",
        "Red highlight (p. 5): “Highlighted claim 1 <b>x</b>” — comment 1",
        "Green highlight (p. iv): “Highlighted claim 2 <b>x</b>” — comment 2",
    ]
    assert section.find("b") is None
    html = str(section)
    assert "javascript" not in html and "<script" not in html and "alert" not in html
    other = soup(out / "papers" / f"{zotero_state.load_state(root).keys['ITEM0002']}.html")
    assert other.find("section", id="from-zotero") is None  # an item without notes shows no section


@pytest.mark.slow  # three minutes on a shared machine: nox -s tests_slow
def test_a_thousand_items_sync_into_a_new_list_that_builds_with_zero_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    synced(root, [article(n) for n in range(1000)] + children(), monkeypatch)
    assert len(zotero_state.load_state(root).keys) == 1000
    out = build_site(root, "--no-search")  # -n -W --keep-going: any warning fails the build
    assert len(list((out / "papers").glob("*.html"))) == 1000


def test_a_note_changed_upstream_reaches_the_built_page_on_the_next_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    objects = [article(n) for n in range(3)] + children()
    synced(root, objects, monkeypatch)
    out = build_site(root, "--no-search")
    page = out / "papers" / f"{zotero_state.load_state(root).keys['ITEM0001']}.html"
    assert "Compare with" in words(find(soup(page), "section", id="from-zotero"))
    (root / "conf" / "zotero-sync.toml").unlink()  # this small server knows no since=: sync anew
    objects[3] = wrapped({"key": "NOTE0001", "itemType": "note", "parentItem": "ITEM0001", "note": "<p>Rewritten.</p>"})
    with served(objects) as url:
        assert main(["--root", str(root), "sync", "zotero", "--user", "1", "--api-url", url]) == 0
    build_site(root, "--no-search")
    said = words(find(soup(page), "section", id="from-zotero"))
    assert "Rewritten." in said and "Compare with" not in said
