"""Working titles against real titles (issue 25, part 5): mean word overlap, tuning part and held-out.

    python benchmarks/quality_titles.py [--show N]

Each record with a real title and an abstract gets a working title from its abstract alone
(the title is hidden from ``readinglist.titles``), scored by the F1 of the content words the
two share, as tests/test_quality.py scores them. Records: the 300 arXiv records of
tests/fixtures/related/arxiv-300.jsonl.gz and the seeds whose title is their own (not
inferred). The held-out third is fixed by a hash of each record's id, set before tuning:
``sha256(id)[0] % 3 == 0``. ``--show N`` prints the N worst titles of the tuning part, to
read by hand (the held-out part is never read to tune).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from readinglist.store import bibfile
from readinglist.titles import working_title

REPO = Path(__file__).resolve().parents[1]
ARXIV = REPO / "tests" / "fixtures" / "related" / "arxiv-300.jsonl.gz"
SEEDS = REPO / "tests" / "fixtures" / "seeds" / "refs.bib"
TOKEN = re.compile(r"[^\W_]+")


def held_out(record_id: str) -> bool:
    return hashlib.sha256(record_id.encode()).digest()[0] % 3 == 0


def title_words(title: str) -> set[str]:
    words = {w.lower() for w in TOKEN.findall(title)}
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if w not in ENGLISH_STOP_WORDS}


def overlap(guess: str, real: str) -> float:
    """F1 of the content words two titles share (tests/test_quality.py's measure)."""
    a, b = title_words(guess), title_words(real)
    return 2 * len(a & b) / (len(a) + len(b)) if a & b else 0.0


def records() -> dict[str, list[tuple[str, str, str]]]:
    """(id, real title, abstract) per set."""
    with gzip.open(ARXIV, "rt", encoding="utf-8") as lines:
        arxiv = [(p["id"], p["title"], p["abstract"]) for p in map(json.loads, lines)]
    works = bibfile.load(SEEDS, tolerant=True).works()
    seeds = [(w.key, w.title, w.abstract) for w in works if not w.title_inferred and w.abstract]
    return {"arxiv-300": arxiv, "seeds (real titles)": seeds}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=0, help="print the N worst titles of the tuning part")
    args = parser.parse_args(argv)
    print(f"{'set':<22}{'tuning':>18}{'held-out third':>18}")
    worst: list[tuple[float, str, str]] = []
    for name, rows in records().items():
        scored = {True: [], False: []}  # type: dict[bool, list[float]]
        for rid, real, abstract in rows:
            guess = working_title(abstract)
            scored[held_out(rid)].append(overlap(guess, real))
            if not held_out(rid):
                worst.append((scored[False][-1], guess, re.sub(r"[{}]", "", real)))
        cells = [f"{sum(s) / len(s):.3f} (n={len(s)})" if s else "-" for s in (scored[False], scored[True])]
        print(f"{name:<22}{cells[0]:>18}{cells[1]:>18}")
    for score, guess, real in sorted(worst)[: args.show]:
        print(f"{score:.2f}  {guess!r}\n      {real!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
