"""``readinglist import``: merge raw records into refs.bib, all or nothing.

Records that share an identity key become one work whose fields are the union of
theirs. A work already in refs.bib is matched by provenance or identity; its
hand edits are kept and only fields it lacks are filled in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from pybtex.database import Entry, Person

from .. import lock
from ..enrich.titles import working_title
from ..errors import ReadingListError
from ..latex import dump_to_latex, protect_title, to_text
from ..lock import Snapshot
from ..model import RawRecord, SourceRef, Work
from ..sources import read_dump
from ..writer import remove_temp_files, write_if_changed
from . import bibfile
from .identity import Matcher, Rules
from .keys import base_key, unique_key

SHOWN_MERGES = 50
ATTEMPTS = 5  # merges of a refs.bib that keeps changing under the import, before giving up


@dataclass(frozen=True)
class ImportReport:
    added: int
    merged: int
    unchanged: int
    written: bool
    merges: tuple[str, ...] = ()

    def __str__(self) -> str:
        state = "refs.bib updated" if self.written else "refs.bib unchanged"
        lines = [f"{self.added} added, {self.merged} merged, {self.unchanged} unchanged ({state})"]
        lines += [f"  merged {m}" for m in self.merges[:SHOWN_MERGES]]
        if len(self.merges) > SHOWN_MERGES:
            lines.append(f"  ... and {len(self.merges) - SHOWN_MERGES} more merges (see the provenance fields)")
        return "\n".join(lines)


def run(sources: Iterable[Path], bib_path: Path, root: Path, rules: Rules | None = None) -> ImportReport:
    """Parse every source first (all or nothing), then merge into refs.bib and write it once.

    The read-merge-write of refs.bib holds the store's lock, so two imports take turns instead of
    one dropping the other's entries. An editor takes no lock: if refs.bib changes between the
    read and the write, the merge starts again from the new file.
    """
    records = [r for path in sources for r in read_dump(path, _label(path, root))]
    bib_path.parent.mkdir(parents=True, exist_ok=True)
    with lock.exclusive(bib_path, "import"):
        # Under the lock no other import is writing, so any temporary file is a killed one's.
        remove_temp_files(bib_path.parent, {bib_path.name})
        for _ in range(ATTEMPTS):
            try:
                return _merge_into(records, bib_path, rules or Rules())
            except _ChangedWhileMerging:
                continue
    raise ReadingListError(
        f"changed {ATTEMPTS} times while the import merged into it; nothing written, run the import again",
        bib_path,
    )


class _ChangedWhileMerging(Exception):
    """refs.bib no longer holds the bytes the merge started from (someone saved it meanwhile)."""


def _merge_into(records: list[RawRecord], bib_path: Path, rules: Rules) -> ImportReport:
    # The snapshot comes first: if the file changes before the load, the load sees the new bytes
    # and the snapshot the old, so the check before the write errs towards merging again.
    before = _snapshot(bib_path)
    store = bibfile.load(bib_path)
    stored = dict(zip(store.entries, store.works(), strict=True))
    matcher = Matcher(rules)
    for work in stored.values():
        matcher.add(work)
    counts, merges = _merge_all(records, matcher)
    written = _write(store, stored, matcher, before)
    return ImportReport(counts["added"], counts["merged"], counts["unchanged"], written, tuple(merges))


def _snapshot(path: Path) -> Snapshot | None:
    try:
        return Snapshot.of(path)
    except OSError as exc:
        raise bibfile.unreadable(path, exc) from None


def _unchanged(path: Path, before: Snapshot | None) -> None:
    try:
        same = Snapshot.unchanged(path, before)
    except OSError as exc:
        raise bibfile.unreadable(path, exc) from None
    if not same:
        raise _ChangedWhileMerging


def _merge_all(records: list[RawRecord], matcher: Matcher) -> tuple[dict[str, int], list[str]]:
    """Fold every record into the matcher's works; count what each record did."""
    counts = {"added": 0, "merged": 0, "unchanged": 0}
    merges: list[str] = []
    incoming = [_to_work(record) for record in records]
    by_line = {(w.sources[0].file, w.sources[0].line): w for w in incoming}
    for record, work in zip(records, incoming, strict=True):
        found = matcher.find(work)
        if found is None:
            matcher.add(replace(work, key=f"new:{counts['added']}"))
            counts["added"] += 1
            continue
        match, why = found
        base = _moved(match, record.source, by_line, matcher)
        merged = merge(base, replace(work, sources=(replace(record.source, why=why),)))
        outcome = "unchanged" if merged == base else "merged"
        counts[outcome] += 1
        if outcome == "merged":
            merges.append(f"{record.source.render()} into {_name(match)} ({why})")
        if merged != match:
            matcher.add(merged)
    return counts, merges


