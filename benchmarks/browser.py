"""Bytes one search really fetches, measured in headless Chromium (optional: ``--browser``).

The built site is served from 127.0.0.1 by http.server (no compression, so body bytes
are transfer bytes). The search page: open search.html?q=... (Pagefind's UI) and wait
until it shows the first results. Pagefind alone: a probe page runs the query through
pagefind-merged/pagefind.js (every shard) and loads the first five results, as its UI does, without the UI's own files.
"""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

from search import QUERY, RESULTS_SHOWN

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
PROBE = "_bench_pagefind.html"
PROBE_HTML = """<!doctype html><meta charset="utf-8"><title>probe</title><script type="module">
const pagefind = await import("./pagefind-merged/pagefind.js");  // every shard, as the search page
await pagefind.options({baseUrl: "/", excerptLength: 12});
const search = await pagefind.search(%r);
const shown = await Promise.all(search.results.slice(0, %d).map((r) => r.data()));
window.benchDone = {found: search.results.length, shown: shown.length};
</script>"""


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def measure(html: Path) -> dict[str, Any]:
    """{"search page": {...}, "pagefind": {...}}: bytes and requests of one query each."""
    from playwright.sync_api import sync_playwright

    (html / PROBE).write_text(PROBE_HTML % (QUERY, RESULTS_SHOWN), encoding="utf-8")
    try:
        with serve(html) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            page = _fetched(browser, f"{base}search.html?q={quote(QUERY)}", _UI_DONE % RESULTS_SHOWN)
            pagefind = _fetched(browser, base + PROBE, "() => window.benchDone !== undefined")
            browser.close()
    finally:
        (html / PROBE).unlink(missing_ok=True)
    return {"search page": page, "pagefind": pagefind}


_UI_DONE = """() => {
  const found = /^(\\d+) results? for/.exec(document.querySelector(".pagefind-ui__message")?.textContent ?? "");
  return found !== null && document.querySelectorAll(".pagefind-ui__result-link").length >= Math.min(+found[1], %d);
}"""


def _fetched(browser: Any, url: str, done: str) -> dict[str, Any]:
    """Load ``url`` in a fresh context (empty cache), wait for ``done``, sum what came over the wire."""
    context = browser.new_context()
    page = context.new_page()
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))  # playwright wants a Python callable
    page.goto(url)
    page.wait_for_function(done, timeout=600_000)
    page.wait_for_load_state("networkidle")
    sizes = {r.url: _body_size(r) for r in responses}
    context.close()
    by_kind: dict[str, int] = {}
    for address, n in sizes.items():
        kind = _kind(address, url)
        by_kind[kind] = by_kind.get(kind, 0) + n
    return {"bytes": sum(sizes.values()), "requests": len(sizes), "by_kind": by_kind}


def _body_size(response: Any) -> int:
    try:
        return len(response.body())
    except Exception:  # a redirect or an aborted request has no body
        return 0


def _kind(url: str, first: str) -> str:
    """Group a URL: the page opened, the index, pages fetched for result summaries, scripts, styles."""
    path = url.split("?")[0]
    suffix = Path(path).suffix
    if url == first:
        return "page"
    if suffix in (".pf_meta", ".pf_index", ".pagefind", ".pf_fragment"):
        return {".pagefind": "wasm", ".pf_fragment": "fragments"}.get(suffix, "index")
    return {".js": "scripts", ".css": "styles", ".html": "result pages"}.get(suffix, "other")
