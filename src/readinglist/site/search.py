"""The site's search: Pagefind indexes the built HTML, and templates give furo a Pagefind search page.

No Sphinx imports here: ``sphinx_ext`` calls :func:`index` when an HTML build has succeeded.
Pagefind runs as its own process (the binary from the ``pagefind-bin`` wheel, offline), so its
memory is its own and is freed as soon as it exits, before the build returns.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from .. import compat
from ..errors import Code, ReadingListError
from . import child, pagefindorder, searchmerge, searchpages, shards

TEMPLATES = Path(__file__).resolve().parent / "templates"  # page.html (marks the body), search.html
BUNDLE = shards.SITE_BUNDLE  # the site shard's bundle; search.html loads pagefind/pagefind-ui.js from it
ENTRY = shards.ENTRY  # written last by Pagefind: its presence means a complete bundle
# A paper's related papers (other papers' titles) and BibTeX block repeat other pages' words: left
# out, a title finds its own paper first, and Pagefind needs 30% less memory (1,000 works).
# templates/page.html marks a paper's article; the sections are the h2 sections of its h1 section
# (the child combinators keep a paper titled "Cite" from losing its whole article).
PAPER = searchpages.PAPER
PAPER_SECTIONS_LEFT_OUT = ("related-papers", "cite")
# "About this record" (render/about.py) says how the record was read and why a category was
# inferred: for the maintainer, never a match or an excerpt (issue 27). It ends the Cite section
# today; named too, so it stays out wherever the page puts it.
ABOUT = "readinglist-about"
# Listings repeat their papers: a card's title, year and summary (render/cards.py) and a chart's
# years and counts (render/charts.py). Indexed, a search for "2019" found topic pages first; left
# out, a topic page is found by its own title and description.
LISTING_PARTS = ("div.sd-card", "img.readinglist-chart", ".readinglist-chart-table")
PAPER_PARTS = tuple(f"[{PAPER}] > section > section#{s}" for s in PAPER_SECTIONS_LEFT_OUT)
EXCLUDED = ("a.headerlink", f"details.{ABOUT}", *LISTING_PARTS, *PAPER_PARTS)
# The same parts, cut out of the copies Pagefind reads (searchpages.py): a paper's sections are in
# its h1 section, one section deep.
CUTS = (
    searchpages.Cut("div", classname="sd-card"),
    searchpages.Cut("details", classname="readinglist-chart-table"),
    searchpages.Cut("details", classname=ABOUT),
    searchpages.Cut("section", ids=PAPER_SECTIONS_LEFT_OUT, depth=1),
)


# Written before Sphinx writes the first page of a build, removed only once Pagefind has indexed
# the pages: a build killed at any point in between leaves it, and the next build indexes.
STALE = ".readinglist-search-stale"
COPIES = "search-pages"  # in the state folder, beside the record: the pages' cut copies (searchpages.Copies)
SHARD_JOBS = 4  # Pagefind processes at once, at most (memory: see jobs)


def needed(site: Path, pages_written: int, state: Path | None = None) -> bool:
    """A build that wrote no page leaves a complete index as it was (Pagefind cannot update one),
    unless it was made by a version that indexed the pages otherwise (``shards.outdated``)."""
    complete = (site / BUNDLE / ENTRY).is_file() and (site / searchmerge.FOLDER / "pagefind.js").is_file()
    outdated = shards.outdated(site if state is None else state)
    return pages_written > 0 or (site / STALE).is_file() or not complete or outdated


def stale(site: Path) -> bool:
    """True when a build marked the index older than the pages and no index has been made since."""
    return (site / STALE).is_file()


def mark_stale(site: Path) -> None:
    site.mkdir(parents=True, exist_ok=True)
    (site / STALE).write_text("Pagefind's index is older than the pages\n", encoding="utf-8")


def index_if_stale(site: Path, state: Path | None = None) -> bool:
    """Index ``site`` if a build marked its index stale; True if it did (``state``: see :func:`index`)."""
    if not stale(site):
        return False
    index(site, state)
    return True


def command(pages: Path, shard: shards.Shard, site: Path) -> list[str]:
    """Pagefind indexing ``shard``'s pages as copied under ``pages`` into its bundle in ``site``.

    Pagefind's binary from the ``pagefind[bin]`` wheel, found through this interpreter (no PATH
    lookup, no download), run directly: ``python -m pagefind`` costs an interpreter start per shard."""
    excluded = [arg for selector in EXCLUDED for arg in ("--exclude-selectors", selector)]
    where = ["--site", str(pages), "--output-path", str(site / shard.bundle), "--glob", shard.glob()]
    return [*_pagefind(), *where, *excluded]


def _pagefind() -> list[str]:
    return compat.pagefind_command()  # honours PAGEFIND_BINARY_PATH, as `python -m pagefind` does


def jobs() -> int:
    """Shards indexed side by side: one per core (a paper shard's Pagefind is one busy thread and
    about 150 MB at 10,000 works), never more than SHARD_JOBS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(SHARD_JOBS, cores))


