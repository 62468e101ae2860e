"""``records.json`` (every paper as data, written by the generator): copied to the site's root,
and read once per build for the pages that show a record's data (``facets``, ``citemeta``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from ...writer import write_if_changed
from ..manifest import RECORDS
from .state import state


def by_page(app: Sphinx) -> dict[str, dict[str, Any]]:
    """The records by page name (``papers/SLUG``), parsed at the build's first look (0.15 s at
    10,000 works); none when there is no records.json (a plain Sphinx project) or it is not JSON."""
    kept = state(app)
    if kept.records is None:
        try:
            loaded = json.loads((Path(app.srcdir) / RECORDS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = []
        items = loaded if isinstance(loaded, list) else []
        kept.records = {str(r["url"]).removesuffix(".html"): r for r in items if isinstance(r, dict) and "url" in r}
    return kept.records


def _forget(app: Sphinx) -> None:
    state(app).records = None  # each build reads the records the generator has just written


def copy(app: Sphinx, exception: BaseException | None) -> None:
    source = Path(app.srcdir) / RECORDS
    if exception is None and app.builder.format == "html" and source.is_file():
        write_if_changed(Path(app.outdir) / RECORDS, source.read_text(encoding="utf-8"))


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _forget, priority=900)
    app.connect("build-finished", copy)
