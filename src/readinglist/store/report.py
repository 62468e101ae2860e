"""What ``readinglist import`` did (or, with --dry-run, would do): counts, then every decision."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Skip

SHOWN = 50  # lines of each kind listed in full; the rest are counted


@dataclass(frozen=True)
class ImportReport:
    added: int
    merged: int
    unchanged: int
    written: bool  # refs.bib was written (with --dry-run or a --strict failure: would have been)
    merges: tuple[str, ...] = ()  # "FILE:LINE into KEY (reason)"
    skipped: tuple[Skip, ...] = ()
    notes: tuple[str, ...] = ()  # versions linked, keys replaced
    additions: tuple[str, ...] = ()  # "KEY from FILE:LINE", listed by a dry run
    store: str = "refs.bib"
    dry_run: bool = False
    strict: bool = False

    @property
    def failed(self) -> bool:
        """--strict and something was skipped: exit 1, nothing written."""
        return self.strict and bool(self.skipped)

    def __str__(self) -> str:
        counts = f"{self.added} added, {self.merged} merged, {self.unchanged} unchanged, {len(self.skipped)} skipped"
        lines = [f"{counts} ({self._state()})"]
        lines += _capped([f"merged {m}" for m in self.merges], "merges (see the provenance fields)")
        lines += _capped(list(self.notes), "notes")
        if self.dry_run or self.failed:
            lines += _capped([f"would add {a}" for a in self.additions], "additions")
        lines += _capped([f"skipped {s.render()}" for s in self.skipped], "skipped entries")
        return "\n".join(lines)

    def _state(self) -> str:
        if self.failed:
            return f"--strict: {len(self.skipped)} skipped, nothing written"
        if self.dry_run:
            return f"dry run: {self.store} would be {'updated' if self.written else 'unchanged'}; nothing written"
        return f"{self.store} {'updated' if self.written else 'unchanged'}"


def _capped(lines: list[str], what: str) -> list[str]:
    shown = [f"  {line}" for line in lines[:SHOWN]]
    if len(lines) > SHOWN:
        shown.append(f"  ... and {len(lines) - SHOWN} more {what}")
    return shown