def index(site: Path, state: Path | None = None) -> str:
    """Index the shards of ``site`` whose pages changed (``shards.py``); return Pagefind's reports.

    ``state``: the folder of the record of what each shard was made from and of the pages' cut
    copies (:data:`COPIES`): Sphinx's doctree folder, so that the published site holds nothing
    that differs between two builds. If None, the record is kept in the site and the copies
    only for this call.

    Only the parts of a page marked ``data-pagefind-body`` are indexed (templates/page.html marks
    the article), so the theme's navigation, sidebars and footer cost neither memory nor index size.
    """
    if state is None:
        with tempfile.TemporaryDirectory(prefix="readinglist-search-") as folder:
            return _index(site, site, searchpages.Copies(Path(folder), CUTS))
    return _index(site, state, searchpages.Copies(state / COPIES, CUTS))


def _index(site: Path, state: Path, copies: searchpages.Copies) -> str:
    record = shards.recorded(state)
    if not record:
        copies.clear()  # no record vouches for them
    plan = shards.plan(site, record, copies.indexed)
    known = {page for kept in record.values() for page in kept["pages"]}
    copies.forget(known - {page for shard in plan for page in shard.pages})  # pages no longer in the site
    record = {key: kept for key, kept in record.items() if key in {s.key for s in plan}}
    for old in shards.unused_bundles(site, plan):
        shutil.rmtree(old, ignore_errors=True)
    stale = shards.stale(site, plan, state)
    for shard in plan:
        if shard not in stale:  # the same digests: today's sizes and times, or the next build reads them all again
            record[shard.key] = {**record[shard.key], "pages": shard.pages}
    reports = _index_shards(site, stale, record, state, copies)
    values = {page: found for kept in record.values() for page, found in kept.get("sort", {}).items()}
    searchmerge.write(site, plan, values)
    # missing_ok: a build that did not hold the build lock (a second plain sphinx-build) may have
    # indexed and removed the mark first.
    (site / STALE).unlink(missing_ok=True)
    return reports


def merge_again(site: Path, state: Path | None = None) -> None:
    """Write the merged API again from the record, as :func:`index` last wrote it (the same bytes,
    so nothing is written) unless this version's script differs: a build that indexes nothing still
    gives the site today's ranking (``templates/pagefind-merged.js``)."""
    record = shards.recorded(site if state is None else state)
    if shards.SITE not in record or not (site / searchmerge.FOLDER / "pagefind.js").is_file():
        return  # never indexed: the next build indexes (``needed``)
    keys = sorted(record, key=lambda key: (key != shards.SITE, key.rjust(12, "0")))  # numbered shards in order
    values = {page: found for kept in record.values() for page, found in kept.get("sort", {}).items()}
    searchmerge.write(site, [shards.Shard(key, {}) for key in keys], values)


def _index_shards(
    site: Path, stale: list[shards.Shard], record: dict[str, Any], state: Path, copies: searchpages.Copies
) -> str:
    """The stale shards' bundles, made again side by side; each recorded once complete, so a kill
    leaves it stale. One failed shard fails the build, after the others are recorded."""
    for shard in stale:
        record.pop(shard.key, None)
        _reopen(site / shard.bundle)
    shards.save(state, record)
    sources = [copies.complete(shard.pages, site) for shard in stale]  # copies made first where missing
    results = _run(site, stale, sources)
    # the same bytes from every build of these pages; a bundle in a form this version cannot read
    # is made again from nothing, as an older index's files cannot be told apart in it
    untidy = [n for n, (s, r) in enumerate(zip(stale, results, strict=True)) if _complete(site, s, r)]
    untidy = [n for n in untidy if not pagefindorder.tidy(site / stale[n].bundle)]
    for n in untidy:
        shutil.rmtree(site / stale[n].bundle, ignore_errors=True)
    again = _run(site, [stale[n] for n in untidy], [sources[n] for n in untidy]) if untidy else []
    for n, result in zip(untidy, again, strict=True):
        results[n] = result
    for shard, source, result in zip(stale, sources, results, strict=True):
        if _complete(site, shard, result):
            record[shard.key] = {"pages": shard.pages, "sort": searchmerge.sort_values(site, shard, source)}
    shards.save(state, record)
    failed = [r for s, r in zip(stale, results, strict=True) if not _complete(site, s, r)]
    if failed:
        output = (failed[0].stdout + failed[0].stderr).strip()[-2000:] or "(no output)"
        raise ReadingListError(
            f"Pagefind failed (exit status {failed[0].returncode}):\n{output}", site, code=Code.PAGEFIND_FAILED
        )
    return "".join(r.stdout for r in results)


def _reopen(bundle: Path) -> None:
    """A complete bundle is indexed into again, its entry removed first (Pagefind writes it
    last), so that a kill leaves it incomplete; an incomplete one may hold a file cut short by a
    kill, which Pagefind would keep as it is: it is removed."""
    try:
        (bundle / ENTRY).unlink()
    except FileNotFoundError:
        shutil.rmtree(bundle, ignore_errors=True)


def _run(site: Path, stale: list[shards.Shard], sources: list[Path]) -> list[subprocess.CompletedProcess[str]]:
    """Pagefind on each shard, side by side, reading its pages in the folder ``sources`` gives."""
    commands = [command(source, shard, site) for shard, source in zip(stale, sources, strict=True)]
    return child.run_each(commands, jobs())


def _complete(site: Path, shard: shards.Shard, result: subprocess.CompletedProcess[str]) -> bool:
    return result.returncode == 0 and (site / shard.bundle / ENTRY).is_file()
