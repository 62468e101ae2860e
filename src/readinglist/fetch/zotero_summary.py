"""What a Zotero sync did (or, dry, would do): the pull request's body and the terminal's report.

New papers, fields changed upstream, new versions, new notes and highlights, removed items and
citation keys that would change, each with its citation key. Record text goes in code spans, so
a title's ``@name`` or ``#12`` is no mention or link in the pull request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import RawRecord, Work
from ..sources.zotero_items import item_key_of
from ..store import fields
from ..store.records import to_work
from ..store.remove import Removal
from ..store.report import ImportReport, plural

IGNORED = frozenset({"provenance", "keywords"})  # provenance always differs; tags are merged, not replaced


@dataclass
class Summary:
    library: str
    requests_made: int = 0
    dry_run: bool = False
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    imported: list[str] = field(default_factory=list)  # the importer's own report
    written: list[str] = field(default_factory=list)
    failed: bool = False
    added: dict[str, str] = field(default_factory=dict)  # Zotero item key -> the citation key it was given

    @property
    def up_to_date(self) -> bool:
        return not self.imported

    def lines(self) -> list[str]:
        state = "dry run: nothing written" if self.dry_run else f"{len(self.written)} files written"
        if self.up_to_date:
            asked = plural(self.requests_made, "request")
            return [f"Zotero library {self.library} is up to date ({asked}, nothing written)"]
        lines = [f"Zotero sync of {self.library} ({plural(self.requests_made, 'request')}; {state})", ""]
        for title, items in (
            ("New papers", self.new),
            ("Changed upstream (refs.bib keeps its own values; fields it lacked are filled in)", self.changed),
            ("New versions", self.versions),
            ("New notes and highlights", self.children),
            ("Removed from the library or collection", self.removed),
            ("Citation keys that would change (refs.bib keeps the key it has)", self.keys),
        ):
            if items:
                lines += [f"### {title} ({len(items)})", "", *(f"- {item}" for item in items), ""]
        return [*lines, "### Import", "", *self.imported]

    def note_children(self, before: Mapping[str, Any], after: Mapping[str, Any], keys: Mapping[str, str]) -> None:
        """Items with notes or highlights they did not have before this sync (both by item key, as
        ``Children.items``; after ``note_import``, which names the new items' keys)."""
        for item, entry in sorted(after.items()):
            old = before.get(item, {})
            fresh = [len(set(entry.get(kind, {})) - set(old.get(kind, {}))) for kind in ("notes", "highlights")]
            said = [plural(n, what) for n, what in zip(fresh, ("new note", "new highlight"), strict=True) if n]
            if said:
                key = keys.get(item) or self.added.get(item) or item
                self.children.append(f"{_code(key)}: {', '.join(said)}")

    def note_changes(self, records: Sequence[RawRecord], keys: Mapping[str, str], stored: Mapping[str, Work]) -> None:
        """Items already in refs.bib whose fields changed upstream, and keys Better BibTeX renamed."""
        for record in records:
            item = item_key_of(record.source.file)
            key = keys.get(item, "")
            if key in stored:
                names = changed_fields(stored[key], record)
                if names:
                    self.changed.append(f"{_code(key)}: {', '.join(names)}")
                if record.key and record.key != key:
                    self.keys.append(f"{_code(key)} → {_code(record.key)} (Better BibTeX citation key changed)")

    def note_import(self, report: ImportReport, by_file: Mapping[str, RawRecord]) -> None:
        self.imported = report.lines(None)
        self.failed = report.failed
        for placed in report.placed:
            record = by_file.get(placed.source.file)
            if record is None:
                continue
            self.new.append(f"{_code(placed.key)}: {_code(record.title)}")
            self.added[item_key_of(placed.source.file)] = placed.key
            if placed.version_of:
                self.versions.append(f"{_code(record.title)} is a version of {_code(placed.version_of)}")
            if placed.asked:
                said = "the key asked for is taken or no valid BibTeX key"
                self.keys.append(f"{_code(placed.asked)} → {_code(placed.key)} ({said})")

    def note_removed(
        self, removed: Sequence[str], keys: Mapping[str, str], stored: Mapping[str, Work], pruned: Removal | str | None
    ) -> None:
        """Each removed item; ``pruned``: what ``--prune`` did (a ``Removal``), would do (its words,
        on a dry run), or None without it."""
        for item in removed:
            key = keys.get(item, item)
            title = stored[key].title if key in stored else ""
            self.removed.append(f"{_code(key)}: {_code(title)}, {_pruned(key, pruned)}")


def _pruned(key: str, pruned: Removal | str | None) -> str:
    if pruned is None:
        return "kept in refs.bib (--prune removes it)"
    if isinstance(pruned, str):
        return f"{pruned} (--prune)"
    if key in pruned.removed:
        return "removed (--prune)"
    if key in pruned.kept:
        return "kept: its entry in refs.bib holds another source too"
    return "not in refs.bib"


def changed_fields(old: Work, record: RawRecord) -> list[str]:
    """The BibTeX fields whose values the Zotero item now states otherwise than refs.bib."""
    new = to_work(record)
    names = [n for n in fields.changed_names(old, new) if n not in IGNORED]
    return sorted({n for n in names if _value(new, n) and _value(new, n) != _value(old, n)})


def _value(work: Work, name: str) -> str:
    extra = dict(work.extra)
    if name in extra:
        return extra[name]
    value = getattr(work, {"author": "authors"}.get(name, name), "")
    return ", ".join(value) if isinstance(value, tuple) else str(value or "")


def _code(text: str) -> str:
    """Text as an inline code span (no mention, link or markup in a pull request)."""
    text = " ".join(text.replace("`", "'").split())
    return f"`{text}`" if text else "(no title)"
