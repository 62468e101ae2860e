"""``records.json`` (every paper as data, written by the generator): copied to the site's root,
and read for the pages that show a record's data (``facets``, ``citemeta``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from ...writer import write_bytes_if_changed
from ..manifest import RECORDS
from .state import state

URL_FIRST = '{"url": "'  # how each line of records.json begins (site/records.records_json)


def record(app: Sphinx, page: str) -> dict[str, Any] | None:
    """The record of page ``page`` (``papers/SLUG``); None when records.json (a plain Sphinx
    project has none) holds no valid one for it.

    records.json has one record a line, each beginning with its url (``site/records.py``): a
    page's line is found by that beginning, and only it is parsed. Parsing all 10,000 records
    took 0.19 s of a status change, which writes a single paper page."""
    line = _lines(app).get(page)
    try:
        found = json.loads(line.rstrip().removesuffix(",")) if line else None
    except ValueError:
        return None
    return found if isinstance(found, dict) and found.get("url") == f"{page}.html" else None


def _lines(app: Sphinx) -> dict[str, str]:
    """records.json's lines by the page name their url begins with, read once a build."""
    kept = state(app)
    if kept.records is None:
        try:
            text = (Path(app.srcdir) / RECORDS).read_text(encoding="utf-8")
        except (OSError, ValueError):
            text = ""
        start = len(URL_FIRST)
        kept.records = {
            line[start : line.find('"', start)].removesuffix(".html"): line
            for line in text.splitlines()
            if line.startswith(URL_FIRST)
        }
    return kept.records


def _forget(app: Sphinx) -> None:
    state(app).records = None  # each build reads the records the generator has just written


def copy(app: Sphinx, exception: BaseException | None) -> None:
    source = Path(app.srcdir) / RECORDS
    if exception is None and app.builder.format == "html" and source.is_file():
        # Bytes, not text: decoding 20 MB at 10,000 works cost a tenth of a second, for a copy.
        write_bytes_if_changed(Path(app.outdir) / RECORDS, source.read_bytes(), durable=False)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _forget, priority=900)
    app.connect("build-finished", copy)
