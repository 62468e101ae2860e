"""The search index in shards, so that a build re-indexes only the pages that changed.

Pagefind cannot update an index: with one index, a note edit that rewrote one paper page would
pay for indexing every page. Each shard is a Pagefind bundle of its
own, merged in the browser (``templates/pagefind-merged.js``): the paper pages are spread
over shards by a hash of their file name (stable, and the shards stay the same size), and
every other page is in the site shard, whose bundle is ``pagefind/`` (with Pagefind's UI).

A shard is re-indexed when its pages differ from the ones its bundle was made from: the
record (``RECORD``) keeps each shard's pages with a digest of what Pagefind indexes of them
(``searchpages.py``'s copy: a paper page whose related papers alone changed, as many do when a
paper is added, leaves its shard as it is), written once its bundle is complete. A page
changed, added or deleted since, a kill at any point, or a bundle gone, and the shard's record
no longer matches. Bytes, not modification times: Sphinx writes
search.html and genindex.html again at every build, unchanged. A page's size and modification
time, kept too, say when its digest need not be read again. No Sphinx imports: ``search`` uses it.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..writer import write_if_changed

SITE = "site"  # the shard of every page outside papers/
SITE_BUNDLE = "pagefind"  # search.html loads Pagefind's UI from it, as before shards
PAPER_BUNDLES = "pagefind-papers"  # pagefind-papers/<n>/: one bundle per shard of papers
PAPERS = "papers/"
ENTRY = "pagefind-entry.json"  # written last by Pagefind: its presence means a complete bundle
# Beside Sphinx's doctrees, not in the site: it holds sizes and times, which differ from build to
# build (search.index's ``state``; a caller that names no folder keeps it in the site).
RECORD = ".readinglist-search.json"
# Pagefind ranks a page within its own shard (its word statistics are the shard's), so a
# shard must hold enough pages for those statistics to be the site's: at least this many.
PAGES_PER_SHARD = 250
# Each bundle costs a first query one index chunk (about 22 KB) a word, whatever its size, so
# few shards keep a first query small (issue 27: at most 300 KB at 2,000 works), while a note
# edit re-indexes one shard, in a time that grows with its pages.
MAX_SHARDS = 4
# But never more pages a shard than this: a note edit re-indexes its paper's shard, in a time that
# grows with its pages, so a list past 5,000 works has more shards (8 at 10,000 works). A --glob
# names at most about 3,000 pages (Shard.glob).
MAX_SHARD_PAGES = 1250
SIZE_ENV = "READINGLIST_SEARCH_SHARD_PAGES"  # tests and benchmarks: smaller shards on a small list
GLOB_SPECIAL = "\\*?[]{},!"

Stats = dict[str, list[Any]]  # page (site-relative, POSIX) -> [size, mtime_ns, digest]
Indexed = Callable[[str, bytes], bytes]  # what Pagefind indexes of a page (by its path) and its bytes
# A record's digests are of the copies: one kept from before (of the pages' bytes) is not reused,
# or a page rewritten with the same copy would look changed against it.
KIND = "copy2:"  # copy2: the paper head cut to what the paper says (issue 27)


@dataclass(frozen=True)
class Shard:
    key: str  # "site", or the paper shard's number
    pages: Stats

    @property
    def bundle(self) -> str:
        return SITE_BUNDLE if self.key == SITE else f"{PAPER_BUNDLES}/{self.key}"

    def glob(self) -> str:
        """Pagefind's ``--glob``: exactly these pages (a brace list; metacharacters escaped).

        One argument, so at most 128 KB on Linux: about 3,000 pages a shard (more than MAX_SHARD_PAGES).
        """
        names = ["".join(f"\\{c}" if c in GLOB_SPECIAL else c for c in page) for page in sorted(self.pages)]
        return "{" + ",".join(names) + "}" if len(names) != 1 else names[0]


def count(papers: int) -> int:
    """The number of paper shards: a power of two, so that it changes (and every paper moves)
    only when the list has doubled or halved."""
    size = int(os.environ.get(SIZE_ENV) or PAGES_PER_SHARD)
    shards = 1
    while shards * 2 <= min(MAX_SHARDS, papers // max(size, 1)) or papers > shards * MAX_SHARD_PAGES:
        shards *= 2
    return shards


def plan(site: Path, record: dict[str, Any], indexed: Indexed) -> list[Shard]:
    """The shards of the HTML pages now under ``site``, the site shard first; each page's digest
    is of ``indexed`` of its bytes (``searchpages.Copies.indexed``: what Pagefind indexes of it),
    taken only for a page whose size or time differs from the record's."""
    known = {page: kept for shard in record.values() for page, kept in shard.get("pages", {}).items()}
    pages = _html_pages(site)
    papers = sorted(page for page in pages if page.startswith(PAPERS) and "/" not in page.removeprefix(PAPERS))
    shards = count(len(papers))
    keys = {page: str(zlib.crc32(page.encode()) % shards) for page in papers}
    grouped: dict[str, Stats] = {SITE: {}, **{str(n): {} for n in range(shards)}}
    for page, entry in pages.items():
        grouped[keys.get(page, SITE)][page] = _stats(page, entry, known.get(page), indexed)
    return [Shard(key, stats) for key, stats in grouped.items() if stats or key == SITE]


