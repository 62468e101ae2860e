"""What a result depends on (machine, versions) and what a built site contains."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import re
import statistics
from importlib.metadata import version
from pathlib import Path
from typing import Any

from measure import Step, size
from search import pagefind_bytes

WRITTEN = re.compile(r"(\d+) files written")  # "N papers: W files written" or "...: 0 files written"


def describe() -> dict[str, Any]:
    meminfo = Path("/proc/meminfo").read_text(encoding="ascii") if Path("/proc/meminfo").exists() else ""
    total_kb = re.search(r"MemTotal:\s+(\d+)", meminfo)
    return {
        "date": datetime.date.today().isoformat(),
        "cpus": os.cpu_count(),
        "memory_gib": round(int(total_kb.group(1)) / 2**20, 1) if total_kb else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        **{name: version(name) for name in ("sphinx", "myst-parser", "furo", "sphinx-readinglist")},
        "readinglist_source": source_digest(),
    }


def source_digest() -> str:
    """Where the measured readinglist comes from, and a digest of its files: results are for that code."""
    import readinglist

    package = Path(readinglist.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".j2", ".toml")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{package} sha256:{digest.hexdigest()[:16]}"


def files_written(step: Step) -> int | None:
    """The generator's count of files written, from the step's output."""
    match = WRITTEN.search(step.output)
    return int(match.group(1)) if match else None


def site_counts(site: Path) -> dict[str, Any]:
    pages = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    counts: dict[str, Any] = {
        "html_pages": len(pages),
        "html_bytes": size(site) - size(site / ".doctrees") - pagefind_bytes(site),
        "searchindex_bytes": size(site / "searchindex.js"),
    }
    records = site / "records.json"
    if records.exists():  # how many links each paper page lists (they drive the page size)
        links = [len(r["related"]) + len(r["versions"]) for r in json.loads(records.read_text(encoding="utf-8"))]
        counts["related_links"] = {"median": statistics.median(links), "max": max(links), "total": sum(links)}
    return counts
