"""The heavy half of ``generate``: enrich the store into a library and render every file."""

from __future__ import annotations

import sys
from dataclasses import replace

from ..config import Config
from ..enrich.pipeline import enrich
from ..enrich.taxonomy import load_taxonomy
from ..latex import dump_to_latex
from ..model import Library, Note, Work
from ..render import charts, citecache
from ..render.citeblock import public_entry
from ..render.notes import load_notes
from ..render.pages import site_pages
from ..slugs import slugs
from ..store import bibfile
from ..store.identity import load_rules
from .manifest import RECORDS
from .pasted import fold_duplicates
from .records import records_json


def build_library(config: Config) -> tuple[Library, dict[str, str], dict[str, Note]]:
    """Enriched papers, the public BibTeX of each entry (for the copy block) and the notes by slug."""
    store = bibfile.load(config.bib_path, tolerant=True)  # one bad entry is left out, not fatal to the site
    for skip in store.skipped:  # named as the user knows the file: refs.bib:LINE
        print(f"readinglist: skipped {replace(skip, file=config.bib).render()}", file=sys.stderr)
    notes = load_notes(config.notes_path)
    works = [_with_note_title(w, notes.get(slug)) for w, slug in _slugged(_one_page_per_work(config, store))]
    library = enrich(
        works,
        load_taxonomy(config.taxonomy_path),
        config.related_top_k,
        config.related_min_score,
    )
    shown = {p.key for p in library.papers}
    bibtex = {
        key: bibfile.format_entry(key, public_entry(entry)) for key, entry in store.entries.items() if key in shown
    }
    return library, bibtex, notes


def _one_page_per_work(config: Config, store: bibfile.BibFile) -> list[Work]:
    """Pasted entries of one work folded into the first (site/pasted.py), each fold said once."""
    lines = {chunk.key: chunk.line for chunk in store.chunks if chunk.key is not None}
    works, folds = fold_duplicates(store.works(), lines, load_rules(config.identity_path))
    for fold in folds:  # not a Sphinx warning: the site is right, only refs.bib is untidy
        print(f"readinglist: {fold.render(config.bib)}", file=sys.stderr)
    return works


def _slugged(works: list[Work]) -> list[tuple[Work, str]]:
    slug_of = slugs(w.key for w in works)
    return [(w, slug_of[w.key]) for w in works]


def _with_note_title(work: Work, note: Note | None) -> Work:
    """A ``title:`` in the notes' front matter wins over any title in refs.bib."""
    title = note.meta.get("title") if note else None
    if not isinstance(title, str) or not title.strip():
        return work
    return replace(work, title=dump_to_latex(title.strip()), title_inferred=False)


def site_files(
    config: Config, library: Library, notes: dict[str, Note], bibtex: dict[str, str], about: list[str]
) -> dict[str, str]:
    """Every generated file, by path relative to docs/."""
    site = {"title": config.title, "description": config.description, "base_url": config.base_url}
    # The Cite menus' formatted references: the last generate's are served, the ones used kept.
    # The charts' SVGs: drawn, or read back from docs/ when their data is unchanged (render/charts.py).
    drawing = charts.Settings(config.charts, config.author_chart_min, config.docs_path)
    with citecache.kept(config.docs_path / citecache.FILE) as cited, charts.drawn(drawing) as drawn:
        files = site_pages(library, notes, bibtex, site, about, graph=config.graph)
        files[citecache.FILE] = cited.text()
        files.update(drawn.files)
    files[RECORDS] = records_json(library)  # copied to the site root by the Sphinx extension
    return files
