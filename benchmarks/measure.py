"""Running one step in a subprocess: wall time, peak memory, and what it changed on disk.

Peak memory is reported two ways. ``ru_maxrss`` from wait4 is exact but is the largest
single process (the step or one of its reaped children); ``sphinx-build -j N`` forks
workers, so the process tree's total is sampled from /proc as well (PSS, so pages
shared after fork are not counted twice). Named child processes (Pagefind, which the
build runs at its end) are also timed and measured on their own, from the same samples.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SAMPLE_EVERY = 0.2  # seconds between /proc samples of the process tree
WATCHED = ("pagefind",)  # /proc/PID/comm of child processes reported on their own


@dataclass
class Watched:
    seconds: float  # from the first sample that saw it to the last (SAMPLE_EVERY resolution)
    peak_rss_mb: float  # its VmHWM (high-water mark) at the last sample


@dataclass
class Step:
    name: str
    seconds: float
    peak_rss_mb: float  # largest single process (exact)
    tree_pss_mb: float  # whole process tree (sampled)
    returncode: int
    output: str
    watched: dict[str, Watched] = field(default_factory=dict)
    cpu_seconds: float = 0.0  # user + system time of the step and its reaped children (load-independent)


def _as_installed() -> dict[str, str]:
    """The environment, with Python's bytecode cache on as an installed package has it (pip
    compiles at install; an editable install on first import). A sandbox that sets
    PYTHONDONTWRITEBYTECODE made every step compile this package's modules again, in the build
    and in its Sphinx process: 0.1 to 0.2 s of each rebuild at 1,000 works."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run(name: str, cmd: list[str], cwd: Path, log: Path | None = None) -> Step:
    """Run ``cmd`` to completion; its stdout and stderr go to ``log`` and into the Step."""
    out = log or cwd / f".bench-{name}.log"
    with open(out, "w", encoding="utf-8") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, env=_as_installed())
        sampler = TreeSampler(proc.pid)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait
        sampler.stop()
    text = out.read_text(encoding="utf-8", errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return Step(
        name, seconds, usage.ru_maxrss / 1024, sampler.peak_kb / 1024, proc.returncode, text, sampler.watched, cpu
    )


class TreeSampler(threading.Thread):
    """Polls the summed PSS of a process and all its descendants; keeps the maximum."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self._done = pid, 0, threading.Event()
        self.watched: dict[str, Watched] = {}
        self._first_seen: dict[str, float] = {}

    def run(self) -> None:
        while not self._done.is_set():
            tree = _tree(self.pid)
            self.peak_kb = max(self.peak_kb, sum(_pss_kb(p) for p in tree))
            for pid in tree:
                self._watch(pid)
            self._done.wait(SAMPLE_EVERY)

    def _watch(self, pid: int) -> None:
        name = _read(f"/proc/{pid}/comm").strip()
        hwm = _status_kb(pid, "VmHWM:")
        if name in WATCHED and hwm:
            first = self._first_seen.setdefault(name, time.perf_counter())
            self.watched[name] = Watched(time.perf_counter() - first, hwm / 1024)

    def stop(self) -> None:
        self._done.set()
        self.join()


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in _listdir(f"/proc/{p}/task"):
            todo += [int(c) for c in _read(f"/proc/{p}/task/{task}/children").split()]
    return out


def _status_kb(pid: int, key: str) -> int:
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith(key):
            return int(line.split()[1])
    return 0


def _pss_kb(pid: int) -> int:
    for line in _read(f"/proc/{pid}/smaps_rollup").splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except OSError:  # the process ended between listing and reading
        return ""


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def snapshot(folder: Path, pattern: str) -> dict[str, int]:
    """mtime (ns) of every file matching ``pattern`` below ``folder``."""
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob(pattern)} if folder.exists() else {}


def changed(before: dict[str, int], after: dict[str, int]) -> int:
    """Files new or rewritten since ``before`` (Sphinx writes a doctree for every document it reads)."""
    return sum(1 for path, mtime in after.items() if before.get(path) != mtime)


def size(path: Path) -> int:
    """Apparent size in bytes of a file, or of every file below a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0


def disk_usage(path: Path) -> int:
    """Bytes on disk, as ``du -s`` counts them (block-rounded)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) * 1024
