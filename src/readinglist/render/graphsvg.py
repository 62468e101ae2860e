"""A related-work graph as inline SVG: no script, links a keyboard reaches, colours from the theme.

Every node is an SVG ``<a>`` (focusable, in the order the related list gives) whose ``<title>`` is
its accessible name; each edge has its reason as a ``<title>`` and, on a paper's graph, a visible
short label. Record text (titles, reasons) is XML-escaped here, and characters XML cannot hold
are dropped, so no title can add markup to the page. Colours are the theme's CSS variables
(site/static/readinglist-graph.css), so light and dark both work.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

# Characters XML 1.0 cannot hold (C0 controls but tab and line breaks, surrogates, U+FFFE/F).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
CHAR_WIDTH = 0.6  # of the font size: a generous average, so labels stay inside the viewBox
FONT, EDGE_FONT = 12.0, 10.0
NODE_R, CENTRE_R = 7.0, 10.0
CAPTION_ID = "rl-graph-caption"  # one graph per page
LEGEND = "solid line: another version; dashed: shared authors; dotted: similar content"


def text(value: object) -> str:
    """Record text as XML character data or an attribute value."""
    return escape(_NOT_XML.sub("", str(value)), quote=True)


def figure(data: dict[str, Any], hrefs: Sequence[str]) -> str:
    """The graph in a ``<figure>`` whose caption names it and points to its text alternative.

    ``data``: the generator's block (render/graph.py); ``hrefs``: each node's URI, or "" for none.
    """
    nodes, edges = data["nodes"], data["edges"]
    paper = data["kind"] == "paper"
    labels = [_label(n, paper) for n in nodes]
    body = [
        '<g class="rl-edges" aria-hidden="true">',
        *(_edge(e, nodes, paper) for e in edges),
        '</g><g class="rl-nodes">',
        *(_node(n, href, label) for n, href, label in zip(nodes, hrefs, labels, strict=True)),
        "</g>",
    ]
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_viewbox(labels)}" role="group" '
        f'aria-labelledby="{CAPTION_ID}">{"".join(body)}</svg>'
    )
    return (
        f'<figure class="rl-graph rl-graph-{text(data["kind"])}" data-pagefind-ignore="all">'
        f'<div class="rl-graph-scroll">{svg}</div>'
        f'<figcaption id="{CAPTION_ID}">{_caption(paper, len(nodes))}</figcaption></figure>\n'
    )


def _caption(paper: bool, n: int) -> str:
    if paper:
        return (
            "Graph of this paper (in the middle) and its related papers; each line is a link with its reason "
            f"({LEGEND}). The lists above give the same links in words."
        )
    return (
        f"Graph of the {n} most linked papers of this page and the links among them ({LEGEND}). "
        "Each paper's page lists its related papers with the reasons."
    )


def _label(node: Sequence[Any], paper: bool) -> tuple[float, float, str, str]:
    """Where a node's visible label goes: beside it, away from the middle, on a paper's graph;
    under it on a topic's (x, y, anchor, text)."""
    x, y, label, centre = float(node[3]), float(node[4]), str(node[1]), bool(node[5])
    if centre or not paper:
        return x, y + (CENTRE_R if centre else NODE_R) + FONT + 2, "middle", label
    if abs(x) < 1:
        return x, y + (-NODE_R - 6 if y < 0 else NODE_R + FONT + 2), "middle", label
    return x + (NODE_R + 5) * (1 if x > 0 else -1), y + FONT / 3, "start" if x > 0 else "end", label


def _viewbox(labels: Sequence[tuple[float, float, str, str]]) -> str:
    """The box around every label (estimated from its length) and node, with a margin."""
    left, right, top, bottom = [], [], [], []
    for x, y, anchor, label in labels:
        width = len(label) * FONT * CHAR_WIDTH
        start = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        left.append(start)
        right.append(start + width)
        top.append(y - FONT - 2 * NODE_R - 4)
        bottom.append(y + 4)
    x0, y0 = min(left) - 8, min(top) - 8
    return f"{x0:.1f} {y0:.1f} {max(right) + 8 - x0:.1f} {max(bottom) + 8 - y0:.1f}"


def _edge(edge: Sequence[Any], nodes: Sequence[Sequence[Any]], paper: bool) -> str:
    a, b, kind, reason = int(edge[0]), int(edge[1]), str(edge[2]), str(edge[3])
    (x1, y1), (x2, y2) = ((float(nodes[i][3]), float(nodes[i][4])) for i in (a, b))
    line = f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
    label = (
        f'<text x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2:.1f}" text-anchor="middle">{text(kind)}</text>'
        if paper
        else ""
    )
    return f'<g class="rl-edge rl-{text(kind)}"><title>{text(reason)}</title>{line}{label}</g>'


def _node(node: Sequence[Any], href: str, label: tuple[float, float, str, str]) -> str:
    x, y, title, centre = float(node[3]), float(node[4]), str(node[2]), bool(node[5])
    lx, ly, anchor, words = label
    inner = (
        f"<title>{text(title)}</title>"
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CENTRE_R if centre else NODE_R}"/>'
        f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">{text(words)}</text>'
    )
    if centre or not href:
        return f'<g class="rl-node{" rl-centre" * centre}">{inner}</g>'
    return f'<a class="rl-node" href="{text(href)}">{inner}</a>'
