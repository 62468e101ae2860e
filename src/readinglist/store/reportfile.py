"""``readinglist import --report FILE``: the whole report as JSON lines, in a file the tool owns.

The file is written atomically, and only over a file that is missing or is an earlier report
(its first line says so): a file a person wrote is never overwritten.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import Code, ReadingListError
from ..writer import write_if_changed
from .report import REPORT_HEADER, ImportReport


def write_report(path: Path, report: ImportReport) -> Path:
    """Write ``report`` to ``path``; the path written. Refused (one line) over a file not a report."""
    check_report_path(path)
    write_if_changed(path, report.json_lines(), durable=False)
    return path


def check_report_path(path: Path) -> None:
    """Refuse ``path`` unless it is missing or an earlier report: run before the import, so that
    ``import --report mine.bib`` (a source taken for the report's file) changes nothing."""
    if path.exists() and not _is_report(path):
        raise ReadingListError(
            "is not an import report of readinglist, so --report will not replace it (nothing imported); "
            "give a new file, or put a bare --report after the sources to list everything on the terminal",
            path,
            code=Code.NOT_OWNED,
        )


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            first = json.loads(file.readline(4096))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and first.get("report") == REPORT_HEADER
