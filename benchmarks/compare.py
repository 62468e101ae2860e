"""Today's code and another commit's, side by side in one run (issue 29: "within 10%").

    python benchmarks/bench.py --compare REF [--n 1000] [--repeat 3] [--json PATH]

The same benchmark (bench.py: the same synthetic list, seed and steps) runs for each code in
turn, ABAB…, so a machine that is busier in one minute than the next weighs on both sides
alike. The other commit's code is a ``git worktree`` of REF, put first on ``PYTHONPATH``; the
harness is this checkout's for both. Prints each step's median wall and CPU time for both sides
and their ratio, and marks a ratio over 1.10 (the issue's limit); the verdict is for a reader,
as every figure here: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
STEPS = ("note", "frontmatter", "new_note", "delete_note", "add", "noop", "build", "generate")
LIMIT = 1.10  # issue 29: every figure within 10% of the code it replaces


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", required=True, metavar="REF", help="the commit to compare with (say HEAD~5)")
    parser.add_argument("--n", type=int, default=1000, help="works in the synthetic list (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (default 3)")
    parser.add_argument("--json", type=Path, help="results (default benchmarks/results-compare-N.json)")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="readinglist-compare-") as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(base), args.compare], check=True)
        try:
            runs = _alternate(args, {"base": base / "src", "today": REPO / "src"}, Path(scratch))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(base)], check=False)
    results = {"n": args.n, "compare": args.compare, "repeat": args.repeat, "medians": medians(runs), "runs": runs}
    print(table(results["medians"]))
    path = args.json or HERE / f"results-compare-{args.n}.json"
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nresults: {path}")
    return 0


def _alternate(args: argparse.Namespace, sources: dict[str, Path], scratch: Path) -> dict[str, list[dict[str, Any]]]:
    """Each side ``repeat`` times, in turn; each run's steps (bench.py's JSON)."""
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sources}
    for round_ in range(args.repeat):
        for side, src in sources.items():
            out = scratch / f"{side}-{round_}.json"
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")])}
            command = [sys.executable, str(HERE / "bench.py"), "--n", str(args.n), "--no-parallel", "--no-search"]
            subprocess.run([*command, "--json", str(out)], check=True, env=env, stdout=subprocess.DEVNULL)
            runs[side].append(json.loads(out.read_text(encoding="utf-8"))["steps"])
    return runs


def medians(runs: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, dict[str, float]]]:
    """step -> side -> {"seconds", "cpu_seconds"}: the median of each side's runs."""
    found: dict[str, dict[str, dict[str, float]]] = {}
    for step in STEPS:
        for side, steps in runs.items():
            taken = [s[step] for s in steps if step in s]
            if taken:
                found.setdefault(step, {})[side] = {
                    measure: statistics.median(float(s.get(measure, 0.0)) for s in taken)
                    for measure in ("seconds", "cpu_seconds")
                }
    return found


def table(found: dict[str, dict[str, dict[str, float]]]) -> str:
    rows = ["| step | base wall | today wall | ratio | base CPU | today CPU | ratio |", "|---|---|---|---|---|---|---|"]
    for step, sides in found.items():
        base, today = sides.get("base"), sides.get("today")
        if base and today:
            cells = [step]
            for measure in ("seconds", "cpu_seconds"):
                ratio = today[measure] / base[measure] if base[measure] else float("nan")
                mark = " (over 10%)" if ratio > LIMIT else ""
                cells += [f"{base[measure]:.2f} s", f"{today[measure]:.2f} s", f"{ratio:.2f}{mark}"]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
