"""The heavy half of ``generate``: enrich the store into a library (or serve it from its cache) and render the files."""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Literal

from ..cache import Store, key_of
from ..config import Config
from ..enrich.recall import Recall
from ..enrich.taxonomy import load_taxonomy
from ..latex import dump_to_latex
from ..model import Library, Note, Work
from ..render import charts, citecache
from ..render.bibliography import problems
from ..render.citeblock import public_entry
from ..render.memo import Done, Entry, absorb, kept, mark, since
from ..render.notes import load_notes
from ..render.pages import library_pages, site_pages
from ..render.registry import PAPERS
from ..render.zotero import load as load_zotero
from ..slugs import slugs
from ..store import bibfile
from ..store.identity import load_rules
from . import child
from .changes import settings, synced
from .manifest import RECORDS
from .pasted import fold_duplicates
from .records import records_json

LIBRARY, RECALL, RENDER, CITATIONS = "library", "recall", "render", "citations"  # kinds of results in the cache


@dataclass(frozen=True)
class Enriched:
    """What :func:`enrich_store` makes from the inputs, notes' bodies and front matter aside."""

    library: Library
    bibtex: dict[str, str]  # the public BibTeX of each shown entry, for the copy block
    messages: tuple[str, ...]  # what reading refs.bib printed (skips, folds): printed again when served
    fixed: dict[str, str]  # the generated files no note shows on (years, bibliography, records.json)
    problems: tuple[str, ...]  # what the bibliography changed, for generate's report


@dataclass(frozen=True)
class EnrichInputs:
    """Everything the enrichment reads, and nothing else: the cache's key is made of these
    fields (readinglist.cache), so an input the enrichment reads cannot be left out of it."""

    bib: Path
    bib_name: str  # refs.bib as messages name it
    taxonomy: Path
    identity: Path
    related_top_k: int
    related_min_score: float
    infer_categories: bool
    titles: tuple[tuple[str, object], ...]  # the notes' ``title:`` by slug: part of the text compared

    @classmethod
    def of(cls, config: Config, notes: dict[str, Note]) -> EnrichInputs:
        titles = tuple(sorted((slug, note.meta["title"]) for slug, note in notes.items() if "title" in note.meta))
        return cls(
            config.bib_path,
            config.bib,
            config.taxonomy_path,
            config.identity_path,
            config.related_top_k,
            config.related_min_score,
            config.infer_categories,
            titles,
        )


def enrichment(
    config: Config, notes: dict[str, Note], fresh: bool = False, parallel: bool = False, store: Store | None = None
) -> tuple[str, Enriched, bool]:
    """The enriched library, its key and whether it was built (not served): from the cache
    (readinglist.cache) when its inputs are unchanged, else built and kept. ``fresh`` builds it
    whatever the cache holds; ``parallel``: refs.bib may be read in a forked helper
    (:func:`enrich_store`); ``store``: the generate's cache, else this call opens and saves one."""
    own = store or Store.open(config.docs_path)
    if fresh:
        own.drop(LIBRARY)
        own.drop(RECALL)
    inputs = EnrichInputs.of(config, notes)
    found, key, built = own.cached(LIBRARY, Enriched, partial(_enrich_kept, own, parallel=parallel), inputs)
    if store is None:
        own.save()
    for line in found.messages:  # the same lines whether served or built
        print(line, file=sys.stderr)
    return key, found, built


def _enrich_kept(store: Store, inputs: EnrichInputs, parallel: bool) -> Enriched:
    """Enrich, serving the per-work results (enrich/recall.py) the last enrichment kept under the
    same taxonomy: the only input they read besides their arguments."""
    key = key_of(RECALL, inputs.taxonomy)
    recall = Recall(store.get(RECALL, key, dict))
    enriched = enrich(inputs, recall, parallel)
    for paper in enriched.library.papers:
        paper.digest  # noqa: B018 (computed before pickling, so the cache serves it too)
    store.put(RECALL, key, recall.used)
    return enriched


def build_library(config: Config) -> tuple[Library, dict[str, str], dict[str, Note]]:
    """Enriched papers, the public BibTeX of each entry (for the copy block) and the notes by slug,
    built afresh (``readinglist export``, tests)."""
    notes = load_notes(config.notes_path, config.root)
    enriched = enrich_store(config, notes)
    for line in enriched.messages:
        print(line, file=sys.stderr)
    return enriched.library, enriched.bibtex, notes


