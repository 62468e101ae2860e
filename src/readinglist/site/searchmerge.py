"""The files that merge the shards of the search index in the browser: ``pagefind-merged/``.

``pagefind.js`` (from ``templates/pagefind-merged.js``) is Pagefind's API over every shard;
``sort.json`` gives each paper its rank by each sort key across the whole site, which merged
Pagefind indexes do not know (each sorts its own results only). No Sphinx imports here.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..writer import write_if_changed
from .shards import SITE, Shard

FOLDER = "pagefind-merged"
TEMPLATE = files("readinglist.site").joinpath("templates/pagefind-merged.js")  # package data (pyproject.toml)
SORT = re.compile(r'<data data-pagefind-sort="(\w+)\[value\]" value="([^"]*)"></data>')
Values = dict[str, dict[str, str]]  # Pagefind's page id -> {sort key: value}


def sort_values(site: Path, shard: Shard, pages: Path | None = None) -> Values:
    """Each indexed page's sort values, from the HTML Pagefind read (Pagefind's fragments do not
    keep them): ``pages``, the folder of the pages' cut copies (which keep them), else the site."""
    values: Values = {}
    for fragment in (site / shard.bundle / "fragment").glob("*.pf_fragment"):
        data = gzip.decompress(fragment.read_bytes())
        url = str(json.loads(data[data.index(b"{") :])["url"]).lstrip("/")
        page = (pages or site) / (url + "index.html" if url.endswith("/") or not url else url)
        found = {key: html.unescape(value) for key, value in SORT.findall(page.read_text(encoding="utf-8"))}
        if found:
            values[fragment.name.removesuffix(".pf_fragment")] = found
    return values


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def ranks(values: Values) -> dict[str, Any]:
    """{"ids": [...], "ranks": {key: [index in ids, in ascending order]}}. As Pagefind sorts: by
    number if every value of the key is one, else by the string (code point order)."""
    ids = sorted(values)
    keys = sorted({key for found in values.values() for key in found})
    table: dict[str, list[int]] = {}
    for key in keys:
        pages = [(values[i][key], n) for n, i in enumerate(ids) if key in values[i]]
        numbers = [_number(value) for value, _ in pages]
        if all(number is not None for number in numbers):
            order = sorted(zip(numbers, (n for _, n in pages), strict=True))
            table[key] = [n for _, n in order]
        else:
            table[key] = [n for _, n in sorted(pages)]
    return {"ids": ids, "ranks": table}


def write(site: Path, shards: list[Shard], values: Values) -> None:
    """The merged API naming the paper shards' bundles, and the site-wide sort ranks."""
    bundles = [f"../{s.bundle}/" for s in shards if s.key != SITE]  # the site shard's is the module's own
    script = TEMPLATE.read_text(encoding="utf-8").replace('"@BUNDLES@"', json.dumps(bundles))
    write_if_changed(site / FOLDER / "pagefind.js", script)
    write_if_changed(site / FOLDER / "sort.json", json.dumps(ranks(values), separators=(",", ":")) + "\n")
