"""Children run side by side (the shards of the search index): results in order, output kept, a limit kept."""

from __future__ import annotations

import sys
from pathlib import Path

from readinglist.site import child

# Each waits until the other has started: run one after the other, neither would ever finish
# (the timeout fails the test instead). No time is measured.
MEET = """
import pathlib, sys, time
here, other = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
here.touch()
deadline = time.monotonic() + 60
while not other.exists():
    if time.monotonic() > deadline:
        sys.exit("the other never started")
    time.sleep(0.01)
print(here.name)
"""


def _python(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


def test_results_come_in_order_with_their_own_output() -> None:
    commands = [_python(f"import sys; print({n}); print('e{n}', file=sys.stderr); sys.exit({n})") for n in range(5)]
    results = child.run_each(commands, jobs=2)
    assert [r.returncode for r in results] == [0, 1, 2, 3, 4]
    assert [r.stdout for r in results] == [f"{n}\n" for n in range(5)]
    assert [r.stderr for r in results] == [f"e{n}\n" for n in range(5)]
    assert [r.args for r in results] == commands


def test_two_jobs_run_at_once(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    results = child.run_each([_python(MEET, a, b), _python(MEET, b, a)], jobs=2)
    assert [(r.returncode, r.stdout.strip()) for r in results] == [(0, "a"), (0, "b")]


def test_one_job_runs_them_one_at_a_time(tmp_path: Path) -> None:
    """The limit holds: with one job the first never sees the second start."""
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    waits = _python(MEET.replace("60", "1"), a, b)
    starts = _python("import pathlib, sys; pathlib.Path(sys.argv[1]).touch(); print('second')", b)
    results = child.run_each([waits, starts], jobs=1)
    assert results[0].returncode != 0 and "never started" in results[0].stderr
    assert results[1].stdout == "second\n"


def test_output_larger_than_a_pipe_does_not_block() -> None:
    big = _python("import sys; sys.stdout.write('x' * 1_000_000)")
    results = child.run_each([big, big, big], jobs=2)
    assert [len(r.stdout) for r in results] == [1_000_000] * 3
