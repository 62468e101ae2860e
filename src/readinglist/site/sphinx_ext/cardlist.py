"""The ``readinglist-cards`` directive: a topic page's paper cards as one node, written as a grid.

A topic page lists hundreds of papers as cards. As sphinx-design's ``{grid-item-card}``
directives each card was parsed as nested Markdown into a dozen nodes that every transform
walked, and a reading status change re-reads the topic pages that show the paper. The
generator writes the cards as data instead (one JSON object per line, ``render/cards.py``), and
the HTML writer turns the node into the markup sphinx-design writes for a grid of cards with
stretched links, so its CSS, the selection script and the search's exclusions apply unchanged.
A card's title is its heading one level below the section's (what ``a11y.py`` does for the
other cards). Record text is escaped here, as it always is. Other builders get a bullet list.
"""

from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from ...compat import section_level
from ...render.workflow import LABELS, ROLES
from . import jsonlines, liststatus
from .warnings_ import Warn

GRID = (
    '<div class="sd-container-fluid sd-sphinx-override sd-mb-4 docutils">\n<div class="sd-row sd-row-cols-1 '
    "sd-row-cols-xs-1 sd-row-cols-sm-1 sd-row-cols-md-2 sd-row-cols-lg-2 sd-g-2 sd-g-xs-2 sd-g-sm-2 sd-g-md-2 "
    'sd-g-lg-2 docutils">\n'
)  # sphinx-design's ``{grid} 1 1 2 2`` with ``:gutter: 2``
CARD = (
    '<div class="sd-col sd-d-flex-row docutils">\n<div class="sd-card sd-sphinx-override sd-w-100 sd-shadow-sm{hover} '
    'docutils">\n<div class="sd-card-body docutils">\n'
)


class card_list(nodes.General, nodes.Element):  # type: ignore[misc]  # lower case, as docutils names nodes
    """``cards``: dicts of doc, title, meta, summary, status, versions; ``uri`` once resolved."""


class CardList(SphinxDirective):
    has_content = True

    def run(self) -> list[nodes.Node]:
        cards = jsonlines.items(self, _card, Warn.BAD_CARD_LINE, "a card")
        liststatus.shows(self.env, (doc for card in cards for doc in _docs(card)))  # each card's badge
        node = card_list(cards=cards)
        self.set_source_info(node)
        return [node]


def _card(item: dict[str, Any]) -> dict[str, Any]:
    """The card's fields as strings and lists of strings, whatever the JSON held."""
    summary = [[str(label), str(text)] for label, text in item.get("summary") or []]
    versions = [
        {"doc": str(v.get("doc") or ""), "label": str(v.get("label") or "")} for v in item.get("versions") or ()
    ]
    fields = {f: str(item.get(f) or "") for f in ("doc", "title", "meta", "status")}
    return {**fields, "summary": summary, "versions": versions}


def _docs(card: dict[str, Any]) -> list[str]:
    """The pages of a card's version group: its own and its other versions'."""
    return [card["doc"], *(v["doc"] for v in card["versions"])]


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Relative URIs for the cards whose page exists, and each card's status (one its line gives,
    else the furthest its versions' notes say: liststatus.py); a bullet list for builders other than HTML."""
    for node in list(doctree.findall(card_list)):
        kept = []
        for card in node["cards"]:
            if not _exists(app, card["doc"], node):
                continue
            versions = [{**v, "uri": _uri(app, docname, v)} for v in card["versions"] if _exists(app, v["doc"], node)]
            status = card["status"] or liststatus.furthest(app, _docs(card))
            kept.append({**card, "uri": _uri(app, docname, card), "versions": versions, "status": status})
        node["cards"] = kept
        if app.builder.format != "html":
            node.replace_self(_bullet_list(kept))


def _uri(app: Sphinx, docname: str, item: dict[str, Any]) -> str:
    return app.builder.get_relative_uri(docname, item["doc"])


def _exists(app: Sphinx, doc: str, node: card_list) -> bool:
    return jsonlines.page_exists(app, doc, node, "card of")


def _bullet_list(cards: list[dict[str, Any]]) -> nodes.bullet_list:
    items = nodes.bullet_list()
    for card in cards:
        para = nodes.paragraph("", "", nodes.reference("", card["title"], refuri=card["uri"], internal=True))
        para += nodes.Text(f" — {card['meta']}")
        items += nodes.list_item("", para)
    return items


def visit_html(self: HTML5Translator, node: card_list) -> None:
    level = section_level(self) + 1  # the section's heading is h<section_level>
    self.body.append(GRID + "".join(_card_html(card, level) for card in node["cards"]) + "</div>\n</div>\n")
    raise nodes.SkipNode


def _card_html(card: dict[str, Any], level: int) -> str:
    """One card as sphinx-design writes a ``{grid-item-card}``: a stretched link unless it lists versions."""
    title, uri = escape(card["title"]), escape(card["uri"])
    linked = not card["versions"]  # a version group's title is its link: a stretched one would cover the others
    heading = title if linked else f'<a class="reference internal" href="{uri}">{title}</a>'
    lines = [f'<p class="sd-card-text" role="heading" aria-level="{level}"><strong>{heading}</strong></p>']
    lines.append(f'<p class="sd-card-text">{_badge(card["status"])}<em>{escape(card["meta"])}</em></p>')
    lines += [_summary_line(label, text) for label, text in card["summary"]]
    lines += [_versions_line(card["versions"])] if card["versions"] else []
    body = "\n".join(lines)
    if not linked:
        return f"{CARD.format(hover='')}{body}\n</div>\n</div>\n</div>\n"
    stretched = f'<a class="sd-stretched-link sd-hide-link-text reference internal" href="{uri}">{title}</a>'
    return f"{CARD.format(hover=' sd-card-hover')}{body}\n</div>\n{stretched}</div>\n</div>\n"


def _versions_line(versions: list[dict[str, str]]) -> str:
    links = (f'<a class="reference internal" href="{escape(v["uri"])}">{escape(v["label"])}</a>' for v in versions)
    return f'<p class="sd-card-text">Other versions: {", ".join(links)}</p>'


def _badge(status: str) -> str:
    """The status's badge as sphinx-design's ``{bdg-…}`` role writes it; nothing for no status."""
    if status not in ROLES:
        return ""
    colour = ROLES[status].removeprefix("bdg-")
    return (
        f'<span class="sd-sphinx-override sd-badge sd-bg-{colour} sd-bg-text-{colour}">{escape(LABELS[status])}</span> '
    )


def _summary_line(label: str, text: str) -> str:
    said = f"<strong>{escape(label)}:</strong> " if label else ""
    return f'<p class="sd-card-text">{said}{escape(text)}</p>'


def setup(app: Sphinx) -> None:
    app.add_node(card_list, html=(visit_html, None))
    app.add_directive("readinglist-cards", CardList)
    app.connect("doctree-resolved", resolve)
