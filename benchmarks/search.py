"""Search cost: the Pagefind index the build writes (its shards, site/shards.py), and Sphinx's searchindex.js.

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


def bundles(html: Path) -> list[Path]:
    """The index's shards (site/shards.py): pagefind/ first, then pagefind-papers/<n>/."""
    return [html / "pagefind", *sorted((html / "pagefind-papers").glob("*/"))]


def pagefind_query_bytes(html: Path, words: int = len(QUERY.split())) -> dict[str, int]:
    """Estimate from the files: fixed files, plus average chunk and fragment sizes. The search
    merges every shard: each adds its entry file, metadata and one chunk a word; the loader and
    the WebAssembly come once, from pagefind/; and so does sort.json, for a sorted view only."""
    folders = bundles(html)
    fixed = [folders[0] / "pagefind.js", html / "pagefind-merged" / "pagefind.js"]
    fixed += list(folders[0].glob("wasm.en.pagefind")) or list(folders[0].glob("wasm.*.pagefind"))[:1]
    fixed += [p for folder in folders for p in (folder / "pagefind-entry.json", *folder.glob("*.pf_meta"))]
    chunks = [[size(p) for p in (folder / "index").glob("*.pf_index")] for folder in folders]
    fragments = [size(p) for folder in folders for p in (folder / "fragment").glob("*.pf_fragment")]
    return {
        "fixed": sum(size(p) for p in fixed if p.is_file()),
        "index_chunks": words * sum(_mean(shard) for shard in chunks),
        "fragments": RESULTS_SHOWN * _mean(fragments),
        "chunk_count": sum(len(shard) for shard in chunks),
        "shards": len(folders),
        "sort_table": size(html / "pagefind-merged" / "sort.json"),
    }


def _mean(values: list[int]) -> int:
    return sum(values) // len(values) if values else 0


def pagefind_files(html: Path) -> int:
    return sum(1 for folder in bundles(html) for p in folder.rglob("*") if p.is_file())


def pagefind_bytes(html: Path) -> int:
    return sum(size(folder) for folder in bundles(html)) + size(html / "pagefind-merged")


def main(argv: list[str] | None = None) -> int:
    """``bench.py --search``: the search page on a phone at 2,000 works (``searchphone.py``)."""
    import searchphone

    return searchphone.main(argv)
