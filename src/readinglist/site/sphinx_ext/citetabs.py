"""The ``readinglist-cite`` directive: a paper's Cite menu as one node, written as a tab set.

The menu has a tab per format (BibTeX, BibLaTeX, RIS, CSL-JSON, ACL, plain text, Markdown),
each a code block. Written as sphinx-design's ``{tab-set}`` of ``{tab-item}`` blocks, every
tab was parsed as nested Markdown into a dozen nodes that every transform walked: a sixth of
a paper page's build. The generator writes the tabs as data (one JSON object per line:
``label``, ``lexer``, ``text``, see ``render/cite.py``), and the HTML writer turns the node into
the markup sphinx-design would have written (its CSS and the copy buttons apply unchanged),
highlighting each text as Sphinx highlights a code block. Texts and labels are escaped here,
as record text always is. Other builders get a literal block per tab.
"""

from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from pygments import highlight
from pygments.filters import ErrorToken
from pygments.formatter import Formatter
from sphinx.application import Sphinx
from sphinx.highlighting import PygmentsBridge
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from ...compat import shared_formatter
from . import jsonlines
from .warnings_ import Warn

FIELDS = ("label", "lexer", "text")
NAME = "readinglist-cite"  # the tab set's radio group and id prefix: sphinx-design's own ids are per page


class cite_tabs(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``tabs``: dicts of FIELDS."""


class CiteTabs(SphinxDirective):
    has_content = True

    def run(self) -> list[nodes.Node]:
        tabs = jsonlines.items(self, _tab_fields, Warn.BAD_CITE_LINE, "a Cite tab")
        node = cite_tabs(tabs=[t for t in tabs if t["text"]], classes=["sd-tab-set", NAME])
        self.set_source_info(node)
        return [node]


def _tab_fields(item: dict[str, Any]) -> dict[str, str]:
    return {f: str(item.get(f) or "") for f in FIELDS}


def plain(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """For builders other than HTML: the tab label as a paragraph and the text as a literal block."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(cite_tabs)):
        blocks: list[nodes.Node] = []
        for tab in node["tabs"]:
            blocks += [nodes.paragraph("", tab["label"]), nodes.literal_block(tab["text"], tab["text"])]
        node.replace_self(blocks)


def visit_html(self: HTML5Translator, node: cite_tabs) -> None:
    self.body.append(f'<div class="{" ".join(node["classes"])} docutils">\n')
    for i, tab in enumerate(node["tabs"]):
        self.body.append(_tab(i, tab, _highlighted(self, tab, node)))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _tab(i: int, tab: dict[str, str], code: str) -> str:
    """One tab as sphinx-design writes it: a radio input, its label, then its panel."""
    tab_id = f"{NAME}-{i}"
    checked = 'checked="checked" ' if i == 0 else ""
    return (
        f'<input {checked}id="{tab_id}" name="{NAME}" type="radio">\n'
        f'<label aria-controls="{tab_id}-content" class="sd-tab-label" for="{tab_id}">\n{escape(tab["label"])}</label>'
        f'<div class="sd-tab-content docutils" id="{tab_id}-content">\n{code}</div>\n'
    )


def _highlighted(self: HTML5Translator, tab: dict[str, str], node: cite_tabs) -> str:
    """The text as Sphinx writes a code block in that language (Pygments escapes it)."""
    lexer_name = tab["lexer"] if tab["lexer"].isidentifier() else "text"  # the tool's own names; a class name
    bridge = self.highlighter
    lexer = bridge.get_lexer(tab["text"], lexer_name, None, False, node)  # Sphinx keeps one per language
    try:
        code = highlight(tab["text"], lexer, _formatter(bridge))
    except ErrorToken:  # text the lexer refuses: Sphinx's own retry, and its warning
        code = bridge.highlight_block(tab["text"], lexer_name, location=node)
    return f'<div class="highlight-{lexer_name} notranslate">{code}</div>\n'


def _formatter(bridge: PygmentsBridge) -> Formatter:
    """One HTML formatter per build: Sphinx makes one per code block, and making one builds its
    style's whole stylesheet (3% of a full build at 1,000 papers, seven blocks a page)."""
    made: Formatter = shared_formatter(bridge)
    return made


def setup(app: Sphinx) -> None:
    app.add_node(cite_tabs, html=(visit_html, None))
    app.add_directive("readinglist-cite", CiteTabs)
    app.connect("doctree-resolved", plain)
