"""``records.json`` (every paper as data, written by the generator) copied to the site's root."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from ...writer import write_if_changed
from ..manifest import RECORDS


def copy(app: Sphinx, exception: BaseException | None) -> None:
    source = Path(app.srcdir) / RECORDS
    if exception is None and app.builder.format == "html" and source.is_file():
        write_if_changed(Path(app.outdir) / RECORDS, source.read_text(encoding="utf-8"))


def setup(app: Sphinx) -> None:
    app.connect("build-finished", copy)
