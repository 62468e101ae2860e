"""Live preview (issue 13, part 3): from saving a note to the page reloading in the browser.

    python benchmarks/bench.py --serve [--n 1000] [--repeat 5] [--out DIR] [--keep] [--json PATH]

A synthetic project is laid out and imported, then sphinx-autobuild starts in its folder with
the command line of ``nox -s serve`` (taken from the session itself, ``--noxfile``, run with a
stand-in for nox: by default the one ``readinglist init`` writes, since this repository's own
also watches its ``src/``), on a free ``--port``, so its first build is the one ``nox -s serve``
makes. Headless Chromium (Playwright, the system's ``chromium``) opens a paper page; each kind of
note edit (its body, its ``status:``, a new note, a deleted note) is saved and timed until the
page has reloaded (sphinx-autobuild's injected websocket script reloads it after the rebuild),
``--repeat`` times, with a check that the reloaded page shows the edit.

Each edit's time is split by timestamps: sphinx-autobuild's "Rebuilding..." line (detection and
debounce), Sphinx's "loading pickled environment" line (the build process's start-up: Python,
Sphinx, the extensions), the generator's report line, the Pagefind process (polled every
50 ms), sphinx-autobuild's "Serving on" line, and the reloaded page's own navigation timing.
CPU seconds are those of sphinx-autobuild's process tree (its reaped builds included). Writes
``benchmarks/results-serve-N.json`` and prints a markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import environment
import project
import report
from measure import _read, _tree, run
from synthetic import make_corpus

REPO = Path(__file__).resolve().parent.parent
SCAFFOLD_NOXFILE = REPO / "src" / "readinglist" / "scaffold" / "noxfile.py.tmpl"
KINDS = ("body", "status", "new note", "deleted note")
POLL = 0.05  # seconds between looks for a Pagefind process
QUIET = 3.0  # seconds without a new line from sphinx-autobuild after a build: no second build follows
TIMEOUT = 300.0  # seconds one edit may take to show
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="number of works (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="edits of each kind (default 5)")
    parser.add_argument("--out", type=Path, help="project folder to create (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the project folder afterwards")
    parser.add_argument("--json", type=Path, help="results file (default benchmarks/results-serve-N.json)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic list (default 1)")
    parser.add_argument(
        "--noxfile", type=Path, default=SCAFFOLD_NOXFILE,
        help="the noxfile whose serve session is run (default: the one readinglist init writes)",
    )  # fmt: skip
    parser.add_argument(
        "--arg", action="append", default=[], metavar="ARG",
        help="one more sphinx-autobuild argument, as after nox -s serve -- (--arg=-D --arg=NAME=VALUE)",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.out and args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"serve: {args.out} is not empty (it would be overwritten)")
    root = (args.out or Path(tempfile.mkdtemp(prefix=f"readinglist-serve-{args.n}-"))).resolve()
    path = args.json or Path(__file__).resolve().parent / f"results-serve-{args.n}.json"
    try:
        results = measure(root, args)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(table(results))
    report.write_json(results, path)
    print(f"\nresults: {path}" + (f"\nproject kept: {root}" if args.keep else ""))
    return 0


# -- the command line of ``nox -s serve`` ---------------------------------------------------------


class _Session:
    """Enough of ``nox.Session`` to run a serve session: installs are skipped, commands recorded."""

    def __init__(self, posargs: list[str], cwd: Path) -> None:
        self.posargs, self.cwd, self.commands = posargs, cwd, []  # type: list[list[str]]

    def install(self, *args: str) -> None:
        pass

    def run(self, *args: str, silent: bool = False) -> str | None:
        if args[0] == "python":  # the session asks readinglist which files are generated
            cmd = [sys.executable, *args[1:]]
            return subprocess.run(cmd, cwd=self.cwd, capture_output=True, text=True, check=True).stdout
        self.commands.append(list(args))
        return None


def serve_command(noxfile: Path, posargs: list[str], cwd: Path) -> list[str]:
    """The command ``nox -s serve -- POSARGS`` runs in ``cwd``, as the session in ``noxfile`` builds it."""
    stand_in = types.ModuleType("nox")
    stand_in.session = lambda function: function  # type: ignore[attr-defined]
    stand_in.options = types.SimpleNamespace()  # type: ignore[attr-defined]
    stand_in.Session = _Session  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"__name__": "noxfile", "__file__": str(noxfile)}
    saved = sys.modules.get("nox")
    sys.modules["nox"] = stand_in
    try:
        exec(compile(noxfile.read_text(encoding="utf-8"), str(noxfile), "exec"), namespace)
    finally:
        if saved is None:
            sys.modules.pop("nox", None)
        else:
            sys.modules["nox"] = saved
    session = _Session(posargs, cwd)
    namespace["serve"](session)
    (command,) = session.commands
    return command


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the server and its output --------------------------------------------------------------------


@dataclass
class Server:
    """sphinx-autobuild running in the project's folder; its output lines with the time each arrived."""

    proc: subprocess.Popen[str]
    log: Path
    lines: list[tuple[float, str]] = field(default_factory=list)
    pagefind: list[tuple[float, float]] = field(default_factory=list)  # (first seen, last seen), per process
    done: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._poll, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with open(self.log, "w", encoding="utf-8") as sink:
            for line in self.proc.stdout:
                now = time.time()
                self.lines.append((now, line.rstrip("\n")))
                sink.write(f"{now:.3f} {line}")
                sink.flush()
        self.done.set()

    def _poll(self) -> None:
        seen: dict[int, int] = {}  # pagefind pid -> its index in self.pagefind
        while not self.done.is_set():
            for pid in _tree(self.proc.pid):
                if _read(f"/proc/{pid}/comm").strip() == "pagefind":
                    now = time.time()
                    if pid not in seen:
                        seen[pid] = len(self.pagefind)
                        self.pagefind.append((now, now))
                    self.pagefind[seen[pid]] = (self.pagefind[seen[pid]][0], now)
            time.sleep(POLL)

    def wait_for(self, text: str, since: int, timeout: float = TIMEOUT) -> int:
        """The index of the first line from ``since`` on that contains ``text``."""
        end = time.time() + timeout
        while time.time() < end:
            for i in range(since, len(self.lines)):
                if text in self.lines[i][1]:
                    return i
            if self.proc.poll() is not None:
                raise SystemExit(f"serve: sphinx-autobuild exited ({self.proc.returncode}); see {self.log}")
            time.sleep(0.02)
        raise SystemExit(f"serve: no {text!r} from sphinx-autobuild within {timeout:.0f} s; see {self.log}")

    def settle(self) -> None:
        """Wait until the last build has finished and nothing more was printed for QUIET seconds."""
        while True:
            start = self.lines[-1][0]
            last = max(i for i, (_, line) in enumerate(self.lines) if "Rebuilding" in line or "Serving on" in line)
            if "Serving on" in self.lines[last][1] and time.time() - start >= QUIET:
                return
            time.sleep(0.1)
            if self.proc.poll() is not None:
                raise SystemExit(f"serve: sphinx-autobuild exited ({self.proc.returncode}); see {self.log}")

    def cpu_seconds(self) -> float:
        """User and system time of sphinx-autobuild, its live children and the builds it has reaped."""
        total = 0
        for pid in _tree(self.proc.pid):
            fields = _read(f"/proc/{pid}/stat").rpartition(")")[2].split()
            if len(fields) > 14:
                total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        return total / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def serving(command: list[str], root: Path) -> Iterator[Server]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # lines are timed as they come
    executable = [sys.executable, "-m", "sphinx_autobuild"] if command[0] == "sphinx-autobuild" else command[:1]
    proc = subprocess.Popen([*executable, *command[1:]], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)  # fmt: skip
    server = Server(proc, root / "serve.log")
    server.start()
    try:
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 2)  # Ctrl+C: its own group, so its build and Pagefind go too
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


