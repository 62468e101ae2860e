"""What a newcomer to a topic reads first ("Start here"), each paper with the reason it is there.

Three reasons, in this order; at most ``MAX`` papers, and never one without a reason (a short
list is honest, a padded one is not):

1. the list owner's own word: a note's ``rating`` of ``MIN_RATING`` or more, or a top
   ``priority`` (1, ``high``, ``top``…);
2. the most connected paper: related to the most other papers of the topic (at least
   ``MIN_LINKS``), versions of one system counting once;
3. the first version of a system with several versions in the topic, which introduced it.

Versions of one system are one entry: the topic page shows them as one card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..model import Paper

MAX = 3
MIN_RATING = 4
MIN_LINKS = 3
TOP_PRIORITY = 1
# Priorities written as words, ranked as numbers are (the smaller, the sooner).
PRIORITY_WORDS = {"top": 0, "highest": 0, "urgent": 0, "high": 1, "medium": 2, "normal": 2, "low": 3, "lowest": 4}


def priority_rank(value: object) -> int | None:
    """A note's ``priority`` as a rank, the smaller the sooner (1 or ``high`` before 2 or
    ``medium``); None for a value that names no rank."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().casefold()
        return int(word) if word.isdigit() else PRIORITY_WORDS.get(word)
    return None


def version_sets(papers: Sequence[Paper]) -> list[list[Paper]]:
    """The papers grouped by version links among them (connected components), each group in the
    order of ``papers`` and the groups in the order of their first paper."""
    keys = [p.key for p in papers]  # a property: read once a paper, for lists of thousands
    root = dict(zip(keys, keys, strict=True))

    def find(key: str) -> str:
        while root[key] != key:
            root[key] = root[root[key]]
            key = root[key]
        return key

    for key, paper in zip(keys, papers, strict=True):
        for other in paper.versions:
            if other in root:
                root[find(other)] = find(key)
    groups: dict[str, list[Paper]] = {}
    for key, paper in zip(keys, papers, strict=True):
        groups.setdefault(find(key), []).append(paper)
    return list(groups.values())


def start_here(papers: Sequence[Paper], notes: Mapping[str, Mapping[str, Any]], scope: str) -> list[tuple[Paper, str]]:
    """Up to ``MAX`` (paper, reason) pairs among ``papers`` (a topic's); ``notes`` holds each note's
    front matter by page slug; ``scope`` names the page in a reason ("topic", "subtopic")."""
    groups = version_sets(papers)
    group_of = {p.key: i for i, group in enumerate(groups) for p in group}
    chosen: list[tuple[Paper, str]] = []
    taken: set[int] = set()
    candidates = [*_noted(papers, notes), *_connected(papers, group_of, scope), *_first_versions(groups)]
    for paper, reason in candidates:
        if group_of[paper.key] not in taken and len(chosen) < MAX:
            taken.add(group_of[paper.key])
            chosen.append((paper, reason))
    return chosen


def _noted(papers: Iterable[Paper], notes: Mapping[str, Mapping[str, Any]]) -> list[tuple[Paper, str]]:
    ranked = []
    for paper in papers:
        meta = notes.get(paper.slug, {})
        rating = meta.get("rating") if isinstance(meta.get("rating"), int) else None
        rank = priority_rank(meta.get("priority"))
        said = [f"rated {rating}/5" if rating and rating >= MIN_RATING else ""]
        said.append(f"priority {meta['priority']}" if rank is not None and rank <= TOP_PRIORITY else "")
        if any(said):
            order = (-(rating or 0), rank if rank is not None else TOP_PRIORITY + 1, _year(paper), paper.key)
            ranked.append((order, paper, " and ".join(s for s in said if s) + " in the notes"))
    return [(paper, reason) for _, paper, reason in sorted(ranked, key=lambda r: r[0])]


def _connected(papers: Sequence[Paper], group_of: Mapping[str, int], scope: str) -> list[tuple[Paper, str]]:
    """The paper related to the most other papers of the topic (versions of one system count once)."""
    best: tuple[tuple[int, int, int, str], Paper, int] | None = None
    for paper in papers:
        links = {group_of[link.key] for link in paper.related if link.key in group_of} - {group_of[paper.key]}
        order = (-len(links), -len(paper.related), _year(paper), paper.key)
        if len(links) >= MIN_LINKS and (best is None or order < best[0]):
            best = (order, paper, len(links))
    if best is None:
        return []
    return [(best[1], f"related to {best[2]} other papers in this {scope} (none here has more)")]


def _first_versions(groups: Sequence[Sequence[Paper]]) -> list[tuple[Paper, str]]:
    """The earliest version of each system with several, when one year comes first alone."""
    found = []
    for group in groups:
        dated = sorted((p for p in group if p.work.year), key=_year)
        if len(group) < 2 or not dated or (len(dated) > 1 and dated[0].work.year == dated[1].work.year):
            continue
        first = dated[0]
        reason = f"the earliest of {len(group)} versions of {first.system or 'this work'}"
        found.append(((-len(group), _year(first), first.key), first, reason))
    return [(paper, reason) for _, paper, reason in sorted(found, key=lambda f: f[0])]


def _year(paper: Paper) -> int:
    return paper.work.year or 10_000  # undated last
