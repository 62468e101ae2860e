"""The ``readinglist-links`` directive (a list of papers as one node) and the anchor role.

A paper page lists a dozen related papers or more. As Markdown each item is a list item,
a paragraph, a reference and three text nodes, and every Sphinx and docutils transform
walks them all: the related lists were a third of a paper page's nodes. The generator
writes the list as data instead (one JSON object per line: ``doc``, ``title``, ``year``,
``reason``, or ``status`` for a reason that is the paper's reading status, filled in as the page
is written: liststatus.py), and this directive keeps it as a single node that the HTML writer renders.
Titles and reasons are escaped here, as record text always is. Other builders get an
ordinary bullet list.
"""

from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from . import jsonlines, liststatus, pagedata
from .warnings_ import Warn

FIELDS = ("doc", "title", "year", "reason")


class link_list(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``links``: dicts of FIELDS, plus ``uri`` once resolved."""


class LinkList(SphinxDirective):
    """The links are the block's lines, or with ``:data: KEY`` the page's data file's KEY (pagedata.py)."""

    has_content = True
    option_spec = {"data": directives.unchanged_required}  # noqa: RUF012 (docutils' own class attribute)

    def run(self) -> list[nodes.Node]:
        classes = ["simple", "readinglist-links"]
        if "data" in self.options:
            return [link_list(links=[], data=self.options["data"], data_file=pagedata.shows(self.env), classes=classes)]
        links = jsonlines.items(self, _link, Warn.BAD_LINK_LINE, "a link")
        if said := [link["doc"] for link in links if link["status"]]:
            liststatus.shows(self.env, said)
        return [link_list(links=links, classes=classes)]


def _link(item: dict[str, Any]) -> dict[str, Any]:
    fields = {f: str(item.get(f) or "") for f in FIELDS}
    return {**fields, "status": item.get("status") is True, "versions": _versions(item.get("versions"))}


def _versions(value: Any) -> list[dict[str, str]]:
    """Optional ``versions`` links (other versions the By year page folds into one item): doc and label."""
    items = value if isinstance(value, list) else []
    return [{"doc": str(i.get("doc") or ""), "label": str(i.get("label") or "")} for i in items if isinstance(i, dict)]


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Relative URIs for the links whose page exists; a bullet list for builders other than HTML."""
    for node in list(doctree.findall(link_list)):
        if node.get("data"):
            node["links"] = _from_data(app, node)
        kept = []
        for link in node["links"]:
            if not _exists(app, link, node):
                continue
            if link.get("status"):  # a doctree read by an older version has no "status"
                link = {**link, "reason": liststatus.said(app, link["doc"])}
            versions = [
                {**a, "uri": app.builder.get_relative_uri(docname, a["doc"])}
                for a in link["versions"]
                if _exists(app, a, node)
            ]
            kept.append({**link, "uri": app.builder.get_relative_uri(docname, link["doc"]), "versions": versions})
        node["links"] = kept
        if app.builder.format != "html":
            node.replace_self(_bullet_list(kept))


def _from_data(app: Sphinx, node: link_list) -> list[dict[str, Any]]:
    """The links of the page's data file, each checked as a block's line is (no status: paper pages show none)."""
    found = pagedata.value(app, node, node["data"])
    if not isinstance(found, list):
        return []
    links = []
    for item in found:
        try:
            if not isinstance(item, dict):
                raise TypeError("not a JSON object")
            links.append({**_link(item), "status": False})
        except (AttributeError, TypeError):
            Warn.BAD_PAGE_DATA.log("not a link in %s: %r", node["data_file"], item, location=node)
    return links


def _exists(app: Sphinx, link: dict[str, Any], node: link_list) -> bool:
    return jsonlines.page_exists(app, link["doc"], node, "link to")


def _bullet_list(links: list[dict[str, Any]]) -> nodes.bullet_list:
    items = nodes.bullet_list()
    for link in links:
        para = nodes.paragraph("", "", nodes.reference("", link["title"], refuri=link["uri"], internal=True))
        para += nodes.Text(_suffix(link))
        for i, version in enumerate(link["versions"]):
            para += nodes.Text(", " if i else " — other versions: ")
            para += nodes.reference("", version["label"], refuri=version["uri"], internal=True)
        items += nodes.list_item("", para)
    return items


def _suffix(link: dict[str, Any]) -> str:
    year = f" ({link['year']})" if link["year"] else ""
    return year + (f" — {link['reason']}" if link["reason"] else "")


def visit_html(self: HTML5Translator, node: link_list) -> None:
    items = "".join(
        f'<li><p><a class="reference internal" href="{escape(link["uri"])}">{escape(link["title"])}</a>'
        f"{escape(_suffix(link))}{_versions_html(link['versions'])}</p></li>\n"
        for link in node["links"]
    )
    self.body.append(f'<ul class="{" ".join(node["classes"])}">\n{items}</ul>\n')
    raise nodes.SkipNode


def _versions_html(versions: list[dict[str, str]]) -> str:
    links = (f'<a class="reference internal" href="{escape(a["uri"])}">{escape(a["label"])}</a>' for a in versions)
    return f" — other versions: {', '.join(links)}" if versions else ""


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
