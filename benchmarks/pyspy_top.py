"""Top functions of a py-spy profile, by inclusive and by self samples.

    py-spy record --format raw -o build.raw -- python -m readinglist build --out /tmp/site
    python benchmarks/pyspy_top.py build.raw [COUNT]

py-spy's raw format is one collapsed stack per line ("outer;...;inner COUNT"). A
function counts once per stack for the inclusive share, so recursion is not counted twice.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"(.*) \((.*?):\d+\)$")


def short(frame: str) -> str:
    """Shorten "func (/long/path/pkg/mod.py:123)" to "func (pkg/mod.py)"."""
    match = FRAME.match(frame)
    return f"{match.group(1)} ({'/'.join(match.group(2).split('/')[-2:])})" if match else frame


def tally(path: Path) -> tuple[Counter[str], Counter[str], int]:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [short(f) for f in stack.split(";")]
        total += int(count)
        inclusive.update(dict.fromkeys(frames, int(count)))
        own[frames[-1]] += int(count)
    return inclusive, own, total


def main(argv: list[str]) -> None:
    inclusive, own, total = tally(Path(argv[1]))
    count = int(argv[2]) if len(argv) > 2 else 30
    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"== {title} ==")
        for name, n in counter.most_common(count):
            print(f"{100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main(sys.argv)