def _moved(work: Work, source: SourceRef, by_line: dict[tuple[str, int], Work], matcher: Matcher) -> Work:
    """``work`` with its line in ``source``'s file moved to ``source``'s, if its old line is stale.

    A dump that gains a record above others shifts their lines. An old line is stale when this
    import finds no record of the same work on it; then the work's record has moved.
    """
    if source in work.sources:
        return work
    for old in work.sources:
        if old.file == source.file and not _holds(by_line.get((old.file, old.line)), work, matcher):
            moved = replace(old, line=source.line)
            return replace(work, sources=tuple(moved if s == old else s for s in work.sources))
    return work


def _holds(record: Work | None, work: Work, matcher: Matcher) -> bool:
    return record is not None and matcher.alike(record, work)


def _write(store: bibfile.BibFile, stored: dict[str, Work], matcher: Matcher, before: Snapshot | None) -> bool:
    """Re-serialize only changed entries, append new ones; write only if the bytes differ."""
    replaced = {
        key: _update_entry(store.entries[key], old, matcher.works[key])
        for key, old in stored.items()
        if matcher.works[key] != old
    }
    added = _with_keys([w for k, w in matcher.works.items() if k not in stored], set(stored))
    text = store.render(replaced, added) if (replaced or added) else store.text
    if text == store.text and store.path.exists():
        return False
    return write_if_changed(store.path, text, check=lambda: _unchanged(store.path, before))


def _name(work: Work) -> str:
    return work.key if not work.key.startswith("new:") else f"the new record from {work.sources[0].render()}"


def _with_keys(works: list[Work], existing: set[str]) -> list[tuple[str, Entry]]:
    """Keys are chosen once a new work has all its merged fields, and never change after."""
    added = []
    taken = {k.lower() for k in existing}
    for work in works:
        key = unique_key(base_key(_first_author(work), work.year, work.title), taken)
        taken.add(key.lower())
        added.append((key, bibfile.work_to_entry(replace(work, key=key))))
    return added


def _label(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _first_author(work: Work) -> str:
    if work.authors:
        return work.authors[0]
    return work.sources[0].owner if work.sources else ""


def _to_work(record: RawRecord) -> Work:
    abstract = dump_to_latex(record.abstract)
    title = dump_to_latex(record.title)
    inferred = not title
    if inferred:
        title = working_title(abstract) or "Untitled record"
    authors = tuple(name for name in map(bib_name, record.authors) if to_text(name).strip())
    et_al = record.et_al
    if not authors and record.source.owner:
        # The profile attributes the record to its owner; the rest are unknown.
        authors, et_al = (record.source.owner,), True
    return Work(
        key="",
        title=protect_title(title),
        title_inferred=inferred,
        authors=authors,
        et_al=et_al,
        year=record.year,
        abstract=abstract,
        categories=record.categories,
        sources=(record.source,),
    )


def bib_name(name: str) -> str:
    """A name as BibTeX stores it; one with a comma or a lone "and" is braced whole, so it stays one name."""
    latex = " ".join(dump_to_latex(name).split())
    if "," in latex or re.search(r"\band\b", latex, re.I) or not latex:
        return "{" + latex + "}"
    return latex


def merge(base: Work, new: Work) -> Work:
    """Fill what ``base`` lacks from ``new``; never overwrite a value ``base`` has."""
    take_title = base.title_inferred and not new.title_inferred
    take_authors = _only_owners(base) and not _only_owners(new)
    sources = base.sources + tuple(s for s in new.sources if s not in base.sources)
    return replace(
        base,
        title=new.title if take_title else base.title,
        title_inferred=base.title_inferred and not take_title,
        authors=new.authors if take_authors else base.authors,
        et_al=new.et_al if take_authors else base.et_al,
        year=base.year or new.year,
        abstract=base.abstract or new.abstract,
        categories=base.categories or new.categories,
        sources=sources,
    )


def _only_owners(work: Work) -> bool:
    owners = {s.owner for s in work.sources}
    return not work.authors or (set(work.authors) <= owners and work.et_al)


def _update_entry(entry: Entry, old: Work, new: Work) -> Entry:
    """Apply to the parsed entry only the values that changed, so hand edits stay as written."""
    fresh = bibfile.work_to_entry(new).fields
    fields = dict(entry.fields)
    changed = {
        ("title", "inferredtitle"): new.title != old.title or new.title_inferred != old.title_inferred,
        ("year",): new.year != old.year,
        ("abstract",): new.abstract != old.abstract,
        ("keywords", "archiveprefix", "primaryclass"): new.categories != old.categories,
        ("provenance",): new.sources != old.sources,
    }
    for names, differs in changed.items():
        for name in names if differs else ():
            fields.pop(name, None)
            if name in fresh:
                fields[name] = fresh[name]
    persons = dict(entry.persons)
    if (new.authors, new.et_al) != (old.authors, old.et_al):
        persons["author"] = [Person(n) for n in new.authors] + ([Person("others")] if new.et_al else [])
    return Entry(entry.type, fields=fields, persons=persons)
