"""``readinglist import``: merge source records into refs.bib, all or nothing.

Records that share an identity key become one work whose fields are the union of
theirs. A work already in refs.bib is matched by provenance or identity; its
hand edits are kept and only fields it lacks are filled in. Another version of a
work (the same title, another year or DOI) is added and linked to it (``related``)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pybtex.database import Entry, Person

from .. import lock
from ..errors import Code, ReadingListError
from ..memory import allocating
from ..model import RawRecord, ReadResult, Skip, SourceRef, Work
from ..sources import read_source, warned
from ..sources.bounds import bounded
from ..writer import remove_temp_files, write_bytes_if_changed, write_if_changed
from . import access, bibfile, busy, fields, provenance, storefile
from .identity import Matcher, Rules
from .records import abstract_of, choose_key, to_work, with_related
from .report import ImportReport, Placed

ATTEMPTS = 5  # merges of a refs.bib that keeps changing under the import, before giving up
PROGRESS_FROM = 500  # records: a bigger import shows a progress bar (on a terminal)


def run(
    paths: Iterable[Path],
    bib_path: Path,
    root: Path,
    rules: Rules | None = None,
    *,
    dry_run: bool = False,
    strict: bool = False,
) -> ImportReport:
    """Parse every source first (all or nothing), then merge into refs.bib and write it once.

    The read-merge-write of refs.bib holds the store's lock, so two imports take turns instead of
    one dropping the other's entries. An editor takes no lock: if refs.bib changes between the
    read and the write, the merge starts again from the new file. ``dry_run`` (and ``strict`` when
    an entry was skipped or warned about, and a source none of whose entries could be read) does
    all of it but the write.
    """
    paths = list(paths)
    _refuse_store_as_source(paths, bib_path)
    # Reading allocates as the merge does (a tenth of its time went to the collector); one span
    # for both, as a collection between them walked every record read.
    with allocating():
        labels = [_label(path, root) for path in paths]
        results = [_read(path, label) for path, label in zip(paths, labels, strict=True)]
        records = [r for result in results for r in result.records]
        skipped = tuple(s for result in results for s in result.skipped)
        unreadable = tuple(label for label, result in zip(labels, results, strict=True) if _nothing_read(result))
        return run_records(
            records, bib_path, rules, dry_run=dry_run, strict=strict, skipped=skipped, root=root, unreadable=unreadable
        )


def _nothing_read(result: ReadResult) -> bool:
    """A file that had entries, none of which could be imported: the import fails (exit 1)."""
    return not result.records and bool(warned.split(result.skipped)[0])


def run_records(
    records: Sequence[RawRecord],
    bib_path: Path,
    rules: Rules | None = None,
    *,
    dry_run: bool = False,
    strict: bool = False,
    skipped: tuple[Skip, ...] = (),
    root: Path | None = None,
    unreadable: tuple[str, ...] = (),
) -> ImportReport:
    """Merge records already read (``readinglist add`` fetches them) into refs.bib, as ``run`` does.

    ``root`` is the project folder (default: the store's): stored provenance outside it is cleaned
    to the file name. ``unreadable`` names sources none of whose entries could be read: nothing is written.
    """
    # The one input policy for every way in: a fetched record past the bounds is skipped as a read one is.
    checked = bounded(ReadResult(tuple(records), ()))
    records = checked.records
    skipped, warnings = warned.split(skipped + checked.skipped)
    fails = bool(unreadable) or (strict and bool(skipped or warnings))
    options = _Options(
        rules or Rules(), dry_run or fails, skipped, dry_run, strict, warnings, unreadable,
        (root or bib_path.parent).resolve(),
    )  # fmt: skip
    if options.write:
        bib_path.parent.mkdir(parents=True, exist_ok=True)
    return _locked(list(records), bib_path, options)


def _refuse_store_as_source(paths: Sequence[Path], bib_path: Path) -> None:
    """``import --bib mine.bib`` once wrote the profiles into the user's own file: never a source as the store."""
    for path in paths:
        if path.resolve() == bib_path.resolve():
            raise ReadingListError(
                "is both a source to import and the store to write into; the store is refs.bib "
                "(--store picks another), your own .bib files are sources",
                path,
                code=Code.BAD_SOURCES,
            )


@dataclass(frozen=True)
class _Options:
    rules: Rules
    no_write: bool
    skipped: tuple[Skip, ...]
    dry_run: bool
    strict: bool
    warnings: tuple[Skip, ...] = ()
    unreadable: tuple[str, ...] = ()
    root: Path = Path()

    @property
    def write(self) -> bool:
        return not self.no_write


def _locked(records: list[RawRecord], bib_path: Path, options: _Options) -> ImportReport:
    with allocating():  # the merge keeps what it allocates (readinglist.memory)
        return _locked_merge(records, bib_path, options)


def _locked_merge(records: list[RawRecord], bib_path: Path, options: _Options) -> ImportReport:
    if not bib_path.parent.is_dir():  # a dry run into a folder that does not exist yet: nothing to lock
        return _merge_into(records, bib_path, options)
    with lock.exclusive(bib_path, "import"):
        # Under the lock no other import is writing, so any temporary file is a killed one's.
        remove_temp_files(bib_path.parent, {bib_path.name})
        if options.write:
            access.check_replaceable(bib_path)
        for _ in range(ATTEMPTS):
            try:
                return _merge_into(records, bib_path, options)
            except _ChangedWhileMerging:
                continue
    raise ReadingListError(
        f"changed {ATTEMPTS} times while the import merged into it; nothing written, run the import again",
        bib_path,
        code=Code.STORE_CHANGED,
    )


class _ChangedWhileMerging(Exception):
    """refs.bib no longer holds the bytes the merge started from (someone saved it meanwhile)."""


def _merge_into(records: list[RawRecord], bib_path: Path, options: _Options) -> ImportReport:
    opened = _open_store(bib_path, options)
    try:
        return _merge_opened(records, bib_path, opened, options)
    finally:
        if opened is not None:
            opened.close()


def _merge_opened(
    records: list[RawRecord], bib_path: Path, opened: storefile.Opened | None, options: _Options
) -> ImportReport:
    # strict: a refs.bib the import cannot fully read is never rewritten
    store = bibfile.parse(bib_path, opened.data) if opened is not None else bibfile.BibFile(bib_path)
    stored = {work.key: work for work in store.works()}
    matcher = Matcher(options.rules)
    matcher.expect([*(work.abstract for work in stored.values()), *map(abstract_of, records)])
    for work in stored.values():
        matcher.add(provenance.private_free(work, options.root))  # an absolute path stored before is cleaned
    outcome = _merge_all(records, matcher)
    text, notes, placed = _render(store, stored, matcher, outcome)
    written = text != store.text or not store.path.exists()
    if written and options.write:
        written = _replace(store.path, store.on_disk(text), opened)
    counts = outcome.counts
    return ImportReport(
        counts["added"], counts["merged"], counts["unchanged"], written, tuple(outcome.merges),
        options.skipped, tuple(outcome.notes + matcher.suspects + notes), tuple(placed), bib_path.name,
        options.dry_run, options.strict, options.warnings, options.unreadable,
    )  # fmt: skip


def _open_store(path: Path, options: _Options) -> storefile.Opened | None:
    """refs.bib opened and read once no one else writes it, or the one-line refusal if someone still does."""
    held = busy.wait_closed(path).held
    if held and options.write:
        raise busy.busy_error(path, held)
    busy.settle(path)
    return storefile.open_store(path)


def _replace(path: Path, text: str, opened: storefile.Opened | None) -> bool:
    """Write ``text`` over ``path`` if it still holds what was read; then make sure the file it
    replaced was not written after the check (else put those bytes back and merge again)."""
    written = write_if_changed(path, text, check=lambda: _ready_to_replace(path, opened), keep_owner=True)
    if written and opened is not None:
        # A writer that opened the file after the check still writes into the replaced file.
        busy.wait_closed(Path(f"/proc/self/fd/{opened.fd}"), name=path.name)
        replaced = opened.now()
        if replaced != opened.data:
            write_bytes_if_changed(path, replaced, keep_owner=True)
            raise _ChangedWhileMerging
    return written


def _ready_to_replace(path: Path, opened: storefile.Opened | None) -> None:
    """Raise unless ``path`` is the file that was read, with the bytes read, and no one writes it.

    Runs right before the rename. A writer that appears here is waited for; the file then
    probably changed, so the merge starts again from it.
    """
    waited = busy.wait_closed(path)
    if waited.held:
        raise busy.busy_error(path, waited.held)
    now = storefile.snapshot_of(path)
    was = None if opened is None else (opened.info.st_dev, opened.info.st_ino, opened.snapshot)
    if waited.waited or now != was:
        raise _ChangedWhileMerging


@dataclass
class _Outcome:
    """What the records did to the matcher's works, and what the report says about it."""

    counts: dict[str, int] = field(default_factory=lambda: {"added": 0, "merged": 0, "unchanged": 0})
    merges: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wanted: dict[str, RawRecord] = field(default_factory=dict)  # a new work's index key -> its first record
    versions: dict[str, str] = field(default_factory=dict)  # a new work's index key -> the key it is a version of

    def add(self, matcher: Matcher, work: Work, record: RawRecord) -> str:
        key = f"new:{self.counts['added']}"
        matcher.add(replace(work, key=key), _names(record))
        self.wanted[key] = record
        self.counts["added"] += 1
        return key


def _merge_all(records: list[RawRecord], matcher: Matcher) -> _Outcome:
    """Fold every record into the matcher's works; count what each record did."""
    outcome = _Outcome()
    incoming = [to_work(record) for record in records]
    by_line = {(w.sources[0].file, w.sources[0].line): w for w in incoming}
    with _progress(len(records)) as advance:
        for record, work in zip(records, incoming, strict=True):
            _merge_one(record, work, matcher, by_line, outcome)
            advance()
    return outcome


def _merge_one(
    record: RawRecord, work: Work, matcher: Matcher, by_line: dict[tuple[str, int], Work], outcome: _Outcome
) -> None:
    found = matcher.find(work, _names(record))
    if found is None:
        outcome.add(matcher, work, record)
        return
    if found.version:
        outcome.versions[outcome.add(matcher, with_related(work, found.work.key), record)] = found.work.key
        outcome.notes.append(f"linked {record.source.render()} as a version of {_name(found.work)} ({found.reason})")
        return
    base = _moved(found.work, record.source, by_line, matcher)
    merged = merge(base, replace(work, sources=(replace(record.source, why=found.reason),)))
    result = "unchanged" if merged == base else "merged"
    outcome.counts[result] += 1
    if result == "merged":
        outcome.merges.append(f"{record.source.render()} into {_name(found.work)} ({found.reason})")
    if merged != found.work:
        matcher.add(merged)


def _names(record: RawRecord) -> frozenset[str]:
    """The record's own key names it in conf/identity.toml too."""
    return frozenset({record.key}) if record.key else frozenset()


BIG_FILE = 256 * 1024  # bytes: a source this big takes a second or more to read


def _read(path: Path, label: str) -> ReadResult:
    """Read one source, saying so on a terminal while a big one is read (the merge has its own bar)."""
    try:
        big = path.stat().st_size >= BIG_FILE and sys.stderr.isatty()
    except OSError:
        big = False  # read_source reports it, as one line
    if not big:
        return read_source(path, label)
    from rich.console import Console

    with Console(stderr=True).status(f"reading {label}"):
        return read_source(path, label)


@contextmanager
def _progress(total: int) -> Iterator[Any]:
    """A progress bar on stderr for a big import, when stderr is a terminal; otherwise nothing."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("merging records", total=total)
        yield lambda: bar.advance(task)


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


def _render(
    store: bibfile.BibFile, stored: dict[str, Work], matcher: Matcher, outcome: _Outcome
) -> tuple[str, list[str], list[Placed]]:
    """The new refs.bib text: changed entries updated, new ones appended; the key notes; the additions."""
    replaced: dict[str, Entry] = {}
    grown: dict[str, list[tuple[str, str]]] = {}
    for key, old in stored.items():
        new = matcher.works[key]
        if new != old:
            more = _only_new_fields(store.entries[key], old, new)
            if more is None:
                replaced[key] = _update_entry(store.entries[key], old, new)
            else:
                grown[key] = more
    added, notes = _with_keys([w for k, w in matcher.works.items() if k not in stored], set(store.entries), outcome)
    final = {index_key: work.key for index_key, work in added}
    placed = [_placed(index_key, work.key, outcome, final) for index_key, work in added]
    changed = replaced or added or grown
    text = store.to_bibtex(replaced, [(work.key, work) for _, work in added], grown) if changed else store.text
    return text, notes, placed


def _placed(index_key: str, key: str, outcome: _Outcome, final: dict[str, str]) -> Placed:
    """A new work's entry; a version of another new work names it by its final key."""
    record = outcome.wanted[index_key]
    of = outcome.versions.get(index_key, "")
    asked = record.key if record.key and record.key != key else ""
    return Placed(record.source, key, final.get(of, of), asked)


def _only_new_fields(entry: Entry, old: Work, new: Work) -> list[tuple[str, str]] | None:
    """The fields a merge adds to an entry that had none of them, as (name, value); None if it
    changes one the entry has (or its type): then the entry is written anew.

    Added at the end of the entry's own text, the rest of it keeps its bytes (macros such as
    ``month = jan`` and the user's layout), where a re-serialized entry lost them.
    """
    names = [name.lower() for name in fields.changed_names(old, new)]
    present = {k.lower() for k in entry.fields} | {k.lower() for k in entry.persons}
    if new.entry_type != old.entry_type or any(name in present for name in names):
        return None
    fresh = {k.lower(): v for k, v in bibfile.work_to_entry(new).fields.items()}
    people = [bibfile.name_as_stored(n) for n in new.authors] + (["others"] if new.et_al else [])
    fresh["author"] = " and ".join(people)
    return [(name, fresh[name]) for name in dict.fromkeys(names) if fresh.get(name)]


def _name(work: Work) -> str:
    return work.key if not work.key.startswith("new:") else f"the new record from {work.sources[0].render()}"


def _with_keys(works: list[Work], existing: set[str], outcome: _Outcome) -> tuple[list[tuple[str, Work]], list[str]]:
    """Keys are chosen once a new work has all its merged fields, and never change after.

    A version linked to another new work names it by its final key.
    """
    taken = {k.lower() for k in existing}
    final: dict[str, str] = {}
    notes = []
    for work in works:
        record = outcome.wanted[work.key]
        final[work.key], note = choose_key(record.key, work, taken)
        taken.add(final[work.key].lower())
        notes += [f"{record.source.render()}: {note}"] if note else []
    added = []
    for work in works:
        extra = tuple((k, final.get(v, v) if k == "related" else v) for k, v in work.extra)
        added.append((work.key, replace(work, key=final[work.key], extra=extra)))
    return added, notes


def _label(path: Path, root: Path) -> str:
    """How provenance names a source: relative to the project, else its file name only (a path
    outside the project names the user's folders, and records.json is published)."""
    return provenance.source_label(path, root)


def merge(base: Work, new: Work) -> Work:
    """Fill what ``base`` lacks from ``new`` (the field table's rules); never overwrite a value ``base`` has.

    Authors: a profile record that knows only its owner takes the full list from a record that has it.
    """
    merged = fields.merge(base, new)
    take_authors = _only_owners(base) and not _only_owners(new)
    return replace(
        merged,
        authors=new.authors if take_authors else base.authors,
        et_al=new.et_al if take_authors else base.et_al,
    )


def _only_owners(work: Work) -> bool:
    owners = {s.owner for s in work.sources}
    return not work.authors or (set(work.authors) <= owners and work.et_al)


def _update_entry(entry: Entry, old: Work, new: Work) -> Entry:
    """Apply to the parsed entry only the values that changed, so hand edits stay as written."""
    fresh = bibfile.work_to_entry(new).fields
    values = dict(entry.fields)
    for name in fields.changed_names(old, new):
        for present in [k for k in values if k.lower() == name]:
            del values[present]
        if name in fresh:
            values[name] = fresh[name]
    persons = dict(entry.persons)
    if (new.authors, new.et_al) != (old.authors, old.et_al):
        persons["author"] = [Person(n) for n in new.authors] + ([Person("others")] if new.et_al else [])
    kind = new.entry_type if new.entry_type != old.entry_type else entry.type
    return Entry(kind, fields=values, persons=persons)
