"""Zotero sync speed: ``readinglist sync zotero`` of an N-item library served from this machine.

    python benchmarks/zotero.py [--n 1000 10000] [--repeat 1] [--json PATH]

The library is the synthetic list (benchmarks/synthetic.py) as Zotero Web API v3 items (journal
articles and preprints, every other one with a Better BibTeX citation key, one in ten with a
child note and a PDF highlight), served by a local server that answers as the API does: pages
of 100 with ``Total-Results`` and ``Link``, ``Last-Modified-Version``, 304 to
``If-Modified-Since-Version``, ``/deleted?since=``. Each sync runs in its own process, as a user
runs it, into a new list: the first (full) sync, a second with nothing changed (one request),
and an incremental one after 1% of the items changed, 1% were added and 0.5% deleted.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import random
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from measure import Step, run
from synthetic import Work, make_corpus

from readinglist.project import init


class Library:
    """A user library of versioned objects, answering as the Web API v3 does."""

    def __init__(self) -> None:
        self.objects: dict[str, dict[str, Any]] = {}
        self.deleted: dict[str, int] = {}
        self.version = 0
        self.lock = threading.Lock()

    def put(self, data: dict[str, Any]) -> None:
        self.version += 1
        self.objects[data["key"]] = {"key": data["key"], "version": self.version, "data": {**data, "version": 0}}

    def delete(self, key: str) -> None:
        self.version += 1
        self.objects.pop(key, None)
        self.deleted[key] = self.version

    def answer(
        self, path: str, query: dict[str, str], since_header: str | None, base: str
    ) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            head = {"Last-Modified-Version": str(self.version)}
            if since_header == str(self.version):
                return 304, head, b""
            since = int(query.get("since", "0"))
            if path.endswith("/deleted"):
                body = {"items": [k for k, v in self.deleted.items() if v > since], "collections": []}
                return 200, head, json.dumps(body).encode()
            found = [o for o in self.objects.values() if o["version"] > since]
        start, limit = int(query.get("start", "0")), min(int(query.get("limit", "25")), 100)
        head["Total-Results"] = str(len(found))
        if start + limit < len(found):
            rest = "&".join(f"{k}={v}" for k, v in {**query, "start": str(start + limit)}.items())
            head["Link"] = f'<{base}{path}?{rest}>; rel="next"'
        return 200, head, json.dumps(found[start : start + limit]).encode()


@contextmanager
def served(library: Library) -> Iterator[str]:
    where: dict[str, str] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            status, head, data = library.answer(
                parts.path, query, self.headers.get("If-Modified-Since-Version"), where["base"]
            )
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


def item(i: int, work: Work, revision: int = 0) -> dict[str, Any]:
    creators = []
    for name in work.authors:
        *given, last = name.split()
        creators.append({"creatorType": "author", "firstName": " ".join(given), "lastName": last})
    data: dict[str, Any] = {
        "key": f"B{i:07d}",
        "itemType": "preprint" if i % 4 == 0 else "journalArticle",
        "title": work.title,
        "creators": creators,
        "abstractNote": work.abstract,
        "date": f"{work.year}-0{i % 9 + 1}-01",
        "DOI": f"10.5555/zotero.{i}",
        "tags": [{"tag": c} for c in work.categories],
        "collections": [],
        "extra": f"Citation Key: zotero{i}bench" if i % 2 else "",
    }
    if i % 4 == 0:
        data |= {"archiveID": f"arXiv:{work.year % 100:02d}01.{i:05d}", "repository": "arXiv"}
    else:
        data["publicationTitle"] = "Journal of Benchmarks"
    if revision:
        data["volume"] = str(revision)
    return data


def children(i: int) -> list[dict[str, Any]]:
    """A note and a highlighted PDF for one item in ten."""
    if i % 10:
        return []
    parent, pdf = f"B{i:07d}", f"P{i:07d}"
    return [
        {"key": f"N{i:07d}", "itemType": "note", "parentItem": parent, "note": f"<p>Note on <em>item {i}</em>.</p>"},
        {"key": pdf, "itemType": "attachment", "parentItem": parent, "contentType": "application/pdf"},
        {"key": f"A{i:07d}", "itemType": "annotation", "parentItem": pdf, "annotationType": "highlight",
         "annotationText": "We obtain a 2x speedup.", "annotationComment": "", "annotationColor": "#ffd400",
         "annotationPageLabel": "3", "annotationSortIndex": "00001|000001|00010"},
    ]  # fmt: skip


def measure(n: int, folder: Path, repeat: int) -> dict[str, Any]:
    corpus = make_corpus(n + n // 100 + 1)
    works = corpus.works
    results: dict[str, list[Step]] = {"first sync": [], "no change": [], "after changes": []}
    for attempt in range(repeat):
        library = Library()
        for i in range(n):
            library.put(item(i, works[i]))
            for child in children(i):
                library.put(child)
        root = folder / f"list-{n}-{attempt}"
        init(root)
        with served(library) as url:
            command = [sys.executable, "-m", "readinglist", "--root", str(root), "sync", "zotero", "--user", "1",
                       "--api-url", url]  # fmt: skip
            results["first sync"].append(run("first", command, root))
            results["no change"].append(run("again", command, root))
            rng = random.Random(attempt)
            for i in rng.sample(range(n), n // 100):
                library.put(item(i, works[i], revision=2))
            for i in range(n, n + n // 100):
                library.put(item(i, works[i]))
            for i in rng.sample(range(n), n // 200):
                library.delete(f"B{i:07d}")
            results["after changes"].append(run("changes", command, root))
    for name, steps in results.items():
        failed = [s for s in steps if s.returncode != 0]
        if failed:
            sys.exit(f"bench: {name} failed:\n{failed[0].output[-2000:]}")
    best = {name: min(steps, key=lambda s: s.seconds) for name, steps in results.items()}
    return {
        "items": n,
        "steps": {
            name: {"seconds": s.seconds, "cpu_seconds": s.cpu_seconds, "peak_rss_mb": s.peak_rss_mb}
            for name, s in best.items()
        },
        "summary": {name: s.output.strip().splitlines()[:1] for name, s in best.items()},
    }


def table(results: list[dict[str, Any]]) -> str:
    head = ("items", "first sync (s)", "no change (s)", "after 1% changed, 1% added, 0.5% deleted (s)", "peak RSS (MB)")
    lines = ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for r in results:
        s = r["steps"]
        lines.append(
            f"| {r['items']:,} | {s['first sync']['seconds']:.2f} | {s['no change']['seconds']:.2f} "
            f"| {s['after changes']['seconds']:.2f} | {s['first sync']['peak_rss_mb']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 10000], help="library sizes (default 1000 10000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each size; the fastest is kept (default 1)")
    parser.add_argument("--json", type=Path, default=Path(__file__).resolve().parent / "results-zotero.json")
    args = parser.parse_args(argv)
    os.environ.setdefault("ZOTERO_API_KEY", "bench")  # the local server asks for none; a key is sent as users do
    with tempfile.TemporaryDirectory(prefix="readinglist-zotero-bench-") as tmp:
        results = [measure(n, Path(tmp), args.repeat) for n in args.n]
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
