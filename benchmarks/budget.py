"""Resource budget (issue 9, item 10): hostile inputs cost under 2x the synthetic list.

    python benchmarks/budget.py [--n 10000] [--build] [--only CASE ...] [--json PATH] [--keep]
    nox -s bench -- --budget [same options]

Each case (benchmarks/hostile.py) is a project of its own; its steps run in subprocesses as
a user runs them (import, generate, and with --build a full build -j 1), timed with their
peak memory (the largest process's RSS). Every step of every case is compared with the same
step of the synthetic list of n works, measured in the same run: a case passes when each
step takes under BUDGET times the reference's time and peak memory. Time is CPU time (user
and system, the step and its children): on a shared machine wall time swings with the load
of the moment (the reference's import took 65 s and 21 s in one run); wall time is shown too.
This is a benchmark, not a test: timings depend on the machine, so nothing here runs in pytest.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import environment
import report
from hostile import CASES, Case
from measure import Step, run

BUDGET = 2.0
REFERENCE = "synthetic"
AGAIN = "synthetic_again"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="works in the synthetic list (default 10000)")
    parser.add_argument("--build", action="store_true", help="also a full build of each case (slow)")
    parser.add_argument("--only", nargs="+", choices=[c.name for c in CASES], help="these cases (and the reference)")
    parser.add_argument("--json", type=Path, help="results file (default benchmarks/results-budget.json)")
    parser.add_argument("--keep", action="store_true", help="keep the project folders")
    parser.add_argument("--no-again", action="store_true", help="run the reference once, not first and last")
    parser.add_argument("--timeout", type=int, default=900, help="seconds before a step is stopped (default 900)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    path = args.json or Path(__file__).resolve().parent / "results-budget.json"
    cases = [c for c in CASES if c.name == REFERENCE or not args.only or c.name in args.only]
    root = Path(tempfile.mkdtemp(prefix="readinglist-budget-")).resolve()
    source = environment.source_digest()
    try:
        measured = {case.name: measure(case, root / case.name, args) for case in cases}
        # Other work on the machine shifts every timing: the reference runs first and last.
        if not args.no_again:
            measured[AGAIN] = measure(cases[0], root / AGAIN, args)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    described = {c.name: c.description for c in cases} | {AGAIN: "the reference again, after the cases"}
    results = verdicts(measured, args.n, described)
    if environment.source_digest() != source:
        results["warning"] = "readinglist's source changed during the run: steps measured different code"
    print(table(results))
    report.write_json(results, path)
    print(f"\nresults: {path}" + (f"\nprojects kept: {root}" if args.keep else ""))
    return 0 if all(c["pass"] for c in results["cases"].values()) else 1


def measure(case: Case, root: Path, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The case's steps, each as seconds, peak memory and exit code (a failed step is recorded, not fatal)."""
    root.mkdir(parents=True)
    case.write(root, args.n)
    steps = (["import"] if case.imports else []) + ["generate"] + (["build"] if args.build else [])
    out: dict[str, dict[str, Any]] = {}
    for name in steps:
        extra = ["--out", str(root / "site"), "-j", "1"] if name == "build" else []
        print(f"[budget] {case.name}: {name} ...", file=sys.stderr, flush=True)
        # timeout(1) stops a blow-up (exit 124): it is recorded as a failure, and the next case runs.
        cmd = ["timeout", str(args.timeout), sys.executable, "-m", "readinglist", name, *extra]
        step = run(name, cmd, root, root / f"{name}.log")
        figures = f"{step.seconds:.1f} s, CPU {step.cpu_seconds:.1f} s, {step.peak_rss_mb:.0f} MB"
        print(f"[budget] {case.name}: {name}: {figures}", file=sys.stderr)
        out[name] = _recorded(step)
        if step.returncode != 0:
            break  # later steps need this one's output
    return out


def _recorded(step: Step) -> dict[str, Any]:
    tail = step.output.strip().splitlines()[-3:]
    return {
        "seconds": step.seconds, "cpu_seconds": step.cpu_seconds, "peak_rss_mb": step.peak_rss_mb,
        "returncode": step.returncode, "tail": tail,
    }  # fmt: skip


def verdicts(measured: dict[str, dict[str, dict[str, Any]]], n: int, described: dict[str, str]) -> dict[str, Any]:
    """Each step's ratios to the reference's same step (the mean of its two runs); a case passes
    when all its ratios are under BUDGET."""
    reference = {
        step: _mean(measured[REFERENCE][step], measured.get(AGAIN, {}).get(step)) for step in measured[REFERENCE]
    }
    cases: dict[str, Any] = {}
    for name, steps in measured.items():
        for step, values in steps.items():
            base = reference.get(step)
            values["time_ratio"] = values["cpu_seconds"] / base[0] if base else None
            values["memory_ratio"] = values["peak_rss_mb"] / base[1] if base else None
        ok = all(
            v["returncode"] == 0 and v["time_ratio"] is not None and max(v["time_ratio"], v["memory_ratio"]) < BUDGET
            for v in steps.values()
        )
        cases[name] = {"description": described[name], "steps": steps, "pass": ok}
    means = {step: {"cpu_seconds": t, "peak_rss_mb": m} for step, (t, m) in reference.items()}
    return {"n": n, "budget": BUDGET, "reference_mean": means, "machine": environment.describe(), "cases": cases}


def _mean(first: dict[str, Any], again: dict[str, Any] | None) -> tuple[float, float]:
    """CPU seconds and peak memory of a reference step, averaged over its runs."""
    runs = [first] + ([again] if again and again["returncode"] == 0 else [])
    return sum(r["cpu_seconds"] for r in runs) / len(runs), sum(r["peak_rss_mb"] for r in runs) / len(runs)


def table(results: dict[str, Any]) -> str:
    lines = [
        "| case | step | wall (s) | CPU (s) | peak RSS (MB) | CPU ratio | memory ratio | verdict |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, case in results["cases"].items():
        for step, v in case["steps"].items():
            figures = [f"{v['seconds']:.1f}", f"{v['cpu_seconds']:.1f}", f"{v['peak_rss_mb']:.0f}"]
            figures.append(report.fmt(v["time_ratio"]))
            figures.append(report.fmt(v["memory_ratio"]))
            lines.append(f"| {name} | {step} | {' | '.join(figures)} | {_verdict(name, v, results)} |")
    return "\n".join(lines)


def _verdict(case: str, v: dict[str, Any], results: dict[str, Any]) -> str:
    if v["returncode"] != 0:
        return "FAIL (stopped by the timeout)" if v["returncode"] == 124 else f"FAIL (exit {v['returncode']})"
    if case in (REFERENCE, AGAIN):
        return "reference"
    return "PASS" if max(v["time_ratio"], v["memory_ratio"]) < results["budget"] else "FAIL"


if __name__ == "__main__":
    sys.exit(main())
