"""The heavy half of ``generate``: enrich the store into a library and render every file."""

from __future__ import annotations

import sys
from dataclasses import replace

from ..config import Config
from ..enrich.pipeline import Library, enrich
from ..enrich.taxonomy import load_taxonomy
from ..latex import dump_to_latex
from ..model import Work
from ..render.notes import Note, load_notes
from ..render.pages import site_pages
from ..store import bibfile
from ..store.keys import slugs
from .manifest import RECORDS
from .records import records_json


def build_library(config: Config) -> tuple[Library, dict[str, str], dict[str, Note]]:
    """Enriched papers, the public BibTeX of each entry (for the copy block) and the notes by slug."""
    store = bibfile.load(config.bib_path, tolerant=True)  # one bad entry is left out, not fatal to the site
    for skip in store.skipped:  # named as the user knows the file: refs.bib:LINE
        print(f"readinglist: skipped {replace(skip, file=config.bib).render()}", file=sys.stderr)
    notes = load_notes(config.notes_path)
    works = [_with_note_title(w, notes.get(slug)) for w, slug in _slugged(store.works())]
    library = enrich(
        works,
        load_taxonomy(config.taxonomy_path),
        config.related_top_k,
        config.related_min_score,
    )
    bibtex = {key: bibfile.format_entry(key, bibfile.public_entry(entry)) for key, entry in store.entries.items()}
    return library, bibtex, notes


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
    site = {"title": config.title, "description": config.description}
    files = site_pages(library, notes, bibtex, site, about)
    files[RECORDS] = records_json(library)  # copied to the site root by the Sphinx extension
    return files
