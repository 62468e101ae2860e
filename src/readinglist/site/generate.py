"""``readinglist generate``: refs.bib + conf/ + docs/notes/ -> MyST pages under docs/.

Enrichment and rendering (``assemble``) are imported only when the inputs' fingerprint
(site/changes.py) has changed: scikit-learn alone takes a second to import, most of a rebuild after a note edit.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .. import cache
from ..config import Config
from ..errors import Code, ReadingListError
from ..memory import keep_loaded, tune_own_process
from ..model import Note
from ..render import registry
from ..render.links import plural
from ..render.notes import load_notes
from . import pagestate
from .changes import inputs_fingerprint, is_current, stamp_inputs, unstamp
from .manifest import OLD_MANIFEST, OLD_STAMP, open_state, read_manifest, remove_interrupted_writes, sync

if TYPE_CHECKING:
    from ..model import Library, Paper
    from .assemble import Enriched

# Folders under docs/ that never hold a page of the "About" menu.
GENERATED_FOLDERS = registry.folders() | set(registry.PROTECTED)  # no hand-written page for the menu there
HIDDEN = ("_", ".")  # names of files and folders that are no page of the menu
# The generator's own state beside the pages (no page): one file, written atomically (readinglist.cache).
STATE_FILES = {cache.FILE}
# The state files readinglist.cache replaced (issue 29): removed from docs/ once the state file is
# written (the old manifest and stamp are read into it first: manifest.open_state).
REPLACED = (
    OLD_MANIFEST,
    OLD_STAMP,
    ".readinglist-cache.pickle",  # the cache's own file; its results were of another code version anyway
    ".readinglist-library.pickle",
    ".readinglist-recall.pickle",
    ".readinglist-render.pickle",
    ".readinglist-pages.json",
    ".readinglist-citations.json",
)


@dataclass(frozen=True)
class GenerateReport:
    library: Library | None  # None when the inputs had not changed and nothing was done
    written: int
    deleted: int
    orphan_notes: tuple[str, ...]
    bibliography: tuple[str, ...] = ()  # entries the bibliography lists under another type, and why

    def lines(self, verbose: bool = False) -> list[str]:
        """A summary; ``verbose`` (``-v``) lists every merge, linked version and bibliography note,
        which every build would otherwise print again (a 1,600-work library: about 300 lines)."""
        if self.library is None:
            return ["inputs unchanged since the last generate: 0 files written"]
        papers, written, deleted = len(self.library.papers), self.written, self.deleted
        out = [f"{plural(papers, 'paper')}: {plural(written, 'file')} written, {plural(deleted, 'stale file')} removed"]
        found = self._found(self.library)
        if verbose:
            out += [describe(item) for _, items, describe in found for item in items]
        elif any(items for _, items, _ in found):
            out.append(", ".join(_count(len(items), nouns) for nouns, items, _ in found if items) + " (-v lists them)")
        out += [
            f"warning: docs/notes/{name}.md has no paper in refs.bib (kept, not deleted)" for name in self.orphan_notes
        ]
        return out

    def _found(self, library: Library) -> list[tuple[tuple[str, str], list[Any], Callable[[Any], str]]]:
        """What a person may want to check, by kind (its noun, one and many), with how to describe
        each: the same at every build until refs.bib changes, so counted unless asked for (the
        descriptions of 9,000 merges took 0.2 s of each build at 10,000 works)."""
        return [
            (("merged work", "merged works"), self._merged(library), self._merge_line),
            (("group of linked versions", "groups of linked versions"), self._versions(library), self._version_line),
            (("bibliography note", "bibliography notes"), list(self.bibliography), str),
        ]

    @staticmethod
    def _merged(library: Library) -> list[Paper]:
        return [paper for paper in library.papers if any(s.why for s in paper.work.sources)]

    @staticmethod
    def _merge_line(paper: Paper) -> str:
        why = "; ".join(f"{s.render()}: {s.why}" for s in paper.work.sources if s.why)
        return f"merged {len(paper.work.sources)} records into {paper.key} ({why})"

    @staticmethod
    def _versions(library: Library) -> list[tuple[Paper, list[str]]]:
        seen: set[str] = set()
        groups = []
        for paper in library.papers:
            if paper.versions and paper.key not in seen:
                group = sorted({paper.key, *paper.versions})
                seen.update(group)
                groups.append((paper, group))
        return groups

    @staticmethod
    def _version_line(found: tuple[Paper, list[str]]) -> str:
        paper, group = found
        return f"linked versions{' of ' + paper.system if paper.system else ''}: {', '.join(group)}"


def _count(n: int, nouns: tuple[str, str]) -> str:
    return f"{n} {nouns[0] if n == 1 else nouns[1]}"


def hand_written_pages(docs: Path, owned: set[str] | None = None) -> list[str]:
    """Docnames of the pages a person wrote in docs/ (guide, architecture, ...), for the menu;
    ``owned``: the manifest's files, if the caller has read them already (so they are read once).

    The folders no such page is in are not walked: hidden and underscored ones (``_build``, with
    a built site's every page and doctree) and the generated ones (a page per paper)."""
    owned = read_manifest(open_state(docs)) if owned is None else owned
    found = []
    for root, folders, files in os.walk(docs):
        here = Path(root).relative_to(docs)
        folders[:] = [
            f for f in folders if not f.startswith(HIDDEN) and not (here.parts == () and f in GENERATED_FOLDERS)
        ]
        for name in files:
            rel = (here / name).as_posix()
            if name.endswith(".md") and not name.startswith(HIDDEN) and rel not in owned and rel != "index.md":
                found.append(rel)
    return [rel.removesuffix(".md") for rel in sorted(found, key=lambda rel: rel.split("/"))]  # as Path sorts


def run(config: Config, force: bool = False, allow_empty: bool = False, own_process: bool = False) -> GenerateReport:
    """Bring docs/ up to date; with unchanged inputs, check a fingerprint and stop there.

    The caller holds the build lock (``build.locked``). A refs.bib with no entries would delete
    every paper page: refused unless ``allow_empty`` (or there are no paper pages to lose).
    ``force`` renders every file from a freshly built library, whatever the caches hold.
    ``own_process``: the process is the command line's, so its collector runs less often
    (readinglist.memory.tune_own_process) and the library the caches load is put out of its
    reach (readinglist.memory.keep_loaded). Never under Sphinx: a plain sphinx-build's
    collector is not ours to tune (sphinx_ext/memory.py).
    """
    if own_process:
        tune_own_process()
    store = open_state(config.docs_path)
    owned = read_manifest(store)
    remove_interrupted_writes(config.docs_path, owned | STATE_FILES | set(REPLACED))
    store.save()  # an older version's manifest, read into the state file before its file goes
    for name in REPLACED:
        (config.docs_path / name).unlink(missing_ok=True)
    about = hand_written_pages(config.docs_path, owned)
    notes = load_notes(config.notes_path, config.root)
    fingerprint = inputs_fingerprint(config, about, notes)
    if not force and is_current(store, config.docs_path, fingerprint):
        return GenerateReport(None, 0, 0, ())
    from .assemble import enrichment  # deferred: see the module docstring

    unstamp(store)
    single = own_process and threading.active_count() == 1  # fork only from a single thread
    key, enriched, built = enrichment(config, notes, fresh=force, parallel=single, store=store)
    if built:
        store.save()  # a render killed halfway loses no enrichment
    if own_process:
        keep_loaded()
    library = enriched.library
    if not library.papers and not allow_empty:
        _refuse_empty(config, owned)
    context = pagestate.context_key(config, key, about)
    # A helper renders part of the pages when the library changed (assemble._pages): then the
    # listings are rendered again, not served from the memo.
    parallel = single and built
    written, deleted = _render(config, enriched, notes, about, context, None if force else owned, parallel, store)
    stamp_inputs(store, fingerprint)
    store.save()
    slugs_in_use = {p.slug for p in library.papers}
    orphans = tuple(sorted(name for name in notes if name not in slugs_in_use and name.lower() != "readme"))
    return GenerateReport(library, written, deleted, orphans, enriched.problems)


def _render(
    config: Config,
    enriched: Enriched,
    notes: dict[str, Note],
    about: list[str],
    context: str,
    owned: set[str] | None,
    parallel: bool,
    store: cache.Store,
) -> tuple[int, int]:
    """Render what changed: after a note edit alone, that note's paper page and the listings
    (site/pagestate.py); otherwise, or with no ``owned`` (the manifest's files: ``force``), every
    file. Returns (files written, stale files deleted). ``parallel``: fork a helper for part of
    the render (assemble._pages); ``store``: the generate's cache, holding the render memo."""
    from .assemble import site_files

    docs, slugs = config.docs_path, [p.slug for p in enriched.library.papers]
    now = pagestate.PageState.of(context, notes)
    only = None if owned is None else pagestate.to_render(store, docs, now, slugs, owned)
    if only is None:
        pagestate.forget(store)
    kept = pagestate.kept_files(slugs, only) if only is not None else set()
    # Units whose inputs are unchanged are served from the last generate's (``force``: none).
    memo: Literal["write", "reuse"] = "reuse" if owned is not None else "write"
    files = site_files(
        config, enriched.library, notes, enriched.bibtex, about, only, enriched.fixed, memo, parallel, store
    )
    counts = sync(docs, files, kept, store)
    pagestate.remember(store, pagestate.PageState.of(context, notes))
    return counts


def _refuse_empty(config: Config, owned: set[str]) -> None:
    """An emptied refs.bib (a failed save, a truncated checkout) must not silently empty the site."""
    papers = sum(rel.startswith("papers/") for rel in owned)
    if papers:
        raise ReadingListError(
            f"holds no entries; generating would delete all {papers} paper pages"
            " (pass --allow-empty, or readinglist_allow_empty = True in conf.py, if that is what you want)",
            config.bib_path,
            code=Code.EMPTY_STORE,
        )
