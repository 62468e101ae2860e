"""The generated files readers take away: the Atom feeds, and each topic, tag and the whole list
as ``.bib`` and CSL-JSON downloads (``downloads/topic-<id>.bib``, ``tag-<slug>.json``, …).

The pages offer them through ``bibsets.set_links``; a set's name is made in one place
(``bibsets.set_name``), so a page's link and the file it names cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from ..model import Library, Note, Paper, Work
from .bibliography import crossref_key, derive
from .bibsets import ALL, bib_set, csl_path, set_name
from .export import csl_item, csl_line, csl_lines
from .feeds import feed_files
from .inputs import Inputs
from .memo import current, key_of
from .reading import tagged


def exports(inputs: Inputs) -> dict[str, str]:
    """The feeds (``feeds/``) and the downloads of the topics, the tags and the list."""
    return export_files(inputs.library, inputs.notes, inputs.bibtex, inputs.site)


def export_files(
    library: Library, notes: Mapping[str, Note], bibtex: dict[str, str], site: Mapping[str, str]
) -> dict[str, str]:
    meta = {slug: note.meta for slug, note in notes.items()}
    files = feed_files(library, meta, site)
    works = {p.key: p.work for p in library.papers}
    items: dict[str, str] = {}  # each paper's CSL line, made once for every set that is rendered
    memo = current()
    for name, papers in _sets(library, meta):
        if papers or name == ALL:  # the bibliography page links the whole list's files, even when empty
            # A set reads its papers, their public BibTeX and their crossref parents (derive).
            read = [(memo.digest(p), bibtex.get(p.key), repr(works.get(crossref_key(p.work)))) for p in papers]
            files |= memo.unit(
                f"set:{name}", key_of(name, read), partial(_set_files, name, papers, bibtex, works, items)
            )
    return files


def _set_files(
    name: str, papers: Sequence[Paper], bibtex: dict[str, str], works: dict[str, Work], items: dict[str, str]
) -> dict[str, str]:
    """The set's .bib (the bibliography writes the whole list's) and its CSL-JSON."""
    for p in papers:
        if p.key not in items:
            items[p.key] = csl_line(csl_item(p.key, derive(p.work, works)))
    path, text = bib_set(name, papers, bibtex)
    files = {path: text} if name != ALL else {}
    return files | {csl_path(name): csl_lines([items[p.key] for p in papers])}


def _sets(library: Library, notes: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, Sequence[Paper]]]:
    sets: list[tuple[str, Sequence[Paper]]] = [(ALL, library.papers)]
    for topic in library.topics:
        sets.append((set_name("topic", topic.id), [p for p in library.papers if topic.id in p.topics]))
        for sub in topic.subtopics:
            sets.append((set_name("topic", sub.id), [p for p in library.papers if sub.id in p.subtopics]))
    sets += [(set_name("tag", slug), papers) for slug, (_, papers) in tagged(library, notes).items()]
    return sets
