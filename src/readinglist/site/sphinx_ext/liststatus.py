"""Reading status in paper lists, filled in when a page is written rather than when it is read.

An author page lists each paper with its reading status ("— to read"), a topic page each card's
badge and the topic's progress ("2 read · 1 reading"). Written into the pages' Markdown, a status
change had the generator render them again and Sphinx read them again: at 10,000 works four long
author pages took 1.25 s of reading, and a topic page of 3,500 cards 0.6 s of rendering and
reading. The generator now marks such items (``"status": true`` in ``{readinglist-links}``,
``render/links.link_list``; every card of ``{readinglist-cards}``; the version groups of a
``{readinglist-progress}`` block), and the statuses come from the notes' front matter here:

- reading a page records which papers' statuses it shows (``env.readinglist_status_lists``);
- after reading (``env-updated``) each such page whose papers' statuses differ from the ones it
  was last written with is handed back to Sphinx to be written again, not read again;
- ``linklist.resolve`` fills each item's reason in as the page is written, ``cardlist.resolve``
  each card's badge (its version group's furthest status), and :func:`resolve` the progress line.

The statuses a page was written with are kept in the environment, which Sphinx saves before it
writes: a build killed after that is caught by ``generation.py``'s mark of an interrupted build,
which has every page written again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from ...render import workflow
from ...render.frontmatter import status_of
from ...render.links import PAPERS
from . import jsonlines
from .facets import note_meta
from .pagetables import changed_since_written, keep_per_page, table
from .state import state
from .warnings_ import Warn

LISTS = "readinglist_status_lists"  # on the environment: docname -> the paper docs whose status it shows
SHOWN = "readinglist_status_shown"  # on the environment: docname -> digest of the statuses it was written with


def shows(env: BuildEnvironment, papers: Iterable[str]) -> None:
    """The page being read shows these papers' statuses (called by the directive)."""
    lists: dict[str, set[str]] = table(env, LISTS)
    lists.setdefault(env.docname, set()).update(papers)


def said(app: Sphinx, doc: str) -> str:
    """The reading status an item shows for paper ``doc`` ("to read"), "" for none."""
    found = _statuses(app).get(doc)
    return workflow.LABELS[found].lower() if found else ""


def furthest(app: Sphinx, docs: Iterable[str]) -> str:
    """The status of a system whose versions are ``docs``: the furthest any of them reached
    (``render.workflow.furthest``), "" for none."""
    return workflow.furthest(_statuses(app).get(doc) for doc in docs) or ""


def _statuses(app: Sphinx) -> dict[str, str]:
    """Each paper's status (``to-read``, ...) by its doc, from the notes; read once a build."""
    kept = state(app)
    if kept.statuses is None:
        notes = Path(app.srcdir) / "notes"
        slugs = sorted(p.stem for p in notes.glob("*.md")) if notes.is_dir() else []
        found = {slug: status_of(note_meta(notes, slug).get("status")) for slug in slugs}
        kept.statuses = {f"{PAPERS}/{slug}": s for slug, s in found.items() if s}
    return kept.statuses


class progress_line(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``groups``: the docs of each version group a topic counts; a paragraph once resolved."""


class ProgressLine(SphinxDirective):
    """``{readinglist-progress}``: one JSON object a line, ``{"docs": [...]}`` for each version group."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        groups = jsonlines.items(self, _group, Warn.BAD_PROGRESS_LINE, "a version group")
        shows(self.env, (doc for group in groups for doc in group))
        node = progress_line(groups=groups)
        self.set_source_info(node)
        return [node]


def _group(item: dict[str, Any]) -> list[str]:
    docs = item["docs"]
    if not isinstance(docs, list) or not all(isinstance(doc, str) for doc in docs):
        raise TypeError("not a list of pages")
    return docs


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each progress block as the paragraph "Progress: 2 read · 1 reading.", or nothing when no
    paper of it has a status (``render.workflow.progress``, counted as the notes say now)."""
    for node in list(doctree.findall(progress_line)):
        counts = workflow.counted([furthest(app, group) or None for group in node["groups"]])
        node.replace_self(nodes.paragraph("", f"Progress: {counts}.") if counts else [])


def _digest(app: Sphinx, papers: set[str]) -> str:
    shown = [(doc, said(app, doc)) for doc in sorted(papers)]
    return hashlib.blake2b(json.dumps(shown).encode(), digest_size=12).hexdigest()


def _write_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The pages (read or not) whose shown statuses changed since they were written: written again."""
    state(app).statuses = None  # this build's notes
    lists: dict[str, set[str]] = table(env, LISTS)
    return changed_since_written(env, SHOWN, {doc: _digest(app, papers) for doc, papers in lists.items()})


def setup(app: Sphinx) -> None:
    keep_per_page(app, LISTS)
    app.add_node(progress_line)
    app.add_directive("readinglist-progress", ProgressLine)
    app.connect("env-updated", _write_changed)
    app.connect("doctree-resolved", resolve)