# -- the edits ------------------------------------------------------------------------------------


def toggle_status(path: Path) -> None:
    """A front-matter edit: ``status:`` from read to reading, or back."""
    text = path.read_text(encoding="utf-8")
    if "status: read\n" in text:
        project.change_status(path)
    else:
        path.write_text(text.replace("status: reading\n", "status: read\n", 1), encoding="utf-8")


def append_line(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"\n{text}\n")


@dataclass
class Edit:
    kind: str
    note: Path  # the note edited, created or deleted (its paper's page is the one open)
    apply: Callable[[], None]
    shows: str  # text the reloaded page must contain ("" when it must not contain ``hides``)
    hides: str = ""


def edits(root: Path, notes: list[Path], repeat: int) -> Iterator[Edit]:
    """``repeat`` edits of each kind, kind by kind; the notes created are the ones then deleted."""
    for i in range(repeat):
        marker = f"Second thought number {i + 1}, added while the site was served."
        yield Edit("body", notes[0], lambda m=marker: append_line(notes[0], m), marker)
    for i in range(repeat):
        note = notes[1 + i % (len(notes) - 1)]
        yield Edit("status", note, lambda p=note: toggle_status(p), "")
    taken = list(notes)
    for _ in range(repeat):
        path = project.new_note_path(root, taken)
        taken.append(path)
        yield Edit("new note", path, lambda p=path: write_new_note(p), NOTE_TEXT)
    for path in taken[len(notes) :]:
        yield Edit("deleted note", path, path.unlink, "", NOTE_TEXT)


