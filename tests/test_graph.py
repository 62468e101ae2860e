"""Related-work graphs: the generator's layout (render/graph.py), the SVG (render/graphsvg.py), the switch."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import copy_seeds
from readinglist.model import Link, Paper, Work
from readinglist.render.graph import (
    PAPER_NODES,
    TOPIC_NODES,
    TOPIC_SIZE,
    edge_kind,
    paper_graph,
    short_label,
    topic_graph,
)
from readinglist.render.graphsvg import figure

SVG = "{http://www.w3.org/2000/svg}"
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _shown(text: str) -> str:
    """Text as the SVG shows it: without what XML cannot hold, on one line."""
    return " ".join(NOT_XML.sub("", text).split())


def _paper(key: str, related: tuple[tuple[str, str], ...] = (), title: str = "", year: int | None = 2020) -> Paper:
    work = Work(key=key, title=title or f"Title of {key}", year=year)
    links = tuple(Link(k, why) for k, why in related)
    return Paper(work, key, (), False, "", (), "", (), related=links)


def _data(block: str) -> dict[str, Any]:
    """The JSON of a ``{readinglist-graph}`` block."""
    lines = block.splitlines()
    assert lines[0].endswith("{readinglist-graph}") and len(lines) == 3
    data: dict[str, Any] = json.loads(lines[1])
    return data


def _graph(data: dict[str, Any] | None) -> dict[str, Any]:
    """A paper's graph: data for its page's data file (render/paper.related_data), as JSON reads it back."""
    assert data is not None
    back: dict[str, Any] = json.loads(json.dumps(data))
    return back


def test_a_paper_graph_has_its_related_papers_and_the_links_among_them() -> None:
    a = _paper("a", (("b", "another version (identical title, 2019 and 2020)"), ("c", "shared authors: Wei Lin")))
    b = _paper("b", (("a", "another version (identical title, 2019 and 2020)"), ("c", "similar content (x)")))
    c = _paper("c", (("a", "shared authors: Wei Lin"), ("b", "similar content (x)")))
    data = _graph(paper_graph(a, {p.key: p for p in (a, b, c)}))
    assert [n[0] for n in data["nodes"]] == ["papers/a", "papers/b", "papers/c"]
    assert [n[5] for n in data["nodes"]] == [1, 0, 0]  # the paper itself is in the middle
    assert data["edges"] == [
        [0, 1, "version", "another version (identical title, 2019 and 2020)"],
        [0, 2, "authors", "shared authors: Wei Lin"],
        [1, 2, "content", "similar content (x)"],
    ]  # each symmetric link once, with its reason
    assert paper_graph(a, {p.key: p for p in (a, b, c)}) == paper_graph(a, {p.key: p for p in (c, b, a)})
    assert paper_graph(_paper("alone"), {}) is None
    many = {f"m{i:02d}": _paper(f"m{i:02d}") for i in range(PAPER_NODES + 5)}
    hub = _graph(paper_graph(_paper("hub", tuple((k, "similar content (x)") for k in many)), many))
    assert len(hub["nodes"]) == PAPER_NODES + 1 and hub["more"] == 5  # the first of its links, and a count
    same = {k: _paper(k, title="Same title", year=y) for k, y in (("s1", 2019), ("s2", 2020))}
    other = _paper("o", (("s1", "similar content (x)"), ("s2", "similar content (x)")), title="Other")
    labels = [n[1] for n in _graph(paper_graph(other, same))["nodes"]]
    assert labels == ["Other", "Same title (2019)", "Same title (2020)"]  # versions told apart by their year


def test_edge_kinds_and_labels() -> None:
    assert edge_kind("another version of X (the titles name the same system)") == "version"
    assert edge_kind("shared authors: A; similar content (b)") == "authors"
    assert edge_kind("similar content (shared terms: a, b)") == "content"
    long = _paper("k", title="A very long title about graphs and their many layouts")
    assert short_label(long) == "A very long title…"
    assert len(short_label(_paper("k", title="x" * 80))) <= 22


def test_a_topic_graph_shows_its_most_linked_papers_inside_the_box() -> None:
    n = TOPIC_NODES + 10
    keys = [f"p{i:02d}" for i in range(n)]
    # A chain, plus a hub linked to the first half: the hub and the chain's middle are the most linked.
    links = {k: {keys[j] for j in (i - 1, i + 1) if 0 <= j < n} for i, k in enumerate(keys)}
    links["p00"] |= set(keys[1 : n // 2])
    for k in keys[1 : n // 2]:
        links[k].add("p00")
    papers = [_paper(k, tuple((o, "similar content (t)") for o in sorted(links[k]))) for k in keys]
    data = _data(topic_graph(papers))
    assert len(data["nodes"]) == TOPIC_NODES and data["nodes"][0][0] == "papers/p00"
    for _, _, _, x, y, _ in data["nodes"]:
        assert abs(x) <= TOPIC_SIZE[0] / 2 + 0.1 and abs(y) <= TOPIC_SIZE[1] / 2 + 0.1
    assert topic_graph(list(reversed(papers))) == topic_graph(papers)  # deterministic, whatever the order
    assert topic_graph([_paper("x"), _paper("y")]) == ""  # no links inside the topic: no graph


record_text = st.text(st.characters(), max_size=40)


@settings(max_examples=200, deadline=None)
@given(titles=st.lists(st.tuples(record_text, record_text, record_text), min_size=2, max_size=6), href=record_text)
def test_no_record_text_can_add_markup_to_the_svg(titles: list[tuple[str, str, str]], href: str) -> None:
    """Labels, titles, reasons and URIs of any text: the figure is well-formed XML with exactly the
    elements the writer draws, and every text reads back as given (less what XML cannot hold)."""
    nodes = [["papers/x", label, title, 10.0 * i, 5.0 * i, int(i == 0)] for i, (label, title, _) in enumerate(titles)]
    edges = [[0, i, "content", reason] for i, (_, _, reason) in enumerate(titles) if i]
    html = figure({"kind": "paper", "nodes": nodes, "edges": edges}, ["", *[href] * (len(nodes) - 1)])
    root = ET.fromstring(html)
    tags = [e.tag.replace(SVG, "") for e in root.iter()]
    links = len(nodes) - 1 if href else 0
    expected = {"figure": 1, "div": 1, "svg": 1, "figcaption": 1, "a": links, "circle": len(nodes), "line": len(edges)}
    expected |= {"g": 2 + len(edges) + len(nodes) - links, "title": len(nodes) + len(edges)}
    expected |= {"text": len(nodes) + len(edges)}
    assert {t: tags.count(t) for t in set(tags)} == {t: c for t, c in expected.items() if c}
    shown = [e.text or "" for e in root.iter(f"{SVG}title")]
    assert shown == [_shown(r) for _, _, r in titles[1:]] + [_shown(t) for _, t, _ in titles]
    assert [a.get("href") for a in root.iter(f"{SVG}a")] == [_shown(href)] * links


def test_graph_switch(tmp_path: Path) -> None:
    """On by default; ``[site] graph = false`` writes no graph on any page."""
    from readinglist.cli import main

    project = copy_seeds(tmp_path / "seeds")
    assert main(["--root", str(project), "generate"]) == 0
    paper = (project / "docs" / "papers" / "lin2018fusionstitching.md").read_text(encoding="utf-8")
    assert "{readinglist-graph}" in paper
    data = json.loads((project / "docs" / "related" / "lin2018fusionstitching.json").read_text(encoding="utf-8"))
    assert data["graph"]["kind"] == "paper"  # the page's block names its data file's graph
    assert any("{readinglist-graph}" in p.read_text(encoding="utf-8") for p in (project / "docs/topics").rglob("*.md"))
    settings_file = project / "conf" / "readinglist.toml"
    settings_file.write_text(settings_file.read_text(encoding="utf-8") + "graph = false\n", encoding="utf-8")
    assert main(["--root", str(project), "generate"]) == 0
    assert not any("{readinglist-graph}" in p.read_text(encoding="utf-8") for p in (project / "docs").rglob("*.md"))
    data_files = list((project / "docs" / "related").glob("*.json"))
    assert data_files and all(json.loads(p.read_text(encoding="utf-8"))["graph"] is None for p in data_files)
