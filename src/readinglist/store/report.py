"""What ``readinglist import`` did (or, with --dry-run, would do): counts, then every decision.

The terminal shows at most ``SHOWN`` lines of each kind and says how to see the rest;
``lines(None)`` (``import --report``) lists everything, and ``json_lines`` (``--report FILE``)
is the same list, one JSON object per skipped entry, warning, merge and note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..model import Skip, SourceRef

SHOWN = 50  # lines of each kind listed on the terminal; the rest are counted
REPORT_HEADER = "readinglist import report"  # first line of a --report FILE: the tool's own file
MORE = "readinglist import --report lists them all; --report FILE writes them as JSON lines"


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 paper", "2 papers", "0 papers": the noun agrees with the count."""
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


@dataclass(frozen=True)
class Placed:
    """A source record that became an entry of its own, for a caller to read without parsing the
    report's words (``fetch/zotero_summary``): the key it was stored under, the key of the work it
    is a version of, and the key its source asked for when another was stored."""

    source: SourceRef
    key: str
    version_of: str = ""
    asked: str = ""


@dataclass(frozen=True)
class ImportReport:
    added: int
    merged: int
    unchanged: int
    written: bool  # refs.bib was written (with --dry-run or a failure: would have been)
    merges: tuple[str, ...] = ()  # "FILE:LINE into KEY (reason)"
    skipped: tuple[Skip, ...] = ()
    notes: tuple[str, ...] = ()  # versions linked, keys replaced
    placed: tuple[Placed, ...] = ()  # each new entry, listed by a dry run ("would add KEY from FILE:LINE")
    store: str = "refs.bib"
    dry_run: bool = False
    strict: bool = False
    warnings: tuple[Skip, ...] = ()  # entries imported all the same: undefined macro, renamed key, bad year
    unreadable: tuple[str, ...] = ()  # source files that had entries, none of which could be imported

    @property
    def additions(self) -> list[str]:
        return [f"{p.key} from {p.source.render()}" for p in self.placed]

    @property
    def failed(self) -> bool:
        """Exit 1, nothing written: --strict and an entry skipped or warned about, or a file of
        entries none of which could be imported."""
        return bool(self.unreadable) or (self.strict and bool(self.skipped or self.warnings))

    def __str__(self) -> str:
        return "\n".join(self.lines(SHOWN))

    def lines(self, shown: int | None = SHOWN) -> list[str]:
        """The summary line, then each kind of decision, at most ``shown`` lines of each (None: all)."""
        lines = [self.summary()]
        lines += _capped([f"merged {m}" for m in self.merges], ("merge", "merges"), shown)
        lines += _capped(list(self.notes), ("note", "notes"), shown)
        if self.dry_run or self.failed:
            lines += _capped([f"would add {a}" for a in self.additions], ("addition", "additions"), shown)
        lines += _capped([f"warning {s.render()}" for s in self.warnings], ("warning", "warnings"), shown)
        lines += _capped([f"skipped {s.render()}" for s in self.skipped], ("skipped entry", "skipped entries"), shown)
        return lines

    def summary(self) -> str:
        counts = f"{self.added} added, {self.merged} merged, {self.unchanged} unchanged, {len(self.skipped)} skipped"
        return f"{counts}{self._warned()} ({self._state()})"

    def json_lines(self) -> str:
        """Every decision, one JSON object a line, after a header line that marks the file as the tool's."""
        rows: list[dict[str, object]] = [{"report": REPORT_HEADER, "summary": self.summary()}]
        rows += [{"kind": "skipped", **_skip(s)} for s in self.skipped]
        rows += [{"kind": "warning", **_skip(s)} for s in self.warnings]
        rows += [{"kind": "merged", "text": m} for m in self.merges]
        rows += [{"kind": "note", "text": n} for n in self.notes]
        rows += [{"kind": "added", "text": a} for a in self.additions]
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    def _state(self) -> str:
        if self.unreadable:
            files = ", ".join(self.unreadable)
            return f"nothing could be imported from {files}; nothing written"
        if self.failed:
            return f"--strict: {len(self.skipped)} skipped{self._warned()}, nothing written"
        if self.dry_run:
            return f"dry run: {self.store} would be {'updated' if self.written else 'unchanged'}; nothing written"
        return f"{self.store} {'updated' if self.written else 'unchanged'}"

    def _warned(self) -> str:
        return f", {plural(len(self.warnings), 'warning')}" if self.warnings else ""


def _skip(skip: Skip) -> dict[str, object]:
    return {"file": skip.file, "line": skip.line, "key": skip.key, "reason": skip.reason}


def _capped(lines: list[str], what: tuple[str, str], shown: int | None) -> list[str]:
    if shown is None or len(lines) <= shown:
        return [f"  {line}" for line in lines]
    more = len(lines) - shown
    return [f"  {line}" for line in lines[:shown]] + [f"  ... and {more:,} more {what[more != 1]} ({MORE})"]
