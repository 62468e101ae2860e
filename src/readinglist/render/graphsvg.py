"""A related-work graph as inline SVG: no script, links a keyboard reaches, colours from the theme.

Every node is an SVG ``<a>`` (focusable, in the order the related list gives) whose ``<title>`` is
its accessible name; each edge has its reason as a ``<title>`` and, on a paper's graph, a visible
short label. Record text (titles, reasons) is XML-escaped here, and characters XML cannot hold
are dropped, so no title can add markup to the page. Colours are the theme's CSS variables
(site/static/readinglist-graph.css), so light and dark both work.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape
from typing import Any

# Characters XML 1.0 cannot hold (C0 controls but tab and line breaks, surrogates, U+FFFE/F).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
CHAR_WIDTH = 0.6  # of the font size: a generous average, so labels stay inside the viewBox
FONT = 12.0
NODE_R, CENTRE_R = 7.0, 10.0
MIN_WIDTH = 360.0
CAPTION_ID = "rl-graph-caption"  # one graph per page
LEGEND = "solid line: another version; dashed: shared authors; dotted: similar content"


def text(value: object) -> str:
    """Record text as XML character data or an attribute value, on one line (as it is shown)."""
    return escape(" ".join(_NOT_XML.sub("", str(value)).split()), quote=True)


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
    box = _viewbox(labels, nodes)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{" ".join(f"{v:.1f}" for v in box)}" '
        f'width="{box[2]:.0f}" height="{box[3]:.0f}" role="group" '
        f'aria-labelledby="{CAPTION_ID}">{"".join(body)}</svg>'
    )
    return (
        f'<figure class="rl-graph rl-graph-{text(data["kind"])}" data-pagefind-ignore="all">'
        f'<div class="rl-graph-scroll">{svg}</div>'
        f'<figcaption id="{CAPTION_ID}">{_caption(paper, len(nodes), int(data.get("more", 0)))}</figcaption>'
        "</figure>\n"
    )


def _caption(paper: bool, n: int, more: int) -> str:
    if paper:
        which = f"its first {n - 1} related papers, of {n - 1 + more}" if more else "its related papers"
        return (
            f"Graph of this paper (in the middle) and {which}; each line is a link with its reason "
            f"({LEGEND}). The lists above give every link in words."
        )
    which = f"the {n} most linked papers of this page, of {n + more} with links," if more else "this page's papers"
    return (
        f"Graph of {which} and the links among them ({LEGEND}). "
        "Each paper's page lists its related papers with the reasons."
    )


def _label(node: Sequence[Any], paper: bool) -> tuple[float, float, str, str]:
    """Where a node's visible label goes (x, y, anchor, text): centred under the node, or above it
    for the upper half of a paper's circle, so labels point away from the middle and the graph
    stays narrow enough for a phone."""
    x, y, label, centre = float(node[3]), float(node[4]), str(node[1]), bool(node[5])
    if paper and not centre and y < -1:
        return x, y - NODE_R - 5, "middle", label
    return x, y + (CENTRE_R if centre else NODE_R) + FONT + 2, "middle", label


def _viewbox(labels: Sequence[tuple[float, float, str, str]], nodes: Sequence[Sequence[Any]]) -> list[float]:
    """The box around every label (estimated from its length), node and bent link, with a margin,
    at least MIN_WIDTH wide (a topic's graph may be one column of papers)."""
    left, right, top, bottom = [], [], [], []
    for x, y, anchor, label in labels:
        width = len(label) * FONT * CHAR_WIDTH
        start = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        left.append(start)
        right.append(start + width)
        top.append(y - FONT - 2 * NODE_R - 4)
        bottom.append(y + 4)
    reach = 1.25 * max(math.hypot(float(n[3]), float(n[4])) for n in nodes)  # how far a bent link goes (_bend)
    x0, x1 = min(*left, -reach / 2) - 8, max(*right, reach / 2) + 8
    y0, y1 = min(*top, -reach / 2 - 10) - 8, max(*bottom, reach / 2 + 10) + 8
    grow = max(0.0, MIN_WIDTH - (x1 - x0)) / 2
    return [x0 - grow, y0, x1 - x0 + 2 * grow, y1 - y0]


def _edge(edge: Sequence[Any], nodes: Sequence[Sequence[Any]], paper: bool) -> str:
    a, b, kind, reason = int(edge[0]), int(edge[1]), str(edge[2]), str(edge[3])
    (x1, y1), (x2, y2) = ((float(nodes[i][3]), float(nodes[i][4])) for i in (a, b))
    bend = paper and not (nodes[a][5] or nodes[b][5])
    (cx, cy), (mx, my) = _bend(x1, y1, x2, y2) if bend else ((0.0, 0.0), ((x1 + x2) / 2, (y1 + y2) / 2))
    line = (
        f'<path d="M{x1:.1f},{y1:.1f} Q{cx:.1f},{cy:.1f} {x2:.1f},{y2:.1f}"/>'
        if bend
        else f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
    )
    # Visible only on the paper's own links: between neighbours, labels would crowd the middle.
    shown = paper and not bend
    label = f'<text x="{mx:.1f}" y="{my:.1f}" text-anchor="middle">{text(kind)}</text>' if shown else ""
    return f'<g class="rl-edge rl-{text(kind)}"><title>{text(reason)}</title>{line}{label}</g>'


def _bend(x1: float, y1: float, x2: float, y2: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """A link between two neighbours on a paper's graph bends outwards, away from the paper in
    the middle (a straight line between opposite neighbours would cross it): the curve's control
    point and its middle, where the label goes."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(mx, my)
    if length > 1:
        ux, uy = mx / length, my / length
    else:  # opposite neighbours: bend to one side of the chord
        chord = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (y1 - y2) / chord, (x2 - x1) / chord
    reach = 1.25 * max(math.hypot(x1, y1), math.hypot(x2, y2))
    cx, cy = ux * reach, uy * reach
    return (cx, cy), ((mx + cx) / 2, (my + cy) / 2)


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
