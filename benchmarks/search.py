"""Search cost: Sphinx's searchindex.js against a Pagefind index of the same HTML.

Without a browser, the bytes one query fetches are counted from the files: for Sphinx,
the search page's scripts and searchindex.js (the whole index, whatever the query); for
Pagefind, its loader, entry file, metadata and WebAssembly, one index chunk per query
word and the fragments of the first results shown. ``browser.py`` measures both for real.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from measure import Step, run, size

QUERY = "pipeline scheduling"
RESULTS_SHOWN = 5  # Pagefind's UI loads the fragments of the first five results


def run_pagefind(html: Path, cwd: Path) -> Step:
    """Index the built site; Pagefind writes html/pagefind/ (it runs offline, from the wheel)."""
    return run("pagefind", [sys.executable, "-m", "pagefind", "--site", str(html)], cwd)


def sphinx_query_bytes(html: Path) -> dict[str, int]:
    """searchindex.js plus every script search.html loads (css and fonts left out: any page has them)."""
    page = (html / "search.html").read_text(encoding="utf-8")
    sources = re.findall(r'<script[^>]*src="([^"]+)"', page)
    scripts = [html / src.split("?")[0] for src in sources if "searchindex.js" not in src]
    loaded = sum(size(p) for p in scripts if p.is_file())
    return {"searchindex.js": size(html / "searchindex.js"), "scripts": loaded}


def pagefind_query_bytes(html: Path, words: int = len(QUERY.split())) -> dict[str, int]:
    """Estimate from the files: fixed files, plus average chunk and fragment sizes."""
    folder = html / "pagefind"
    fixed = [folder / "pagefind.js", folder / "pagefind-entry.json", *folder.glob("*.pf_meta")]
    fixed += list(folder.glob("wasm.en.pagefind")) or list(folder.glob("wasm.*.pagefind"))[:1]
    chunks = [size(p) for p in (folder / "index").glob("*.pf_index")]
    fragments = [size(p) for p in (folder / "fragment").glob("*.pf_fragment")]
    return {
        "fixed": sum(size(p) for p in fixed),
        "index_chunks": words * _mean(chunks),
        "fragments": RESULTS_SHOWN * _mean(fragments),
        "chunk_count": len(chunks),
    }


def _mean(values: list[int]) -> int:
    return sum(values) // len(values) if values else 0


def pagefind_files(html: Path) -> int:
    return sum(1 for p in (html / "pagefind").rglob("*") if p.is_file())