def _html_pages(site: Path) -> dict[str, os.DirEntry[str]]:
    """Every HTML page under ``site`` by its site-relative POSIX path, but Sphinx's doctrees.
    Directory entries, whose ``stat`` is one call: ``rglob`` and ``Path.stat`` took four times
    as long over 10,000 pages."""
    found: dict[str, os.DirEntry[str]] = {}
    folders = [(str(site), "")]
    while folders:
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != ".doctrees":
                        folders.append((entry.path, f"{prefix}{entry.name}/"))
                elif entry.name.endswith(".html"):
                    found[prefix + entry.name] = entry
    return found


def _stats(page: str, entry: os.DirEntry[str], known: list[Any] | None, indexed: Indexed) -> list[Any]:
    stat = entry.stat()
    if known is not None and _still(known, stat.st_size, stat.st_mtime_ns):
        return known
    return [stat.st_size, stat.st_mtime_ns, _digest(indexed(page, Path(entry.path).read_bytes()))]


def _still(known: list[Any], size: int, mtime_ns: int) -> bool:
    """The recorded digest holds: the page has its recorded size and time, and the digest is of its copy."""
    return known[:2] == [size, mtime_ns] and str(known[-1]).startswith(KIND)


def _digest(indexed: bytes) -> str:
    return KIND + hashlib.blake2b(indexed, digest_size=12).hexdigest()


def _digests(pages: Stats) -> dict[str, Any]:
    return {page: kept[2:] for page, kept in pages.items()}


def recorded(state: Path) -> dict[str, Any]:
    """What each shard's bundle was made from: {key: {"pages": Stats, "sort": {...}}}, as kept in ``state``."""
    try:
        data = json.loads((state / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: kept for key, kept in data.items() if isinstance(kept, dict) and isinstance(kept.get("pages"), dict)}


def outdated(state: Path) -> bool:
    """True if a shard's record holds a digest of another kind: the pages' copies were cut by an
    older version, so every shard is made again (each is, by ``stale``, as its digests differ)."""
    pages = [kept for shard in recorded(state).values() for kept in shard["pages"].values()]
    digests = [kept[-1] if isinstance(kept, list) and kept else "" for kept in pages]
    return any(not str(digest).startswith(KIND) for digest in digests)


def stale(site: Path, shards: list[Shard], state: Path | None = None) -> list[Shard]:
    """The shards whose bundle is missing or was made from other pages than today's (the record in ``state``)."""
    record = recorded(site if state is None else state)
    return [s for s in shards if s.key not in record or _changed(record[s.key]["pages"], s) or _incomplete(site, s)]


def _changed(pages: Stats, shard: Shard) -> bool:
    return _digests(pages) != _digests(shard.pages)


def _incomplete(site: Path, shard: Shard) -> bool:
    return not (site / shard.bundle / ENTRY).is_file()


def save(state: Path, record: dict[str, Any]) -> None:
    write_if_changed(state / RECORD, json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")


def unused_bundles(site: Path, shards: list[Shard]) -> list[Path]:
    """Paper bundles of an older plan (the list doubled, or shrank)."""
    used = {s.bundle for s in shards}
    folder = site / PAPER_BUNDLES
    return [p for p in folder.iterdir() if f"{PAPER_BUNDLES}/{p.name}" not in used] if folder.is_dir() else []
