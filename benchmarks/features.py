"""What the related-work graphs and the charts cost (issue 12): one list built three ways at once.

    python benchmarks/bench.py --features [--n 1000 10000] [--json PATH]

The same synthetic list is built with everything on, with ``graph = false`` and with
``charts = false``. Run one after the other on a machine that others share, such builds
measure the load more than the features: one 10,000-work build took 302 CPU seconds, and the
same build with less to do took 377 an hour later. Started together, the three variants share
whatever else runs, step by step (import, generate, a full ``readinglist build -j 1`` with
Pagefind), so their differences are the features'. Each step is timed in CPU seconds (user and
system, its children included) as well as wall time, with its peak memory.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

import project
from measure import Step, disk_usage, run
from synthetic import make_corpus, slug

VARIANTS = {"all on": (), "graph off": ("graph = false",), "charts off": ("charts = false",)}
TARGET = 0.15  # the graph may add at most 15% to generating and building 10,000 works (issue 12)


def readinglist(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "readinglist", "--root", str(root), *args]


def together(commands: dict[str, list[str]], folder: Path, step: str) -> dict[str, Step]:
    """Run every command at once, one thread waiting for each; all must succeed."""
    steps: dict[str, Step] = {}

    def one(name: str) -> None:
        steps[name] = run(f"{step}-{slug(name)}", commands[name], folder, folder / f"{step}-{slug(name)}.log")

    threads = [threading.Thread(target=one, args=(name,)) for name in commands]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [name for name, s in steps.items() if s.returncode != 0]
    if failed or len(steps) != len(commands):
        sys.exit(f"bench: {step} failed for {failed}:\n{steps[failed[0]].output[-2000:] if failed else ''}")
    return steps


def measure(n: int, folder: Path) -> dict[str, Any]:
    corpus = make_corpus(n, 1)
    roots = {name: folder / slug(name) for name in VARIANTS}
    for name, root in roots.items():
        project.write_project(root, corpus, VARIANTS[name])
    results: dict[str, dict[str, Any]] = {name: {} for name in VARIANTS}
    for step, args in (("import", ("import",)), ("generate", ("generate",))):
        for name, s in together({k: readinglist(r, *args) for k, r in roots.items()}, folder, step).items():
            results[name][step] = _recorded(s)
    builds = together({k: readinglist(r, "build", "--out", str(r / "site"), "-j", "1") for k, r in roots.items()},
                      folder, "build")  # fmt: skip
    for name, s in builds.items():
        results[name]["build"] = _recorded(s)
        results[name]["html_bytes"] = disk_usage(roots[name] / "site")
    return {"n": n, "variants": results, "added": _added(results)}


def _recorded(step: Step) -> dict[str, Any]:
    return {k: v for k, v in asdict(step).items() if k not in ("output", "name")}


def _added(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """What each feature adds to generate and build, as a share of the build without it (CPU time)."""
    on = results["all on"]
    added = {}
    for feature, off in (("graph", results["graph off"]), ("charts", results["charts off"])):
        added[feature] = {
            f"{step}_cpu": (on[step]["cpu_seconds"] - off[step]["cpu_seconds"]) / off[step]["cpu_seconds"]
            for step in ("generate", "build")
        } | {
            "site_cpu": (_site_cpu(on) - _site_cpu(off)) / _site_cpu(off),  # generate and build together
            "build_peak_mb": on["build"]["tree_pss_mb"] - off["build"]["tree_pss_mb"],
            "html_mb": (on["html_bytes"] - off["html_bytes"]) / 1e6,
        }
    return added


def _site_cpu(variant: dict[str, Any]) -> float:
    return float(variant["generate"]["cpu_seconds"] + variant["build"]["cpu_seconds"])


def table(result: dict[str, Any]) -> str:
    head = ("variant", "generate CPU (s)", "build CPU (s)", "build wall (s)", "build peak PSS (MB)", "site folder (MB)")
    lines = [f"{result['n']:,} works", "| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for name, v in result["variants"].items():
        b = v["build"]
        lines.append(f"| {name} | {v['generate']['cpu_seconds']:.1f} | {b['cpu_seconds']:.1f} | {b['seconds']:.1f} "
                     f"| {b['tree_pss_mb']:.0f} | {v['html_bytes'] / 1e6:.1f} |")  # fmt: skip
    for feature, a in result["added"].items():
        lines.append(f"\n{feature}: +{a['site_cpu']:.1%} of generate and build together (+{a['generate_cpu']:.1%} "
                     f"generate, +{a['build_cpu']:.1%} build, CPU), "
                     f"+{a['build_peak_mb']:.0f} MB build peak, +{a['html_mb']:.1f} MB site folder")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 10000], help="list sizes (default 1000 10000)")
    parser.add_argument("--json", type=Path, default=Path(__file__).resolve().parent / "results-features.json")
    parser.add_argument("--keep", action="store_true", help="keep the three projects of the last size")
    args = parser.parse_args(argv)
    results = []
    for n in args.n:
        folder = Path(tempfile.mkdtemp(prefix=f"readinglist-features-{n}-"))
        results.append(measure(n, folder))
        print(table(results[-1]) + "\n", flush=True)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    args.json.write_text(json.dumps({"target": TARGET, "results": results}, indent=2) + "\n", encoding="utf-8")
    over = [r["n"] for r in results if r["n"] >= 10_000 and r["added"]["graph"]["site_cpu"] > TARGET]
    print(
        f"target: the graph adds <= {TARGET:.0%} to generating and building 10,000 works"
        + (f"; OVER at {over}" if over else ": met")
    )
    print(f"results: {args.json}")
    return 1 if over else 0
