"""The results as a markdown table (metric, readinglist, floor, ratio) and as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

Row = tuple[str, Any, Any]  # metric, readinglist's value, the floor's value (None: no floor)


def fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def ratio(themed: Any, floor: Any) -> str:
    numbers = isinstance(themed, int | float) and isinstance(floor, int | float)
    return f"{themed / floor:.2f}x" if numbers and floor else "—"


def table(rows: list[Row]) -> str:
    lines = ["| metric | readinglist | floor | ratio |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {m} | {fmt(t)} | {fmt(f)} | {ratio(t, f)} |" for m, t, f in rows]
    return "\n".join(lines)


def mb(n_bytes: int) -> float:
    return n_bytes / 1e6


def rows_of(results: dict[str, Any]) -> list[Row]:
    """The table's rows, in pipeline order, from the JSON results."""
    s, f, c = results["steps"], results.get("floor", {}), results["counts"]
    rows: list[Row] = [
        ("works (paper pages)", c["papers"], f.get("pages")),
        ("author pages", c["author_pages"], None),
        ("import: time (s)", s["import"]["seconds"], None),
        ("import: peak RSS (MB)", s["import"]["peak_rss_mb"], None),
        ("generate, first run: time (s)", s["generate"]["seconds"], None),
        ("generate, first run: peak RSS (MB)", s["generate"]["peak_rss_mb"], None),
        ("generate, first run: files written", c["generate_written"], None),
        ("generate, second run: time (s)", s["generate_again"]["seconds"], None),
        ("generate, second run: files written", c["generate_again_written"], None),
    ]
    for key, label in (("build", "full build -j 1"), ("build_j3", "full build -j 3")):
        if key in s:
            rows += [
                (f"{label}: time (s)", s[key]["seconds"], f.get(key, {}).get("seconds")),
                (f"{label}: peak RSS, largest process (MB)", s[key]["peak_rss_mb"], f.get(key, {}).get("peak_rss_mb")),
                (f"{label}: peak PSS, process tree (MB)", s[key]["tree_pss_mb"], f.get(key, {}).get("tree_pss_mb")),
            ]
    rows += [
        ("HTML output (MB)", mb(c["html_bytes"]), mb(f["html_bytes"]) if f else None),
        ("searchindex.js (MB)", mb(c["searchindex_bytes"]), mb(f["searchindex_bytes"]) if f else None),
        ("HTML pages", c["html_pages"], f.get("html_pages")),
    ]
    rows += _rebuild_rows(s, c) + _search_rows(results.get("search", {}))
    return rows


REBUILDS = (
    ("noop", "no-op rebuild"),
    ("note", "rebuild after editing a note's body"),
    ("frontmatter", "rebuild after changing a note's status"),
    ("new_note", "rebuild after creating a note"),
    ("delete_note", "rebuild after deleting a note"),
)


def _rebuild_rows(s: dict[str, Any], c: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key, label in REBUILDS:
        if key not in s:  # results from before a kind of rebuild was measured
            continue
        step = s[key]
        rows.append((f"{label}: time (s) / CPU (s)", f"{fmt(step['seconds'])} / {fmt(step['cpu_seconds'])}", None))
        counts = f"{c[f'{key}_written']} / {c[f'{key}_reread']}"
        rows.append((f"{label}: files generated / documents re-read", counts, None))
    return [
        *rows,
        ("add one paper: import time (s)", s["add_import"]["seconds"], None),
        ("add one paper: rebuild time (s)", s["add"]["seconds"], None),
        ("add one paper: generated files rewritten", c["add_written"], None),
        ("add one paper: documents re-read", c["add_reread"], None),
        ("add one paper: HTML pages rewritten", c["add_html_written"], None),
    ]


def _search_rows(search: dict[str, Any]) -> list[Row]:
    if not search:
        return []
    rows: list[Row] = [
        ("Pagefind: index time (s)", search["pagefind_seconds"], None),
        ("Pagefind: peak memory (MB)", search["pagefind_peak_rss_mb"], None),
        ("Pagefind: index size (MB)", mb(search["pagefind_bytes"]), None),
        ("one query, Sphinx search: KB fetched (searchindex.js)", search["sphinx_query_bytes"] / 1e3, None),
        ("one query, Pagefind: KB fetched (estimate)", search["pagefind_query_bytes"] / 1e3, None),
    ]
    for engine, browser in search.get("browser", {}).items():
        if engine == "error":
            continue
        rows.append((f"one query, {engine}, in Chromium: KB fetched / requests",
                     f"{browser['bytes'] / 1e3:,.0f} / {browser['requests']}", None))  # fmt: skip
    return rows


def write_json(results: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