# what reading refs.bib gives: the works, the public BibTeX of every entry, the lines to print
Read = tuple[list[Work], dict[str, str], list[str]]


def enrich_store(
    config: Config, notes: dict[str, Note], recall: Recall | None = None, parallel: bool = False
) -> Enriched:
    """:func:`enrich` of ``config``'s and ``notes``' inputs, built afresh."""
    return enrich(EnrichInputs.of(config, notes), recall, parallel)


def enrich(inputs: EnrichInputs, recall: Recall | None = None, parallel: bool = False) -> Enriched:
    """Enriched papers, the public BibTeX of each entry (for the copy block) and what reading said;
    ``recall``: the last generate's per-work results (enrich/recall.py). With ``parallel`` (and
    fork: Linux), refs.bib is read in a forked helper (:func:`_read_store`) while this process
    imports the enrichment's libraries: the two are each a large part of an added paper's
    generate, and the second core would otherwise wait for the pages."""
    read = partial(_read_store, inputs)
    with child.beside(read, wanted=parallel) as helper:
        # Imported here: numpy, SciPy, scikit-learn and the similarity code take most of a second
        # to import, and a note edit served from the cache never enriches.
        from ..enrich.pipeline import enrich as enriched
        from ..enrich.similarity import load_libraries

        if helper is not None:
            load_libraries()  # what enrich() would import first thing, while the helper reads
    works, bibtex, messages = (helper.result() if helper else None) or read()
    library = enriched(
        works,
        load_taxonomy(inputs.taxonomy),
        inputs.related_top_k,
        inputs.related_min_score,
        recall,
        inputs.infer_categories,
        load_rules(inputs.identity),
    )
    shown = {p.key for p in library.papers}
    bibtex = {key: text for key, text in bibtex.items() if key in shown}
    fixed = library_pages(library, bibtex) | {RECORDS: records_json(library)}
    return Enriched(library, bibtex, tuple(messages), fixed, tuple(problems(library, inputs.bib)))


def _read_store(inputs: EnrichInputs) -> Read:
    """refs.bib's works (one per work, notes' titles applied), every entry's public BibTeX and
    what reading said. Reads only: a forked helper may run it (:func:`enrich_store`)."""
    store = bibfile.load(inputs.bib, tolerant=True)  # one bad entry is left out, not fatal to the site
    # named as the user knows the file: refs.bib:LINE
    messages = [f"readinglist: skipped {replace(skip, file=inputs.bib_name).render()}" for skip in store.skipped]
    titles = dict(inputs.titles)
    works = [_with_note_title(w, titles.get(slug)) for w, slug in _slugged(_one_page_per_work(inputs, store, messages))]
    bibtex = {key: bibfile.format_entry(key, public_entry(entry)) for key, entry in store.entries.items()}
    return works, bibtex, messages


def _one_page_per_work(inputs: EnrichInputs, store: bibfile.BibFile, messages: list[str]) -> list[Work]:
    """Pasted entries of one work folded into the first (site/pasted.py), each fold said once."""
    lines = {chunk.key: chunk.line for chunk in store.chunks if chunk.key is not None}
    works, folds = fold_duplicates(store.works(), lines, load_rules(inputs.identity))
    # not a Sphinx warning: the site is right, only refs.bib is untidy
    messages += [f"readinglist: {fold.render(inputs.bib_name)}" for fold in folds]
    return works


def _slugged(works: list[Work]) -> list[tuple[Work, str]]:
    slug_of = slugs(w.key for w in works)
    return [(w, slug_of[w.key]) for w in works]


def _with_note_title(work: Work, title: object) -> Work:
    """A ``title:`` in the notes' front matter wins over any title in refs.bib."""
    if not isinstance(title, str) or not title.strip():
        return work
    return replace(work, title=dump_to_latex(title.strip()), title_inferred=False)