NOTE_TEXT = "A note on this paper, written by hand"


def write_new_note(path: Path) -> None:
    path.write_text(project.NEW_NOTE, encoding="utf-8")


def status_shown(path: Path) -> str:
    """What the paper page holds after a status toggle: the note's new status, as a search filter."""
    status = "reading" if "status: reading\n" in path.read_text(encoding="utf-8") else "read"
    return f'data-pagefind-filter="status[value]" value="{status}"'


# -- one edit, timed ------------------------------------------------------------------------------


def timed_edit(server: Server, page: Any, base: str, edit: Edit) -> dict[str, Any]:
    url = f"{base}papers/{edit.note.stem}.html"
    page.goto(url)
    server.settle()
    mark, pagefind_mark, cpu = len(server.lines), len(server.pagefind), server.cpu_seconds()
    with page.expect_event("load", timeout=TIMEOUT * 1000):
        saved = time.time()
        edit.apply()
    timing = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {origin: performance.timeOrigin, load: n.loadEventEnd, response: n.responseEnd}; }"
    )
    html = page.content()
    server.settle()
    lines = server.lines[mark:]
    stamps = _stamps(lines, saved)
    reloaded = (timing["origin"] + timing["load"]) / 1000 - saved
    navigated = timing["origin"] / 1000 - saved
    pagefind = server.pagefind[pagefind_mark:]
    result: dict[str, Any] = {
        "kind": edit.kind, "note": edit.note.name, "seconds": reloaded, "reload_started": navigated,
        "builds": sum(1 for _, line in lines if "Rebuilding" in line),
        "cpu_seconds": server.cpu_seconds() - cpu, **stamps,
    }  # fmt: skip
    if pagefind:
        result["pagefind_start"], result["pagefind_end"] = pagefind[0][0] - saved, pagefind[0][1] - saved
    shows = status_shown(edit.note) if edit.kind == "status" else edit.shows
    result["shown"] = shows in html and not (edit.hides and edit.hides in html)
    return result


MARKS = {  # split points: the first line from sphinx-autobuild's output (or Sphinx's) containing each
    "detected": "Rebuilding",
    "sphinx_started": "Running Sphinx",
    "environment_loaded": "loading pickled environment",
    "generated": "[readinglist] ",
    "served": "Serving on",
}


def _stamps(lines: list[tuple[float, str]], saved: float) -> dict[str, float]:
    out = {}
    for name, text in MARKS.items():
        found = next((t for t, line in lines if text in line and "search:" not in line), None)
        if found is not None:
            out[name] = found - saved
    served = [t for t, line in lines if MARKS["served"] in line]
    if served:
        out["idle"] = served[-1] - saved  # the last build the edit started has finished
    return out


# -- the run --------------------------------------------------------------------------------------


