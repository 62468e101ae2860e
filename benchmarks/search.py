"""Search cost: the Pagefind index the build writes (site/pagefind), and Sphinx's searchindex.js.

The build runs Pagefind itself (readinglist's Sphinx extension), so its time and memory come from
the build step (``measure.Watched``). Without a browser, the bytes one query fetches are counted
from the files: for Sphinx, searchindex.js, the whole index whatever the query (Sphinx still
writes it; the site's search page no longer loads it); for Pagefind, its loader, entry file,
metadata and WebAssembly, one index chunk per query word and the fragments of the first results
shown. ``browser.py`` measures the search page for real.
"""

from __future__ import annotations

from pathlib import Path

from measure import size

QUERY = "pipeline scheduling"
RESULTS_SHOWN = 5  # Pagefind's UI loads the fragments of the first five results


def sphinx_query_bytes(html: Path) -> dict[str, int]:
    """What Sphinx's own search page would fetch first: searchindex.js (its scripts left out)."""
    return {"searchindex.js": size(html / "searchindex.js")}


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
