"""Reading status in paper lists, filled in when a page is written rather than when it is read.

An author page lists each paper with its reading status ("— to read"). Written into the page's
Markdown, a status change rewrote every author page that lists the paper, and Sphinx read them
all again: at 10,000 works four long author pages, 1.25 s of reading in a status change's
rebuild. The generator now marks such items (``"status": true`` in ``{readinglist-links}``,
``render/links.link_list``), and the status comes from the notes' front matter here:

- reading a page records which papers' statuses it shows (``env.readinglist_status_lists``);
- after reading (``env-updated``) each such page whose papers' statuses differ from the ones it
  was last written with is handed back to Sphinx to be written again, not read again;
- ``linklist.resolve`` fills each item's reason in as the page is written.

The statuses a page was written with are kept in the environment, which Sphinx saves before it
writes: a build killed after that is caught by ``generation.py``'s mark of an interrupted build,
which has every page written again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ...render.frontmatter import status_of
from ...render.links import PAPERS
from ...render.workflow import LABELS
from .facets import note_meta
from .pagetables import changed_since_written, keep_per_page, table
from .state import state

LISTS = "readinglist_status_lists"  # on the environment: docname -> the paper docs whose status it shows
SHOWN = "readinglist_status_shown"  # on the environment: docname -> digest of the statuses it was written with


def shows(env: BuildEnvironment, papers: Iterable[str]) -> None:
    """The page being read shows these papers' statuses (called by the directive)."""
    lists: dict[str, set[str]] = table(env, LISTS)
    lists.setdefault(env.docname, set()).update(papers)


def said(app: Sphinx, doc: str) -> str:
    """The reading status an item shows for paper ``doc`` ("to read"), "" for none."""
    return _statuses(app).get(doc, "")


def _statuses(app: Sphinx) -> dict[str, str]:
    """Each paper's status by its doc, from the notes; read once a build."""
    kept = state(app)
    if kept.statuses is None:
        notes = Path(app.srcdir) / "notes"
        slugs = sorted(p.stem for p in notes.glob("*.md")) if notes.is_dir() else []
        found = {slug: status_of(note_meta(notes, slug).get("status")) for slug in slugs}
        kept.statuses = {f"{PAPERS}/{slug}": LABELS[s].lower() for slug, s in found.items() if s}
    return kept.statuses


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
    app.connect("env-updated", _write_changed)
