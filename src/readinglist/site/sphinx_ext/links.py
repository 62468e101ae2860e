"""``rl:`` links between generated pages, resolved once every page is known.

The generator writes ``rl:papers/<slug>`` and the like (render/links.py): a link to a page
that does not exist is a warning and plain text, never a broken ``href``; a card's hidden link
text becomes the page's title, as the page reads (MathML's text, not its LaTeX source).
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ...latex import to_text
from ...render import links
from .warnings_ import Warn


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(nodes.reference)):
        target = links.target(node.get("refuri", ""))
        if target is None:
            continue
        doc, anchor = target
        if doc not in app.env.all_docs:
            Warn.MISSING_PAGE.log("link to a page that does not exist: %s", doc, location=node)
            node.replace_self(nodes.inline("", "", *node.children))
            continue
        if node.astext() == node["refuri"]:  # a card's hidden link text: name the page instead
            _name_page(app, node, doc)
        node["refuri"] = app.builder.get_relative_uri(docname, doc) + (f"#{nodes.make_id(anchor)}" if anchor else "")
        node["internal"] = True


def _name_page(app: Sphinx, node: nodes.Element, doc: str) -> None:
    node.clear()
    title = app.env.titles[doc].deepcopy()
    for math in list(title.findall(nodes.math)):  # as the page reads (λ), not its source (\lambda)
        math.replace_self(nodes.Text(to_text(f"${math.astext()}$")))
    node += nodes.Text(title.astext())


def setup(app: Sphinx) -> None:
    app.connect("doctree-resolved", resolve)
