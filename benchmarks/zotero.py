"""Zotero sync speed: ``readinglist sync zotero`` of an N-item library served from this machine.

    python benchmarks/zotero.py [--n 1000 10000] [--repeat 1] [--json PATH]

The library is the synthetic list (benchmarks/synthetic.py) as Zotero Web API v3 items (journal
articles and preprints, every other one with a Better BibTeX citation key, one in ten with a
child note and a PDF highlight), served by the tests' local server that answers as the API does
(tests/zotero_kit.py): pages of 100 with ``Total-Results`` and ``Link``, ``Last-Modified-Version``,
304 to ``If-Modified-Since-Version``, ``/deleted?since=``. Each sync runs in its own process, as a user
runs it, into a new list: the first (full) sync, a second with nothing changed (one request),
and an incremental one after 1% of the items changed, 1% were added and 0.5% deleted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from measure import Step, run
from synthetic import Work, make_corpus

from readinglist.project import init

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import zotero_kit as kit  # the tests' server and item builders (tests/zotero_kit.py)


def item(i: int, work: Work, revision: int = 0) -> dict[str, Any]:
    """The synthetic work ``i`` as a journal article or (one in four) a preprint."""
    creators = []
    for name in work.authors:
        *given, last = name.split()
        creators.append({"creatorType": "author", "firstName": " ".join(given), "lastName": last})
    more: dict[str, Any] = {"publicationTitle": "Journal of Benchmarks"}
    if i % 4 == 0:
        more = {"itemType": "preprint", "publicationTitle": "", "repository": "arXiv",
                "archiveID": f"arXiv:{work.year % 100:02d}01.{i:05d}"}  # fmt: skip
    if revision:
        more["volume"] = str(revision)
    return kit.item(
        i, key=f"B{i:07d}", title=work.title, creators=creators, abstractNote=work.abstract,
        date=f"{work.year}-0{i % 9 + 1}-01", DOI=f"10.5555/zotero.{i}", collections=[],
        tags=[{"tag": c} for c in work.categories], extra=f"Citation Key: zotero{i}bench" if i % 2 else "", **more,
    )  # fmt: skip


def children(i: int) -> list[dict[str, Any]]:
    """A note and a highlighted PDF for one item in ten."""
    if i % 10:
        return []
    parent, pdf = f"B{i:07d}", f"P{i:07d}"
    return [
        kit.note(f"N{i:07d}", parent, f"<p>Note on <em>item {i}</em>.</p>"),
        kit.attachment(pdf, parent),
        kit.highlight(f"A{i:07d}", pdf, "We obtain a 2x speedup.", "#ffd400", "3", n=1),
    ]


def measure(n: int, folder: Path, repeat: int) -> dict[str, Any]:
    corpus = make_corpus(n + n // 100 + 1)
    works = corpus.works
    results: dict[str, list[Step]] = {"first sync": [], "no change": [], "after changes": []}
    for attempt in range(repeat):
        library = kit.FakeZotero()
        for i in range(n):
            library.put(item(i, works[i]))
            for child in children(i):
                library.put(child)
        root = folder / f"list-{n}-{attempt}"
        init(root)
        with kit.served(library) as url:
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
