"""Import speed: ``readinglist import`` of an N-entry BibTeX file against pybtex's own ``parse_file``.

    python benchmarks/bench.py --import [--n 1000 10000] [--repeat 3] [--json PATH]

The file is written from the synthetic list (benchmarks/synthetic.py) the way exporters write
one: Better BibTeX-like @article and @inproceedings entries with "Last, First" names, DOIs, arXiv
eprints with categories, user keywords, month macros, a few @string macros and DBLP-like
crossrefs to @proceedings. Every step runs in its own process, as a user runs it, in the same
run as its reference: pybtex parsing the file, our reader alone (``read_source``) and the whole
``readinglist import`` into an empty store. The best of ``--repeat`` runs is kept for each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from measure import Step, run
from synthetic import Work, make_corpus

from readinglist.latex import dump_to_latex

TARGET = 2.0  # import time / pybtex parse time (issue 10), at the size the issue names:
TARGET_ENTRIES = 10_000  # at 1,000 entries the fixed start-up (numpy and the store: 0.15 s) is half of it
PYBTEX = "import sys; from pybtex.database import parse_file; parse_file(sys.argv[1])"
READER = "import sys; from readinglist.sources import read_source; read_source(__import__('pathlib').Path(sys.argv[1]))"
VENUES = ("jmlr", "tpds", "pvldb")
MACROS = {"jmlr": "Journal of Machine Learning Research", "tpds": "IEEE Transactions on Parallel and Distributed "
          "Systems", "pvldb": "Proceedings of the VLDB Endowment"}  # fmt: skip
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def bibtex_text(n: int, seed: int = 1) -> str:
    """An N-entry BibTeX file (plus the @string and @proceedings entries it refers to)."""
    corpus = make_corpus(n, seed)
    rng = random.Random(seed)
    parts = [f"@string{{{k} = {{{v}}}}}" for k, v in MACROS.items()]
    years = sorted({w.year for w in corpus.works})
    parts += [f"@proceedings{{conf{y},\n  title = {{Proceedings of the Conference on Systems {y}}},\n"
              f"  publisher = {{ACM}},\n  year = {{{y}}}\n}}" for y in years]  # fmt: skip
    parts += [_entry(rng, i, work) for i, work in enumerate(corpus.works)]
    return "\n\n".join(parts) + "\n"


def _entry(rng: random.Random, i: int, work: Work) -> str:
    names = [_bibtex_name(name) for name in work.authors]
    # As an exporter writes them: LaTeX specials escaped ("35\\%"), so a "%" is not a comment.
    fields = {
        "title": dump_to_latex(work.title),
        "author": " and ".join(names),
        "abstract": dump_to_latex(work.abstract),
    }
    if rng.random() < 0.3:
        entry_type, fields["crossref"] = "inproceedings", f"conf{work.year}"
    else:
        entry_type, fields["year"] = "article", str(work.year)
    fields["doi"] = f"10.5555/bench.{i}"
    if rng.random() < 0.5:
        fields |= {"eprint": f"{work.year % 100:02d}{rng.randint(1, 12):02d}.{i:05d}", "archiveprefix": "arXiv",
                   "primaryclass": work.categories[0]}  # fmt: skip
    fields["keywords"] = ", ".join([*work.categories, rng.choice(("to read", "pipelines", "survey"))])
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
    if entry_type == "article":
        body += f",\n  journal = {rng.choice(VENUES)},\n  month = {rng.choice(MONTHS)}"
    return f"@{entry_type}{{bench{i},\n{body}\n}}"


def _bibtex_name(name: str) -> str:
    *given, last = name.split()
    return f"{last}, {' '.join(given)}" if given else last


def measure(n: int, folder: Path, repeat: int) -> dict[str, Any]:
    bib = folder / f"library-{n}.bib"
    bib.write_text(bibtex_text(n), encoding="utf-8")
    python = sys.executable
    steps: dict[str, list[Step]] = {"pybtex_parse": [], "reader": [], "import": []}
    for attempt in range(repeat):  # interleaved, so a noisy moment hits every step alike
        steps["pybtex_parse"].append(run("pybtex", [python, "-c", PYBTEX, str(bib)], folder))
        steps["reader"].append(run("reader", [python, "-c", READER, str(bib)], folder))
        store = folder / f"refs-{n}-{attempt}.bib"
        command = [python, "-m", "readinglist", "--root", str(folder), "import", str(bib), "--store", str(store)]
        steps["import"].append(run("import", command, folder))
    for name, runs in steps.items():
        failed = [s for s in runs if s.returncode != 0]
        if failed:
            sys.exit(f"bench: {name} failed:\n{failed[0].output[-2000:]}")
    best = {name: min(runs, key=lambda s: s.seconds) for name, runs in steps.items()}
    result = {name: {"seconds": s.seconds, "cpu_seconds": s.cpu_seconds, "peak_rss_mb": s.peak_rss_mb}
              for name, s in best.items()}  # fmt: skip
    parse = best["pybtex_parse"].seconds
    # CPU time (user + system) does not grow when other work shares the cores, as wall time does.
    cpu = {name: min(s.cpu_seconds for s in runs) for name, runs in steps.items()}
    return {
        "entries": n,
        "file_mb": bib.stat().st_size / 1e6,
        "steps": result,
        "import_vs_pybtex": best["import"].seconds / parse,
        "reader_vs_pybtex": best["reader"].seconds / parse,
        "import_vs_pybtex_cpu": cpu["import"] / cpu["pybtex_parse"],
        "summary": best["import"].output.strip().splitlines()[:1],
    }


def table(results: list[dict[str, Any]]) -> str:
    head = ("entries", "pybtex parse_file (s)", "read_source (s)", "readinglist import (s)", "import / pybtex",
            "the same in CPU time", "import peak RSS (MB)")  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for r in results:
        s = r["steps"]
        lines.append(
            f"| {r['entries']:,} | {s['pybtex_parse']['seconds']:.2f} | {s['reader']['seconds']:.2f} "
            f"| {s['import']['seconds']:.2f} | {r['import_vs_pybtex']:.2f}x | {r['import_vs_pybtex_cpu']:.2f}x "
            f"| {s['import']['peak_rss_mb']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 10000], help="entry counts (default 1000 10000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step; the fastest is kept (default 3)")
    parser.add_argument("--json", type=Path, default=Path(__file__).resolve().parent / "results-import.json")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="readinglist-import-bench-") as tmp:
        results = [measure(n, Path(tmp), args.repeat) for n in args.n]
    print(table(results))
    over = [r["entries"] for r in results if r["entries"] >= TARGET_ENTRIES and r["import_vs_pybtex"] > TARGET]
    target = f"import <= {TARGET:g}x pybtex's parse at {TARGET_ENTRIES:,} entries or more"
    print(f"\ntarget: {target}" + (f"; OVER at {over}" if over else ": met"))
    args.json.write_text(json.dumps({"target": TARGET, "results": results}, indent=2) + "\n", encoding="utf-8")
    print(f"results: {args.json}")
    return 1 if over else 0