def site_files(
    config: Config,
    library: Library,
    notes: dict[str, Note],
    bibtex: dict[str, str],
    about: list[str],
    only: Collection[str] | None = None,
    fixed: dict[str, str] | None = None,
    memo: Literal["off", "write", "reuse"] = "off",
    parallel: bool = False,
    store: Store | None = None,
) -> dict[str, str]:
    """Every generated file, by path relative to docs/; with ``only``, the paper pages of those
    slugs and every listing (site/pagestate.py keeps the others).
    ``fixed``: the files no note shows on (``Enriched.fixed``), if the caller has them;
    ``memo``: keep the rendered units and the Cite menus' references for the next generate
    ("write"), and serve the last generate's where their inputs are unchanged ("reuse"):
    render/memo.py and render/citecache.py, kept in ``store`` (the generate's cache; else this
    call opens and saves one); ``parallel``: fork a helper for part of the render (:func:`_pages`)."""
    own = store if store is not None or memo == "off" else Store.open(config.docs_path)
    key, cites = render_key(config), key_of(CITATIONS, citecache.versions())
    previous = _memo(own.get(RENDER, key, dict)) if own and memo == "reuse" else {}
    known = _cited(own.get(CITATIONS, cites, dict)) if own else {}
    with kept(previous, config.docs_path, active=memo != "off") as made, citecache.kept(known) as cited:
        files = _rendered(config, library, notes, bibtex, about, only, fixed, parallel)
        used = dict(cited.used)
    if own is not None:
        # A partial render (site/pagestate.py) rendered only some paper pages: the others'
        # entries, and the references they use, are kept, to serve them once the library changes.
        left = {n: e for n, e in previous.items() if n.startswith(f"{PAPERS}/") and n not in made.made}
        own.put(RENDER, key, (left if only is not None else {}) | made.made)
        if only is None:
            own.put(CITATIONS, cites, used)
        if store is None:
            own.save()
    return files


def render_key(config: Config) -> str:
    """The render memo's key: every setting and the synced Zotero notes pages show."""
    return key_of(RENDER, settings(config), *synced(config))


def _memo(found: dict[str, Entry] | None) -> dict[str, Entry]:
    return found if found is not None and all(isinstance(e, Entry) for e in found.values()) else {}


def _cited(found: dict[str, list[str]] | None) -> dict[str, list[str]]:
    """The Cite menus' references a cache holds, each a list of strings (render/citecache.py)."""
    valid = found is not None and all(
        isinstance(v, list) and all(isinstance(s, str) for s in v) for v in found.values()
    )
    return found if valid and found is not None else {}


def _rendered(
    config: Config,
    library: Library,
    notes: dict[str, Note],
    bibtex: dict[str, str],
    about: list[str],
    only: Collection[str] | None,
    fixed: dict[str, str] | None,
    parallel: bool,
) -> dict[str, str]:
    site = {"title": config.title, "description": config.description, "base_url": config.base_url}
    site["author_feed_min"] = str(config.author_feed_min)  # render/feeds.py
    # The charts' SVGs: drawn, or read back from docs/ when their data is unchanged (render/charts.py).
    drawing = charts.Settings(config.charts, config.author_chart_min, config.docs_path)
    with charts.drawn(drawing) as drawn:
        pages = None if fixed is None else {rel: text for rel, text in fixed.items() if rel != RECORDS}
        zotero = load_zotero(config.root)  # the synced notes and highlights (render/zotero.py)
        render = partial(site_pages, library, notes, bibtex, site, about, graph=config.graph, only=only, fixed=pages)
        render = partial(render, zotero=zotero)
        files = _pages(render, parallel)
        files.update(drawn.files)
    # copied to the site root by the Sphinx extension
    files[RECORDS] = records_json(library) if fixed is None else fixed[RECORDS]
    return files


def _pages(render: Callable[..., dict[str, str]], parallel: bool) -> dict[str, str]:
    """``render()``'s pages. With ``parallel`` (and fork: Linux), the kinds marked ``apart``
    (render/registry.py: the listings that draw charts, about half of a render) are rendered in
    a forked helper meanwhile, on the core that otherwise waits for the pages (Sphinx started
    early, site/early.py); what the helper added to the memo, the charts and the Cite cache is
    taken back here. A helper that fails is only a lost shortcut: its share is rendered here.
    The caller asks for it only when the library changed (generate._render): after a note edit
    the listings are served from the memo, and a fork of a large process (its copy-on-write
    pages) costs more than that."""
    with child.beside(partial(_apart, render), wanted=parallel) as helper:
        if helper is None:
            return render()
        here = render(apart=False)
    found = helper.result()
    if found is None:
        return here | render(apart=True)
    pages, done = found
    absorb(done)
    return here | pages


def _apart(render: Callable[..., dict[str, str]]) -> tuple[dict[str, str], Done]:
    """In the helper: the ``apart`` kinds' pages, and what rendering them added."""
    start = mark()
    return render(apart=True), since(start)
