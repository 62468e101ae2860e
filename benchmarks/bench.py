"""Benchmark readinglist on a synthetic reading list of N works (issue 5).

    python benchmarks/bench.py --n 1000 [--out DIR] [--keep] [--json PATH] [--browser]
    python benchmarks/bench.py --budget [--n 10000] [--build]   (benchmarks/budget.py)
    python benchmarks/bench.py --import [--n 1000 10000]   (benchmarks/importbench.py)
    python benchmarks/bench.py --features [--n 1000 10000]   (graph and charts on and off: benchmarks/features.py)
    python benchmarks/bench.py --serve [--n 1000] [--repeat 5]   (nox -s serve, save to reload: benchmarks/serve.py)
    python benchmarks/bench.py --compare REF [--n 1000] [--repeat 3]   (side by side with REF's code: compare.py)
    python benchmarks/bench.py --quality [--corpus DIR] [--json PATH]   (a real library: benchmarks/quality.py)

Every step runs in its own subprocess, as a user runs it, and is timed with its peak
memory: import, generate twice, a full build (-j 1 and -j 3), a no-op rebuild, rebuilds
after each kind of note edit (its body, its front matter, a new note, a deleted note) and one
after adding a paper. The same pages are also built with
plain Sphinx (the floor). Every build ends with Pagefind indexing the site (readinglist's
Sphinx extension runs it); its own time and memory are taken from the full build. Prints a markdown table
and writes the results as JSON (default benchmarks/results-N.json).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import environment
import floor
import project
import report
import search
from measure import Step, changed, disk_usage, run, snapshot
from synthetic import Corpus, make_corpus


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="number of works (default 1000)")
    parser.add_argument("--out", type=Path, help="project folder to create (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the project folder afterwards")
    parser.add_argument("--json", type=Path, help="results file (default benchmarks/results-N.json)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic list (default 1)")
    parser.add_argument("--browser", action="store_true", help="measure one query's bytes in headless Chromium")
    parser.add_argument("--no-parallel", action="store_true", help="skip the -j 3 builds")
    parser.add_argument("--no-search", action="store_true", help="skip the search measurements")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="one more [site] setting, in TOML (charts = false): the same list with a feature off",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--search" in argv:  # a first query at 2,000 works under 4x CPU throttling (issue 27): benchmarks/search.py
        import search

        return search.main([a for a in argv if a != "--search"])
    if "--compare" in argv:  # today's code and another commit's, side by side (issue 29): benchmarks/compare.py
        import compare

        return compare.main(argv)
    if "--zotero" in argv:  # sync of 1,000 and 10,000 items from a local fake server (issue 30): benchmarks/zotero.py
        import zotero

        return zotero.main([a for a in argv if a != "--zotero"])
    if "--import" in argv:  # import speed against pybtex's parse (issue 10): benchmarks/importbench.py
        import importbench

        return importbench.main([a for a in argv if a != "--import"])
    if "--features" in argv:  # the graphs' and charts' cost, three builds at once (issue 12): benchmarks/features.py
        import features

        return features.main([a for a in argv if a != "--features"])
    if "--serve" in argv:  # save a note to the page reloaded under nox -s serve (issue 13): benchmarks/serve.py
        import serve

        return serve.main([a for a in argv if a != "--serve"])
    if "--quality" in argv:  # categories, topics, related links, summaries on real exports (issue 25)
        import quality

        return quality.main([a for a in argv if a != "--quality"])
    if "--budget" in argv:  # the resource budget of hostile inputs (issue 9): benchmarks/budget.py
        import budget

        return budget.main([a for a in argv if a != "--budget"])
    args = parse(argv)
    root = args.out or Path(tempfile.mkdtemp(prefix=f"readinglist-bench-{args.n}-"))
    if args.out and args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"bench: {args.out} is not empty (it would be overwritten)")
    root = root.resolve()
    path = args.json or Path(__file__).resolve().parent / f"results-{args.n}.json"
    try:
        results = Bench(root, args, path).run()
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(report.table(report.rows_of(results)))
    report.write_json(results, path)
    print(f"\nresults: {path}" + (f"\nproject kept: {root}" if args.keep else ""))
    return 0


def readinglist(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "readinglist", *map(str, args)]


class Bench:
    """One run: the steps in order, each recorded in ``steps`` and ``counts``."""

    def __init__(self, root: Path, args: argparse.Namespace, json_path: Path) -> None:
        self.root, self.args, self.site, self.json_path = root, args, root / "site", json_path
        self.steps: dict[str, Step] = {}
        self.counts: dict[str, Any] = {}
        self.notes: list[Path] = []

    def recorded(self) -> dict[str, dict[str, Any]]:
        """The steps so far, without their output."""
        return {k: {f: v for f, v in asdict(s).items() if f != "output"} for k, s in self.steps.items()}

    def run(self) -> dict[str, Any]:
        source = environment.source_digest()
        corpus = self.setup()
        self.build()
        floor_results = self.floor()  # from refs.bib as the full build saw it, before a paper is added
        self.rebuilds(corpus)
        results = {
            "n": self.args.n, "seed": self.args.seed, "machine": environment.describe(),
            "steps": self.recorded(), "counts": self.counts, "floor": floor_results,
        }  # fmt: skip
        results["settings"] = self.args.set
        results["search"] = {} if self.args.no_search else self.search()
        if environment.source_digest() != source:  # an editable install measures whatever is on disk
            results["warning"] = "readinglist's source changed during the run: steps measured different code"
            print(f"bench: warning: {results['warning']}", file=sys.stderr)
        self.json_path.with_suffix(".partial.json").unlink(missing_ok=True)
        return results

    def step(self, name: str, cmd: list[str]) -> Step:
        print(f"[bench] {name} ...", file=sys.stderr, flush=True)
        result = run(name, cmd, self.root, self.root / f"{name}.log")
        if result.returncode != 0:
            raise SystemExit(f"bench: step {name} failed ({result.returncode}):\n{result.output[-3000:]}")
        print(f"[bench] {name}: {result.seconds:.1f} s, {result.peak_rss_mb:.0f} MB", file=sys.stderr, flush=True)
        self.steps[name] = result
        self.save_progress()
        return result

    def save_progress(self) -> None:
        """The steps so far, so a long run that is stopped still leaves its numbers."""
        partial = {"n": self.args.n, "partial": True, "steps": self.recorded(), "counts": self.counts}
        report.write_json(partial, self.json_path.with_suffix(".partial.json"))

    def setup(self) -> Corpus:
        """Dumps and project files, import, notes (named by citation key), then generate twice."""
        corpus = make_corpus(self.args.n, self.args.seed)
        project.write_project(self.root, corpus, self.args.set)
        self.step("import", readinglist("import"))
        self.notes = project.write_notes(self.root)
        self.counts["generate_written"] = environment.files_written(self.step("generate", readinglist("generate")))
        again = self.step("generate_again", readinglist("generate"))
        self.counts["generate_again_written"] = environment.files_written(again)
        docs = self.root / "docs"
        self.counts["papers"] = len(list((docs / "papers").glob("*.md")))
        self.counts["author_pages"] = len([p for p in (docs / "authors").glob("*.md") if p.stem != "index"])
        return corpus

    def build(self) -> None:
        """Full builds into fresh folders, then the output's sizes."""
        self.step("build", readinglist("build", "--out", self.site, "-j", "1"))
        if not self.args.no_parallel:
            self.step("build_j3", readinglist("build", "--out", self.root / "site-j3", "-j", "3"))
            shutil.rmtree(self.root / "site-j3")
        self.counts.update(environment.site_counts(self.site))
        self.counts["html_disk_bytes"] = disk_usage(self.site)

    def rebuild(self, name: str) -> Step:
        """A rebuild of the same output; counts the doctrees (documents read) and pages it rewrote."""
        doctrees, pages = snapshot(self.site / ".doctrees", "*.doctree"), snapshot(self.site, "*.html")
        result = self.step(name, readinglist("build", "--out", self.site, "-j", "1"))
        self.counts[f"{name}_reread"] = changed(doctrees, snapshot(self.site / ".doctrees", "*.doctree"))
        self.counts[f"{name}_html_written"] = changed(pages, snapshot(self.site, "*.html"))
        self.counts[f"{name}_written"] = environment.files_written(result)
        return result

    def rebuilds(self, corpus: Corpus) -> None:
        self.rebuild("noop")
        project.edit_note(self.notes[0])
        self.rebuild("note")  # the note's body: the page includes the file
        project.change_status(self.notes[1])
        self.rebuild("frontmatter")
        created = project.new_note(self.root, self.notes)
        self.rebuild("new_note")
        self.notes[2].unlink()
        self.rebuild("delete_note")
        self.notes[2:3] = [created]
        project.add_paper(self.root, corpus)
        self.step("add_import", readinglist("import"))
        self.rebuild("add")

    def floor(self) -> dict[str, Any]:
        """The same pages with plain Sphinx (myst_parser only, basic theme), -j 1 and -j 3."""
        source, out = self.root / "floor", self.root / "floor-site"
        pages = floor.write_floor(self.root, source)
        builds = {"build": self.step("floor", floor.build_command(source, out))}
        if not self.args.no_parallel:
            builds["build_j3"] = self.step("floor_j3", floor.build_command(source, self.root / "f3", 3))
            shutil.rmtree(self.root / "f3")
        result: dict[str, Any] = {"pages": pages}
        result.update({k: {f: v for f, v in asdict(s).items() if f != "output"} for k, s in builds.items()})
        return result | environment.site_counts(out)

    def search(self) -> dict[str, Any]:
        pagefind = self.steps["build"].watched.get("pagefind")  # the full build's own Pagefind run
        if pagefind is None:
            raise SystemExit("bench: the build ran no Pagefind process (is pagefind[bin] installed?)")
        estimate = search.pagefind_query_bytes(self.site)
        sphinx = search.sphinx_query_bytes(self.site)
        result = {
            "pagefind_seconds": pagefind.seconds, "pagefind_peak_rss_mb": pagefind.peak_rss_mb,
            "pagefind_bytes": search.pagefind_bytes(self.site), "pagefind_files": search.pagefind_files(self.site),
            "pagefind_query": estimate, "pagefind_query_bytes": estimate["fixed"] + estimate["index_chunks"]
            + estimate["fragments"], "sphinx_query": sphinx, "sphinx_query_bytes": sum(sphinx.values()),
            "query": search.QUERY,
        }  # fmt: skip
        if self.args.browser:
            result["browser"] = self.browser()
        return result

    def browser(self) -> dict[str, Any]:
        """Optional: a failure here (no playwright, no chromium) is reported, not fatal."""
        try:
            import browser

            return browser.measure(self.site)
        except Exception as exc:
            print(f"bench: browser measurement failed: {exc!r}", file=sys.stderr)
            return {"error": repr(exc)}


if __name__ == "__main__":
    sys.exit(main())
