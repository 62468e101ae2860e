"""The ``readinglist-graph`` directive: a related-work graph, one node drawn as inline SVG.

The generator writes the graph as data (render/graph.py: nodes laid out, edges with reasons).
Here it stays one docutils node; its links are resolved like the ``rl:`` links, and the HTML
writer draws it inline (render/graphsvg.py) so its nodes are real links a keyboard reaches
(in an ``<img>`` or ``<object>`` they would not be part of the page). Other builders get
nothing: the related list beside it says the same in words.
"""

from __future__ import annotations

import json
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from ...render.graphsvg import figure
from . import pagedata
from .warnings_ import Warn

CSS = "readinglist-graph.css"  # in site/static/, which a11y.py adds to html_static_path


class related_graph(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``graph``: the generator's data; ``hrefs``: each node's URI once resolved."""


class GraphDirective(SphinxDirective):
    """The graph is the block's line, or with ``:data: KEY`` the page's data file's KEY (pagedata.py)."""

    has_content = True
    option_spec = {"data": directives.unchanged_required}  # noqa: RUF012 (docutils' own class attribute)

    def run(self) -> list[nodes.Node]:
        if "data" in self.options:
            return [related_graph(graph=None, data=self.options["data"], data_file=pagedata.shows(self.env))]
        try:
            data = json.loads("\n".join(self.content))
            _check(data)
        except (ValueError, TypeError, KeyError, IndexError):
            Warn.BAD_GRAPH.log("not a graph", location=(self.env.docname, self.lineno))
            return []
        return [related_graph(graph=data)]


def _check(data: Any) -> None:
    """Raises unless ``data`` is the generator's shape: what the SVG writer may rely on."""
    nodes_, edges = data["nodes"], data["edges"]
    if data["kind"] not in ("paper", "topic") or not isinstance(nodes_, list) or not isinstance(edges, list):
        raise ValueError
    if not _numbers(data.get("more", 0)):
        raise ValueError
    for doc, label, title, x, y, centre in nodes_:
        if not all(isinstance(v, str) for v in (doc, label, title)) or not _numbers(x, y, centre):
            raise ValueError
    for a, b, kind, reason in edges:
        inside = _numbers(a, b) and 0 <= a < len(nodes_) and 0 <= b < len(nodes_)
        if not inside or not (isinstance(kind, str) and isinstance(reason, str)):
            raise ValueError


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each node's relative URI ("" for a page that does not exist); dropped outside HTML."""
    for node in list(doctree.findall(related_graph)):
        if app.builder.format != "html" or (node.get("data") and not _from_data(app, node)):
            node.parent.remove(node)
            continue
        docs = [n[0] for n in node["graph"]["nodes"]]
        for doc in docs:
            if doc not in app.env.all_docs:
                Warn.MISSING_PAGE.log("link to a page that does not exist: %s", doc, location=node)
        node["hrefs"] = [app.builder.get_relative_uri(docname, d) if d in app.env.all_docs else "" for d in docs]


def _from_data(app: Sphinx, node: related_graph) -> bool:
    """The graph of the page's data file into ``node``; False (warned) if it is not a graph."""
    data = pagedata.value(app, node, node["data"])
    try:
        _check(data)
    except (ValueError, TypeError, KeyError, IndexError):
        if data is not None:  # None: pagedata warned already
            Warn.BAD_PAGE_DATA.log("not a graph in %s", node["data_file"], location=node)
        return False
    node["graph"] = data
    return True


def visit_html(self: HTML5Translator, node: related_graph) -> None:
    self.body.append(figure(node["graph"], node["hrefs"]))
    raise nodes.SkipNode


def setup(app: Sphinx) -> None:
    app.add_node(related_graph, html=(visit_html, None))
    app.add_directive("readinglist-graph", GraphDirective)
    app.connect("doctree-resolved", resolve)
    app.add_css_file(CSS)
