"""Every kind of generated file in one table: where it lives, the menu, search and file types.

The generator, the manifest, the Sphinx adapter, the page template and ``nox -s serve`` used to
repeat these folder names and page names in lists of their own, and the lists drifted. Now each
of them asks this table: a new kind of page or asset is one row here, naming its renderer.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .inputs import Renderer

from ..writer import TEMP_SUFFIX


class Search(Enum):
    """How Pagefind treats a page (site/templates/page.html reads the value)."""

    PAPER = "paper"  # indexed, with its filters and sort keys (site/facets.py)
    LIGHT = "light"  # indexed at a tenth of the weight: it only names what its papers say
    FULL = "full"  # indexed as any hand-written page
    NONE = "none"  # left out: it repeats the papers' titles, authors and years


@dataclass(frozen=True)
class Kind:
    """One kind of generated file.

    ``folder``: its folder under docs/ ("" for a single page at the root, named ``docname``);
    ``menu``: the docname the landing page's toctree lists for it ("" if none);
    ``suffixes``: the file types the generator may write there;
    ``render``: ``module:function`` under render/ that renders it from an ``Inputs``
    (``render/inputs.py``), imported when pages are rendered, not with this table: the renderers
    import the table's folders. "" when another row's renderer writes it too, or site/ does.
    ``apart``: the command line renders it in a forked helper while it renders the rest
    (site/assemble.py): the listings that draw charts (so matplotlib is imported there alone),
    about half of a render's time.
    ``sample``: the page of the frozen seeds that tests/fixtures/pages/ stores, byte for byte, as
    this kind's sample (tests/test_stored_pages.py; ``pytest --update-fixtures`` writes it): every
    kind of MyST page names one, the richest where there is a choice.
    """

    name: str
    folder: str = ""
    docname: str = ""
    menu: str = ""
    search: Search = Search.FULL
    suffixes: tuple[str, ...] = (".md",)
    render: str = ""
    apart: bool = False
    sample: str = ""

    def holds(self, docname: str) -> bool:
        """True when ``docname`` (a page's name, without suffix) is of this kind."""
        return docname.startswith(f"{self.folder}/") if self.folder else docname == self.docname


KINDS = (
    Kind(
        "landing page", docname="index", search=Search.LIGHT, render="pages:landing_page", apart=True, sample="index.md"
    ),
    Kind("paper", folder="papers", search=Search.PAPER, render="paper:paper_pages", sample="papers/lin2020dapple.md"),
    Kind(
        "topic",
        folder="topics",
        menu="topics/index",
        search=Search.LIGHT,
        render="listings:topic_listings",
        apart=True,
        sample="topics/ml-systems.md",  # a topic with subtopics
    ),
    Kind(
        "author",
        folder="authors",
        menu="authors/index",
        search=Search.NONE,
        render="authors:author_listings",
        apart=True,
        sample="authors/l.md",  # the initial of the author with a chart
    ),
    # with the bibliography: the pages no note shows on, kept by the enrichment cache
    Kind("year list", docname="years", menu="years", search=Search.NONE, render="pages:fixed_pages", sample="years.md"),
    Kind(
        "reading queue",
        docname="queue",
        menu="queue",
        search=Search.NONE,
        render="reading:reading_listings",
        sample="queue.md",
    ),
    # by the reading queue's renderer
    Kind("tag", folder="tags", menu="tags/index", search=Search.NONE, sample="tags/pipeline-parallelism.md"),
    Kind(
        "bibliography",
        docname="bibliography",
        menu="bibliography",
        search=Search.NONE,
        suffixes=(".md", ".bib"),
        sample="bibliography.md",
    ),
    # the topics', tags' and feeds' files; the whole list's .bib is the bibliography's
    Kind("download", folder="downloads", search=Search.NONE, suffixes=(".bib", ".json"), render="downloads:exports"),
    Kind("chart", folder="charts", search=Search.NONE, suffixes=(".svg",)),  # drawn by the pages (render/charts.py)
    # each paper page's related lists and graph (render/paper.py), read as the page is written
    Kind("related data", folder="related", search=Search.NONE, suffixes=(".json",)),
    Kind("feed", folder="feeds", search=Search.NONE, suffixes=(".xml", ".json")),  # render/feeds.py, by downloads
    Kind("records", docname="records", search=Search.NONE, suffixes=(".json",)),  # site/records.py
)
BY_NAME = {kind.name: kind for kind in KINDS}
PROTECTED = ("notes",)  # folders under docs/ that hold only people's files: no kind may live there

PAPERS = BY_NAME["paper"].folder
TOPICS = BY_NAME["topic"].folder
AUTHORS = BY_NAME["author"].folder
RELATED = BY_NAME["related data"].folder  # a folder Sphinx does not search (site/sphinx_ext/pagedata.py)


def data_name(slug: str) -> str:
    """A paper page's data file, relative to docs/."""
    return f"{RELATED}/{slug}.json"


FEEDS = BY_NAME["feed"].folder
FEED_INDEX = f"{FEEDS}/index.json"  # docname -> the feeds its page advertises ("*": every page)


def samples() -> dict[str, str]:
    """Each kind's stored sample page (a path under docs/), by the kind's name."""
    return {kind.name: kind.sample for kind in KINDS if kind.sample}


def renderers(apart: bool | None = None) -> list[Renderer]:
    """The renderers the rows name, in the table's order; with ``apart``, only the rows whose
    ``apart`` is that."""
    return [_imported(kind.render) for kind in KINDS if kind.render and apart in (None, kind.apart)]


def _imported(name: str) -> Renderer:
    module, _, function = name.partition(":")
    renderer: Renderer = getattr(importlib.import_module(f"{__package__}.{module}"), function)
    return renderer


def folders() -> frozenset[str]:
    """The folders under docs/ whose files the generator writes (and no person's page is found in)."""
    return frozenset(kind.folder for kind in KINDS if kind.folder)


def menu() -> list[str]:
    """The docnames the landing page's "Browse" menu lists, in order."""
    return [kind.menu for kind in KINDS if kind.menu]


def kind_of(docname: str) -> Kind | None:
    return next((kind for kind in KINDS if kind.holds(docname)), None)


def search_of(docname: str) -> Search:
    """How Pagefind treats the page ``docname`` (a hand-written page: FULL)."""
    kind = kind_of(docname)
    return kind.search if kind else Search.FULL


def may_write(rel: str) -> bool:
    """True when the generator may own ``rel`` (a path under docs/): its kind writes that type there."""
    folder, _, name = rel.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        return False
    # by folder and type (and name, at the root): cached, as a manifest lists two files per paper
    return _may_write(folder.split("/")[0], "" if folder else stem, suffix)


@functools.cache
def _may_write(top: str, stem: str, suffix: str) -> bool:
    if top in PROTECTED:
        return False
    for kind in KINDS:
        placed = top == kind.folder if kind.folder else (not top and stem == kind.docname)
        if placed and f".{suffix}" in kind.suffixes:
            return True
    return False


def git_ignores(docs: str = "docs") -> list[str]:
    """The generated files under ``docs``, as ``.gitignore`` lines: a new list's (``readinglist
    init`` writes them from this table, so a new kind is ignored with no other change)."""
    lines = []
    for kind in KINDS:
        lines += [f"{docs}/{kind.folder}/"] if kind.folder else [f"{docs}/{kind.docname}{s}" for s in kind.suffixes]
    return lines


def serve_ignores(docs: str = "docs") -> list[str]:
    """Regular expressions for the generated files under ``docs``: ``nox -s serve`` rebuilds on a
    person's edits, not on the files a build writes itself.

    The last one is the temporary file each write goes through at the top of ``docs`` (writer.py,
    ``.<name>.<random>.tmp``; the generated folders are ignored whole): seen by the watcher, it
    made every build that rewrote the landing page, the queue or the state files start a second.
    """
    out = [f"{docs}/{re.escape(kind.folder)}/.*" for kind in KINDS if kind.folder]
    for kind in KINDS:
        if not kind.folder:
            types = "|".join(re.escape(s.lstrip(".")) for s in kind.suffixes)
            out.append(f"{docs}/{re.escape(kind.docname)}\\.({types})$")
    out.append(f"{docs}/\\.[^/]*{re.escape(TEMP_SUFFIX)}$")
    return out
