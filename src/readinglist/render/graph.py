"""Related-work graphs: a paper and its neighbours, a topic's most connected papers.

The generator lays each graph out here, deterministically (no random start: the same links give
the same picture, so an unchanged page is not rewritten), and writes it into the page as data,
a ``{readinglist-graph}`` block of one JSON line. The Sphinx extension (site/graphnode.py)
resolves the links and draws the SVG (render/graphsvg.py). The edges are the related links the
page already lists, each with its reason: that list is the graph's text alternative.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np

from ..model import Paper
from .escape import Md, clean, fence
from .links import PAPERS, display_title

PAPER_NODES = 12  # a paper's graph shows the first of its related papers (versions first), as a circle can
TOPIC_NODES = 30  # a topic's graph shows its most connected papers: more is unreadable on a phone
LABEL_CHARS = 22  # a node's visible label; its full title is the link's accessible name
RADIUS = 130.0  # a paper's neighbours sit on a circle around it
TOPIC_SIZE = (640.0, 420.0)  # the box a topic's layout is scaled into
KINDS = ("version", "authors", "content")  # the order links are listed in (enrich/related.py)


def edge_kind(reason: str) -> str:
    """The short label of a link's reason: its first reason, as the related list orders them."""
    if reason.startswith("another version"):
        return "version"
    return "authors" if reason.startswith("shared authors") else "content"


def short_label(paper: Paper) -> str:
    """The system a title names, or the title cut at a word to LABEL_CHARS."""
    title = clean(paper.system) or display_title(paper)
    if len(title) <= LABEL_CHARS:
        return title
    cut = title[: LABEL_CHARS - 1].rsplit(" ", 1)[0] or title[: LABEL_CHARS - 1]
    return cut.rstrip(" ,:;-") + "…"


def _node(paper: Paper, xy: tuple[float, float], centre: bool = False) -> list[object]:
    year = f" ({paper.work.year})" if paper.work.year else ""
    return [f"{PAPERS}/{paper.slug}", short_label(paper), display_title(paper) + year, *map(_r, xy), int(centre)]


def _r(value: float) -> float:
    return round(float(value), 1)


Edge = tuple[int, int, str, str]  # two nodes' indexes, the kind of link, its reason
Graph = dict[str, object]  # the graph's data: what site/sphinx_ext/graphnode.py draws


def _data(nodes: list[list[object]], edges: list[Edge], kind: str, papers: Sequence[Paper], more: int) -> Graph:
    """``more``: how many papers the graph leaves out (its caption says so)."""
    return {"kind": kind, "nodes": _told_apart(nodes, papers), "edges": [list(e) for e in edges], "more": more}


def _block(data: Graph) -> Md:
    return fence(json.dumps(data, separators=(",", ":")), "{readinglist-graph}")  # ASCII: no line breaks


def _told_apart(nodes: list[list[object]], papers: Sequence[Paper]) -> list[list[object]]:
    """Labels two nodes share ("FusionStitching", three versions of one system) get their year."""
    labels = [str(n[1]) for n in nodes]
    for node, paper in zip(nodes, papers, strict=True):
        if labels.count(str(node[1])) > 1 and paper.work.year:
            node[1] = f"{node[1]} ({paper.work.year})"
    return nodes


def paper_graph(paper: Paper, by_key: dict[str, Paper]) -> Graph | None:
    """The paper in the middle, its first PAPER_NODES related papers around it in the related
    list's order, with the links among them too; None when it has none. Data, not a block: it
    goes into the page's data file with its related lists (render/paper.py)."""
    linked = [by_key[link.key] for link in paper.related if link.key in by_key]
    near = linked[:PAPER_NODES]
    if not near:
        return None
    angles = [2 * math.pi * i / len(near) - math.pi / 2 for i in range(len(near))]
    nodes = [_node(paper, (0.0, 0.0), centre=True)]
    nodes += [_node(p, (RADIUS * math.cos(a), RADIUS * math.sin(a))) for p, a in zip(near, angles, strict=True)]
    return _data(nodes, _edges([paper, *near]), "paper", [paper, *near], len(linked) - len(near))


def _edges(papers: Sequence[Paper]) -> list[Edge]:
    """Each related link between two of ``papers`` once (links are symmetric), with its reason."""
    index = {p.key: i for i, p in enumerate(papers)}
    edges: list[Edge] = []
    for i, paper in enumerate(papers):
        for link in paper.related:
            j = index.get(link.key)
            if j is not None and j > i:
                edges.append((i, j, edge_kind(link.reason), clean(link.reason)))
    return edges


def topic_graph(members: Sequence[Paper]) -> Md:
    """The topic's TOPIC_NODES papers with the most links inside it, and those links."""
    keys = {p.key for p in members}
    degree = {p.key: sum(link.key in keys for link in p.related) for p in members}
    linked = sorted((p for p in members if degree[p.key]), key=lambda p: (-degree[p.key], p.key))
    chosen = linked[:TOPIC_NODES]
    edges = _edges(chosen)
    if not edges:
        return Md("")
    xy = spring_layout(len(chosen), [(a, b) for a, b, _, _ in edges])
    nodes = [_node(p, (x, y)) for p, (x, y) in zip(chosen, xy, strict=True)]
    return _block(_data(nodes, edges, "topic", chosen, len(linked) - len(chosen)))


def spring_layout(n: int, edges: list[tuple[int, int]], iterations: int = 120) -> list[tuple[float, float]]:
    """Fruchterman and Reingold's force layout from a circle, scaled into TOPIC_SIZE.

    Thirty lines of numpy instead of networkx (its ``spring_layout`` is the same algorithm): a
    topic's graph has at most TOPIC_NODES nodes, and a fixed start makes it deterministic.
    """
    angles = 2 * np.pi * np.arange(n) / max(n, 1)
    pos = np.column_stack([np.cos(angles), np.sin(angles)])
    adjacency = np.zeros((n, n))
    for a, b in edges:
        adjacency[a, b] = adjacency[b, a] = 1.0
    k = 1.0 / math.sqrt(max(n, 1))
    for step in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        force = k * k / distance**2 - adjacency * distance / k  # repulsion, attraction along edges
        shift = np.einsum("ij,ijk->ik", force, delta)
        length = np.maximum(np.linalg.norm(shift, axis=-1), 1e-9)
        temperature = 0.1 * (1 - step / iterations)  # cooling: big moves first, then settle
        pos += shift / length[:, None] * np.minimum(length, temperature)[:, None]
    return _fit(pos)


def _fit(pos: np.ndarray) -> list[tuple[float, float]]:
    """Centred and scaled into TOPIC_SIZE, keeping the aspect ratio."""
    pos = pos - (pos.max(axis=0) + pos.min(axis=0)) / 2
    span = np.maximum(pos.max(axis=0) - pos.min(axis=0), 1e-9)
    scale = min(TOPIC_SIZE[0] / span[0], TOPIC_SIZE[1] / span[1])
    return [(float(x), float(y)) for x, y in pos * scale]