def measure(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    source = environment.source_digest()
    corpus = make_corpus(args.n, args.seed)
    project.write_project(root, corpus)
    imported = run("import", [sys.executable, "-m", "readinglist", "import"], root, root / "import.log")
    if imported.returncode != 0:
        sys.exit(f"serve: import failed:\n{imported.output[-3000:]}")
    notes = project.write_notes(root)
    port = free_port()
    command = serve_command(args.noxfile, ["--port", str(port), *args.arg], root)
    print(f"[serve] {' '.join(command)}", file=sys.stderr, flush=True)
    results: dict[str, Any] = {"n": args.n, "seed": args.seed, "machine": environment.describe(),
                               "command": command, "noxfile": str(args.noxfile.relative_to(REPO)
                               if args.noxfile.is_relative_to(REPO) else args.noxfile)}  # fmt: skip
    started = time.time()
    with serving(command, root) as server:
        first = server.wait_for("Serving on", 0, timeout=1800)
        results["first_build_seconds"] = server.lines[first][0] - started
        results["first_build_cpu_seconds"] = server.cpu_seconds()
        print(f"[serve] first build: {results['first_build_seconds']:.1f} s", file=sys.stderr, flush=True)
        base = f"http://127.0.0.1:{port}/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            page = browser.new_page()
            trials = []
            for edit in edits(root, notes, args.repeat):
                trial = timed_edit(server, page, base, edit)
                print(f"[serve] {edit.kind}: {trial['seconds']:.2f} s, {trial['builds']} build(s), "
                      f"{trial['cpu_seconds']:.1f} CPU s, shown {trial['shown']}", file=sys.stderr)  # fmt: skip
                trials.append(trial)
            browser.close()
    results["trials"] = trials
    results["summary"] = summary(trials)
    if environment.source_digest() != source:
        results["warning"] = "readinglist's source changed during the run: edits measured different code"
    return results


PARTS = (  # (name, from, to): the split of one edit's time, each a difference of two timestamps
    ("detection (watchfiles, sphinx-autobuild)", None, "detected"),
    ("build start-up (Python, Sphinx, extensions, pickled env)", "detected", "environment_loaded"),
    ("generator", "environment_loaded", "generated"),
    ("Sphinx (read, write)", "generated", "pagefind_start"),
    ("Pagefind", "pagefind_start", "pagefind_end"),
    ("after Pagefind to reload message", "pagefind_end", "served"),
    ("reload (request, page load)", "served", "seconds"),
)


def summary(trials: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        these = [t for t in trials if t["kind"] == kind]
        if not these:
            continue
        seconds = [t["seconds"] for t in these]
        row: dict[str, Any] = {
            "edits": len(these), "median": statistics.median(seconds), "max": max(seconds),
            "cpu_median": statistics.median(t["cpu_seconds"] for t in these),
            "builds": [t["builds"] for t in these], "all_shown": all(t["shown"] for t in these),
            "idle_median": statistics.median(t["idle"] for t in these),
        }  # fmt: skip
        for name, start, end in PARTS:
            spans = [t[end] - (t[start] if start else 0.0) for t in these if end in t and (start is None or start in t)]
            if spans:
                row[name] = statistics.median(spans)
        out[kind] = row
    return out


def table(results: dict[str, Any]) -> str:
    kinds = list(results["summary"])
    lines = ["| " + " | ".join(["", *kinds]) + " |", "| --- |" + " ---: |" * len(kinds)]

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(results["summary"][k]) for k in kinds) + " |")

    row("save to reloaded page, median (max), s", lambda s: f"{s['median']:.2f} ({s['max']:.2f})")
    row("CPU seconds per edit, median", lambda s: f"{s['cpu_median']:.1f}")
    row("builds per edit", lambda s: " ".join(map(str, s["builds"])))
    row("save to the server idle again, median, s", lambda s: f"{s['idle_median']:.2f}")
    for name, _, _ in PARTS:
        row(f"– {name}, s", lambda s, n=name: report.fmt(s.get(n)))
    row("edit shown on the reloaded page", lambda s: "yes" if s["all_shown"] else "NO")
    lines.append(f"\nfirst build (sphinx-autobuild's initial build): {results['first_build_seconds']:.1f} s, "
                 f"{results['first_build_cpu_seconds']:.0f} CPU s")  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
