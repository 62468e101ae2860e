"""Quality on a real library (issue 25): categories, topics, related links and summaries.

    python benchmarks/bench.py --quality [--corpus DIR] [--venues auto|builtin|PATH] [--json FILE] [--sample FILE]

The corpus (default: ../shared/corpus/ beside the repository if it exists, else the real
exports under tests/fixtures/exports/ and the seed dumps) is copied into a project made by
``readinglist init``, imported and generated, each step its own process as a user runs it.
Then refs.bib (what the records carry: the ground truth, benchmarks/groundtruth.py),
docs/records.json (what the tool shows) and docs/related/*.json (each page's related
papers) are read, and the figures of benchmarks/qualitymetrics.py printed for a tuning part
and a held-out third (by a hash of each work's first source line), side by side.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import groundtruth
import qualitymetrics
import qualitysample
from pybtex.database import parse_file

from readinglist.config import load_config
from readinglist.latex import to_text

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "corpus"
FIXTURES = REPO / "tests" / "fixtures"
SUFFIXES = (".bib", ".bibtex", ".json", ".txt")
SAME_TABLE = (
    "; the tool reads this table too: a contradiction is a record it read otherwise (an arXiv id, a venue it"
    " missed, a guess from the text); --venues builtin checks against a table of its own"
)


@dataclass
class Item:
    """One work as the benchmark sees it: its record, its stored fields and its page's related data."""

    record: dict[str, Any]
    fields: dict[str, str]
    related: list[dict[str, Any]]
    truth: groundtruth.Truth | None = None
    declared: tuple[str, ...] = ()  # the field its file is declared to be in (fields.toml)

    @property
    def source(self) -> str:
        """The first source line, ``file:line`` (file name only): stable whatever key the store gives."""
        sources = self.record.get("sources") or [{"file": self.record["key"], "line": 0}]
        return f"{Path(sources[0]['file']).name}:{sources[0]['line']}"

    @property
    def held_out(self) -> bool:
        return hashlib.sha256(self.source.encode()).digest()[0] % 3 == 0


def default_corpus() -> tuple[list[Path], str]:
    if SHARED.is_dir():
        return corpus_files(SHARED), f"{SHARED} (../shared/corpus/ beside the repository)"
    files = corpus_files(FIXTURES / "exports") + corpus_files(FIXTURES / "seeds" / "conf" / "sources")
    note = "tests/fixtures/exports and the seed dumps (no ../shared/corpus/ beside the repository)"
    return files, note


def corpus_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)


