"""The Sphinx adapter: the only package of readinglist that imports Sphinx or docutils.

A reading list's conf.py needs one line, ``extensions = ["readinglist.site.sphinx_ext"]``:
``setup()`` loads the extensions the pages use and registers each feature's module, one
module a feature, and does nothing else. When a build starts, the generator brings docs/ up
to date; when an HTML build ends, ``records.json`` is copied to the site root and Pagefind
indexes the site. What each build keeps is on its app (``state.py``).

| module | feature |
|---|---|
| ``settings`` | the settings the generated pages need (config-inited) |
| ``generation`` | generating the pages under the build lock; builds killed while writing or killed outright |
| ``confine`` | no page or included file that is a link out of the project |
| ``links`` | ``rl:`` links between generated pages |
| ``linklist`` | the related-papers lists (``{readinglist-links}``) |
| ``liststatus`` | reading status in those lists, filled in at writing: a status change re-reads no list |
| ``pagedata`` | a paper page's related lists and graph, from its data file at writing: no other page re-read |
| ``pagetables`` | the per-page tables those two keep on the environment, and which pages to write again |
| ``citetabs`` | a paper's Cite menu as one node (``{readinglist-cite}``) |
| ``cardlist`` | a topic page's paper cards as one node (``{readinglist-cards}``) |
| ``jsonlines`` | the body of those three data directives: a JSON object per line |
| ``graphnode`` | related-work graphs as inline SVG (``{readinglist-graph}``) |
| ``navigation`` | one navigation tree per folder for pages outside every toctree |
| ``bibliography`` | the bibliography's linked, cached styles (``biblinks``, ``bibcache``) |
| ``mathml`` | math as MathML at build time |
| ``searchindex`` | Pagefind instead of Sphinx's index (``site/search.py`` runs it) |
| ``facets`` | search filters, sort keys and result metadata on paper pages |
| ``records`` | ``records.json`` at the site root |
| ``a11y`` | accessible markup, favicon, ``citation_*`` meta tags (``citemeta``) |
| ``feedlinks`` | the Atom feeds copied and advertised; the selection script |
| ``templatecache`` | the theme's templates compiled once, kept beside the doctrees |
| ``packedtocs`` | the pages' tables of contents kept packed in the environment, unpacked when read |
| ``memory`` | opt-in garbage-collector tuning (``readinglist_tune_gc``) |
| ``warnings_`` | the warnings, with stable codes (``readinglist.<code>``) |
| ``command`` | ``readinglist build``'s sphinx-build: a full disk or the tool's errors as one line |
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from ... import __version__
from . import (
    a11y,
    bibliography,
    cardlist,
    citetabs,
    confine,
    facets,
    feedlinks,
    generation,
    graphnode,
    linklist,
    links,
    liststatus,
    mathml,
    memory,
    navigation,
    packedtocs,
    pagedata,
    records,
    searchindex,
    settings,
    templatecache,
)

USES = ("myst_parser", "sphinx_design", "sphinx_copybutton", "sphinxcontrib.bibtex")
# In this order: the style sheets they add load in it (a11y's before the graph's and the selection's).
FEATURES = (settings, generation, confine, links, linklist, liststatus, pagedata, citetabs, cardlist, a11y, facets,
            bibliography, graphnode, feedlinks, navigation, mathml, searchindex, records, templatecache,
            packedtocs, memory)  # fmt: skip


def setup(app: Sphinx) -> dict[str, Any]:
    for extension in USES:
        app.setup_extension(extension)
    for feature in FEATURES:
        feature.setup(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
