"""The ``readinglist-links`` directive (a list of papers as one node) and the anchor role.

A paper page lists a dozen related papers or more. As Markdown each item is a list item,
a paragraph, a reference and three text nodes, and every Sphinx and docutils transform
walks them all: the related lists were a third of a paper page's nodes. The generator
writes the list as data instead (one JSON object per line: ``doc``, ``title``, ``year``,
``reason``), and this directive keeps it as a single node that the HTML writer renders.
Titles and reasons are escaped here, as record text always is. Other builders get an
ordinary bullet list.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

logger = logging.getLogger(__name__)
FIELDS = ("doc", "title", "year", "reason")


class link_list(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``links``: dicts of FIELDS, plus ``uri`` once resolved."""


class LinkList(SphinxDirective):
    has_content = True

    def run(self) -> list[nodes.Node]:
        links = []
        for offset, line in enumerate(self.content):
            try:
                item = json.loads(line)
                links.append({f: str(item.get(f) or "") for f in FIELDS})
            except (ValueError, AttributeError):
                logger.warning("not a link: %r", line, location=(self.env.docname, self.content_offset + offset + 1))
        return [link_list(links=links, classes=["simple", "readinglist-links"])]


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Relative URIs for the links whose page exists; a bullet list for builders other than HTML."""
    for node in list(doctree.findall(link_list)):
        kept = []
        for link in node["links"]:
            if link["doc"] not in app.env.all_docs:
                logger.warning("link to a page that does not exist: %s", link["doc"], location=node)
                continue
            kept.append({**link, "uri": app.builder.get_relative_uri(docname, link["doc"])})
        node["links"] = kept
        if app.builder.format != "html":
            node.replace_self(_bullet_list(kept))


def _bullet_list(links: list[dict[str, str]]) -> nodes.bullet_list:
    items = nodes.bullet_list()
    for link in links:
        para = nodes.paragraph("", "", nodes.reference("", link["title"], refuri=link["uri"], internal=True))
        para += nodes.Text(_suffix(link))
        items += nodes.list_item("", para)
    return items


def _suffix(link: dict[str, str]) -> str:
    year = f" ({link['year']})" if link["year"] else ""
    return year + (f" — {link['reason']}" if link["reason"] else "")


def visit_html(self: HTML5Translator, node: link_list) -> None:
    items = "".join(
        f'<li><p><a class="reference internal" href="{escape(link["uri"])}">{escape(link["title"])}</a>'
        f"{escape(_suffix(link))}</p></li>\n"
        for link in node["links"]
    )
    self.body.append(f'<ul class="{" ".join(node["classes"])}">\n{items}</ul>\n')
    raise nodes.SkipNode


def anchor_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None, content: Any = None
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{readinglist-anchor}`id```: an HTML id to link to, and not a target Sphinx registers.

    Registered targets (MyST's ``{#id}`` makes one) land in the standard domain, which scans
    them all for every document it reads: 16,657 author anchors made that 9% of a build at
    10,000 papers. The ids are the generator's own slugs.
    """
    return [nodes.inline("", "", ids=[nodes.make_id(text)])], []


def setup(app: Sphinx) -> None:
    app.add_node(link_list, html=(visit_html, None))
    app.add_directive("readinglist-links", LinkList)
    app.add_role("readinglist-anchor", anchor_role)
    app.connect("doctree-resolved", resolve)