def readinglist(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "readinglist", "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def make_project(root: Path, files: list[Path]) -> dict[str, Any]:
    """init, the corpus in conf/sources/, import (file by file if the whole import fails), generate."""
    done = readinglist(root.parent, "init", str(root))
    if done.returncode:
        sys.exit(f"quality: readinglist init failed:\n{done.stderr}")
    sources = root / "conf" / "sources"
    copies = []
    for i, path in enumerate(files):
        copies.append(sources / f"{i:04d}" / path.name)  # the file's own name: a dump's owner may be in it
        copies[-1].parent.mkdir()
        shutil.copyfile(path, copies[-1])
    imported = readinglist(root, "import", *map(str, copies))
    failed = []
    if imported.returncode:  # one file no reader takes stops the import: leave it out, keep the rest
        failed = [str(files[i]) for i, c in enumerate(copies) if readinglist(root, "import", str(c)).returncode]
    generated = readinglist(root, "generate")
    if generated.returncode:
        sys.exit(f"quality: readinglist generate failed:\n{generated.stderr[-3000:]}")
    return {"files": len(files), "files_not_imported": failed, "import_summary": imported.stdout.split("\n")[0]}


def declared_fields(folder: Path | None) -> dict[str, tuple[str, ...]]:
    """A corpus's ``fields.toml``: ``[files]``, a file's name to the arXiv categories of its field
    ("corl21.bib" = "cs.RO"), for files whose entries do not name their venue (PMLR's)."""
    path = folder / "fields.toml" if folder else None
    if path is None or not path.is_file():
        return {}
    files = tomllib.loads(path.read_text(encoding="utf-8")).get("files", {})
    return {Path(name).name: (value,) if isinstance(value, str) else tuple(value) for name, value in files.items()}


def collect(root: Path, table: groundtruth.Table, declared: dict[str, tuple[str, ...]] | None = None) -> list[Item]:
    """Every work of the generated project, with its ground truth and its file's declared field."""
    records = json.loads((root / "docs" / "records.json").read_text(encoding="utf-8"))
    entries = parse_file(str(root / "refs.bib")).entries
    items = []
    for record in records:
        entry = entries.get(record["key"])
        fields = {k.lower(): to_text(v) for k, v in entry.fields.items()} if entry is not None else {}
        slug = Path(record.get("url", "")).stem
        data = root / "docs" / "related" / f"{slug}.json"
        related = json.loads(data.read_text(encoding="utf-8")).get("related", []) if data.is_file() else []
        items.append(Item(record, fields, related, groundtruth.truth(record["key"], fields, table)))
        items[-1].declared = (declared or {}).get(items[-1].source.rsplit(":", 1)[0], ())
    return items


def parts(items: list[Item]) -> dict[str, list[Item]]:
    return {"tuning": [i for i in items if not i.held_out], "held_out": [i for i in items if i.held_out], "all": items}


def measure(root: Path, table: groundtruth.Table, declared: dict[str, tuple[str, ...]]) -> tuple[dict[str, Any], str]:
    """The figures for the tuning part, the held-out third and all works; then the topics again
    with the draft ``readinglist topics --suggest`` makes, accepted as it is (if it can)."""
    top_k, topics = load_config(root).related_top_k, root / "conf" / "topics.toml"
    general = qualitymetrics.general_topic(topics)
    results = {
        name: qualitymetrics.figures(part, top_k, general)
        for name, part in parts(collect(root, table, declared)).items()
    }
    said = suggest_topics(root)
    if said.startswith("not measured"):
        return results, said
    general = qualitymetrics.general_topic(topics)
    for name, part in parts(collect(root, table, declared)).items():
        results[name]["topics_suggested"] = qualitymetrics.topics(part, general)
    return results, said


def suggest_topics(root: Path) -> str:
    """Run ``readinglist topics --suggest``, take its draft (a new .toml file, or TOML it prints)
    as conf/topics.toml, and generate again; say what happened."""
    topics = root / "conf" / "topics.toml"
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*.toml")}
    done = readinglist(root, "topics", "--suggest")
    if done.returncode:
        said = (done.stderr.strip().splitlines() or ["?"])[-1].removeprefix("readinglist: error: ")
        return f"not measured: readinglist topics --suggest failed: {said}"
    drafts = [p for p in root.rglob("*.toml") if p != topics and before.get(p) != p.stat().st_mtime_ns]
    if drafts:
        shutil.copyfile(drafts[0], topics)
    elif printed_topics(done.stdout):
        topics.write_text(done.stdout, encoding="utf-8")
    elif before.get(topics) == topics.stat().st_mtime_ns:
        return "not measured: readinglist topics --suggest wrote no draft"
    generated = readinglist(root, "generate")
    if generated.returncode:
        return f"not measured: generate failed with the suggested topics: {generated.stderr.strip()[-300:]}"
    return f"{(drafts[0] if drafts else topics).relative_to(root)} accepted as it is"


def printed_topics(text: str) -> bool:
    try:
        return bool(tomllib.loads(text).get("topic"))
    except tomllib.TOMLDecodeError:
        return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="a folder of bibliography files (.bib, .json, dumps)")
    parser.add_argument("--venues", default="auto", help="auto (data/venues.toml if present), builtin, or a path")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--sample", type=Path, help="write 30 links and 20 summaries of the held-out third to judge")
    parser.add_argument("--keep", action="store_true", help="keep the generated project and print its folder")
    args = parser.parse_args(argv)
    files, corpus_note = (corpus_files(args.corpus), str(args.corpus)) if args.corpus else default_corpus()
    if not files:
        sys.exit(f"quality: no .bib, .json or dump files in {corpus_note}")
    table = groundtruth.load_table(args.venues)
    declared = declared_fields(args.corpus or (SHARED if SHARED.is_dir() else None))
    folder = Path(tempfile.mkdtemp(prefix="readinglist-quality-"))
    try:
        run = make_project(folder / "project", files)
        results, run["suggested_topics"] = measure(folder / "project", table, declared)
        if args.sample:
            held_out = parts(collect(folder / "project", table, declared))["held_out"]
            args.sample.write_text(qualitysample.sample(held_out), encoding="utf-8")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    run["fields_toml"] = f"{len(declared)} files declared" if declared else "none (the ML/robotics/PL subset: by venue)"
    header = {"corpus": corpus_note, "venues": table.source + SAME_TABLE * table.shared, "commit": commit(), **run}
    print(qualitymetrics.report(header, results))
    if args.keep:
        print(f"project kept: {folder / 'project'}")
    if args.json:
        args.json.write_text(json.dumps({**header, "results": results}, indent=2) + "\n", encoding="utf-8")
        print(f"results: {args.json}")
    return 0


def commit() -> str:
    """The commit measured, and whether the tree differs from it (an editable install runs what is on disk)."""
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "src"], capture_output=True, text=True)
    return head.stdout.strip() + (" (src/ has uncommitted changes)" if dirty.stdout.strip() else "")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
