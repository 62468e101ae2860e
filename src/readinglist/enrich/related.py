"""Cross-links that explain themselves: versions of one system, shared authors, similar content.

Versions: works naming one system with an author or similar text in common; works with an
identical title and another year or DOI (a preprint and its published paper); and works
refs.bib links with BibLaTeX's ``related`` field (as ``readinglist import`` writes it).

Everything here stays near-linear in the number of papers, whatever the titles and author
lists: a shared ``Name:`` prefix alone does not make versions, version groups are linked as
a band in year order (never all pairs), and a prolific author's papers are ranked from a
bounded window of them.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..latex import to_text
from ..model import Link, Work
from ..store.identity import identity_keys, other_version, version_of
from .credit import author_id
from .evidence import AUTHOR_LINKS, capped, distant, distinctive_df, enough, fields
from .similarity import Corpus

_SYSTEM = re.compile(r"^([^\s:]{2,40})\s*:")
# Similar content is weighed by what else the papers share: text alone, at this share of its
# cosine, must still pass the minimum score. No topic, author or version in common and only
# common words alike was a third of the seeds' links ("approach, improving, reduces").
UNSHARED_WEIGHT = 0.4
# Two papers naming one system are versions only with a listed author in common or text this
# similar (TF-IDF cosine of title and abstract): the seeds' three FusionStitching papers are
# 0.33-0.46, unrelated "Name: ..." papers far below.
SAME_TEXT = 0.3
VERSION_WINDOW = 2  # versions listed on either side of a paper, in year order: at most 4 per paper
AUTHOR_OFFERS = 10  # co-authored papers each paper offers for its shared-author links
CANDIDATES = 200  # papers of one author ranked for each of its papers (a window of a longer list)
NAMES_SHOWN = 10  # shared authors named in a link's reason


def system_name(work: Work) -> str:
    """The system a title names before its colon ("FusionStitching: ..."), if it looks like a name."""
    match = _SYSTEM.match(to_text(work.title))
    if not match:
        return ""
    name = match.group(1)
    return name if any(c.isupper() or c.isdigit() for c in name[1:]) else ""


def version_groups(works: list[Work], corpus: Corpus, ids: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Key -> its nearest versions by year (older first): works naming the same system, joined
    by shared listed authors or similar text, directly or through other versions."""
    edges = list(_version_evidence(works, corpus, [listed_authors(w, ids) for w in works]))
    edges += [*_title_evidence(works), *_linked_evidence(works)]
    rows, cols = (np.fromiter((e[k] for e in edges), dtype=np.int64, count=len(edges)) for k in (0, 1))
    graph = coo_matrix((np.ones(len(edges), dtype=np.int8), (rows, cols)), shape=(len(works), len(works)))
    _, labels = connected_components(graph, directed=False)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in {i for e in edges for i in e}:
        groups[int(labels[i])].append(i)
    out: dict[str, tuple[str, ...]] = {}
    for members in groups.values():
        ordered = sorted(members, key=lambda i: (works[i].year is None, works[i].year or 0, works[i].key))
        for at, i in enumerate(ordered):
            near = ordered[max(0, at - VERSION_WINDOW) : at] + ordered[at + 1 : at + 1 + VERSION_WINDOW]
            out[works[i].key] = tuple(works[j].key for j in near)
    return out


def _version_evidence(works: list[Work], corpus: Corpus, authors: list[set[str]]) -> Iterator[tuple[int, int]]:
    """Pairs naming one system that share an author (each paper joined to the author's previous
    one of that system: a chain, not all pairs) or are among each other's most similar."""
    names = [system_name(w).lower() for w in works]
    previous: dict[tuple[str, str], int] = {}
    for i, name in enumerate(names):
        if not name:
            continue
        for aid in sorted(authors[i]):
            if (name, aid) in previous:
                yield previous[(name, aid)], i
            previous[(name, aid)] = i
        yield from ((i, j) for score, j in corpus.neighbours(i) if score >= SAME_TEXT and names[j] == name)


def title_key(work: Work) -> str:
    """The import's identity key of the work's normalized title (empty for a working title)."""
    return next((key for key in identity_keys(work) if key.startswith("title:")), "")


def _title_evidence(works: list[Work]) -> Iterator[tuple[int, int]]:
    """Works with one title and another year or DOI (a preprint and its published paper).

    Copies of one title are grouped by (year, DOI) in year order; each work is joined to the first
    of the group before its own (the first group's to the second's first): at most one edge per
    work, and connected whatever the number of copies.
    """
    by_title: dict[str, list[int]] = defaultdict(list)
    for i, work in enumerate(works):
        key = title_key(work)
        if key:
            by_title[key].append(i)
    for members in (m for m in by_title.values() if len(m) > 1):
        ordered = sorted(members, key=lambda i: (works[i].year or 0, works[i].doi.lower(), works[i].key))
        groups = [list(g) for _, g in groupby(ordered, key=lambda i: (works[i].year, works[i].doi.lower()))]
        for at, group in enumerate(groups):
            anchor = groups[at - 1][0] if at else groups[1][0] if len(groups) > 1 else None
            for i in group if at else group[1:]:
                if anchor is not None and version_of(works[i], works[anchor]):
                    yield anchor, i


def related_keys(work: Work) -> list[str]:
    """The keys BibLaTeX's ``related`` field names (comma-separated), lower case as BibTeX compares them."""
    return [k.strip().lower() for name, value in work.extra if name == "related" for k in value.split(",") if k.strip()]


def _linked_evidence(works: list[Work]) -> Iterator[tuple[int, int]]:
    """Works refs.bib links with ``related``: the file's own word, always a version link."""
    index = {w.key.lower(): i for i, w in enumerate(works)}
    for i, work in enumerate(works):
        yield from ((i, index[k]) for k in related_keys(work) if index.get(k, i) != i)


def version_reason(work: Work, other: Work) -> str:
    """Why ``other`` is shown as another version of ``work``: the strongest evidence first."""
    if other.key.lower() in related_keys(work) or work.key.lower() in related_keys(other):
        kinds = [v for w in (work, other) for name, v in w.extra if name == "relatedtype" and v.strip()]
        return f"another version (refs.bib links them{': ' + to_text(kinds[0]) if kinds else ''})"
    if title_key(work) and title_key(work) == title_key(other):
        return f"another version ({other_version(work, other) or 'identical title'})"
    name = system_name(work)
    if name and name.lower() == system_name(other).lower():
        return f"another version of {name} (the titles name the same system)"
    return "another version (through the versions between them)"


def listed_authors(work: Work, ids: dict[str, str]) -> set[str]:
    """Authors named in a real author line; an owner standing in for unknown authors is not one."""
    owners = {s.owner for s in work.sources}
    if work.et_al and set(work.authors) <= owners:
        return set()
    return {ids.get(a, author_id(a)) for a in work.authors}


def related_links(
    works: list[Work],
    corpus: Corpus,
    versions: dict[str, tuple[str, ...]],
    ids: dict[str, str],
    top_k: int,
    min_score: float,
    topics: list[tuple[str, ...]] | None = None,
    categories: list[tuple[str, ...]] | None = None,
) -> dict[str, tuple[Link, ...]]:
    """Links with reasons, symmetric: if A lists B for a reason, B lists A for the same reason.

    ``topics``: each work's topics (in the order of ``works``); content links between papers that
    share one need less similar text. ``categories``: each work's arXiv categories, if the caller
    trusts more than the record's own (a guess from a title alone is no field to keep papers
    apart by); links across distant fields need more shared words. No paper is padded with weak
    links to reach a quota; none lists more than ``top_k`` content links or ``AUTHOR_LINKS``
    shared-author links (versions apart)."""
    reasons: dict[tuple[int, int], list[str]] = defaultdict(list)
    index = {w.key: i for i, w in enumerate(works)}
    for i, work in enumerate(works):
        for key in versions.get(work.key, ()):
            reasons[(i, index[key])].append(version_reason(work, works[index[key]]))
    _shared_authors(works, ids, corpus, reasons)
    cats = categories or [w.categories for w in works]
    shared = _Shared(topics or [() for _ in works], [listed_authors(w, ids) for w in works], list(map(fields, cats)))
    _similar_content(corpus, reasons, top_k, min_score, shared)
    targets: dict[int, list[int]] = defaultdict(list)
    for a, j in reasons:
        targets[a].append(j)
    scores = corpus.similarities(list(reasons))
    out: dict[str, tuple[Link, ...]] = {}
    for i, work in enumerate(works):
        linked = sorted(targets[i], key=lambda j: _order(reasons[(i, j)], scores[(i, j)], works[j].key))
        out[work.key] = tuple(Link(works[j].key, "; ".join(reasons[(i, j)])) for j in linked)
    return out


def _order(reasons: list[str], similarity: float, key: str) -> tuple[int, float, str]:
    """Versions first, then shared authors, then similar content; most similar first, coarsely,
    so that the small shifts a new paper causes in every weight do not reorder the lists."""
    kind = 0 if reasons[0].startswith("another version") else 1 if reasons[0].startswith("shared") else 2
    return kind, -round(similarity, 1), key


def _shared_authors(
    works: list[Work], ids: dict[str, str], corpus: Corpus, reasons: dict[tuple[int, int], list[str]]
) -> None:
    """Co-authored papers, at most ``AUTHOR_LINKS`` a page, symmetric: of the pairs each paper
    offers (its most co-authored, then most similar), the strongest first while both have room.
    Every Bengio paper listed the 30 others before; the author's page lists them all."""
    authors = [listed_authors(w, ids) for w in works]
    papers_of: dict[str, list[int]] = defaultdict(list)
    for i, listed in enumerate(authors):
        for aid in sorted(listed):
            papers_of[aid].append(i)
    close = [{j: s for s, j in corpus.neighbours(i)} for i in range(len(works))]
    offered: dict[tuple[int, int], tuple[int, float]] = {}
    for i in range(len(works)):
        others = _coauthored(i, authors, papers_of, close[i])
        ranked = sorted(others, key=lambda j: (-len(authors[i] & authors[j]), -close[i].get(j, 0.0), works[j].key))
        for j in ranked[:AUTHOR_OFFERS]:
            strength = max(close[i].get(j, 0.0), close[j].get(i, 0.0))
            offered[(min(i, j), max(i, j))] = (len(authors[i] & authors[j]), strength)
    ranked_pairs = sorted(offered, key=lambda p: (-offered[p][0], -offered[p][1], p))
    names = [{ids.get(a, author_id(a)): a for a in w.authors} for w in works]
    # A version sharing authors says so too, outside the cap (it is listed apart).
    kept = [p for p in ranked_pairs if p in reasons] + capped(
        [p for p in ranked_pairs if p not in reasons], AUTHOR_LINKS
    )
    for i, j in sorted(kept):
        shared = [names[i][a] for a in sorted(authors[i] & authors[j])]
        more = f" and {len(shared) - NAMES_SHOWN:,} more" if len(shared) > NAMES_SHOWN else ""
        reason = "shared authors: " + ", ".join(shared[:NAMES_SHOWN]) + more
        reasons[(i, j)].append(reason)
        reasons[(j, i)].append(reason)


def _coauthored(i: int, authors: list[set[str]], papers_of: dict[str, list[int]], close: dict[int, float]) -> set[int]:
    """Papers sharing an author with paper i. Of an author with more than CANDIDATES papers
    (one person on 20,000 entries would make this quadratic), only those next to i in key
    order and those among i's most similar papers."""
    out: set[int] = set()
    for aid in authors[i]:
        papers = papers_of[aid]
        if len(papers) <= CANDIDATES:
            out.update(papers)
            continue
        at = bisect_left(papers, i)
        out.update(papers[max(0, at - CANDIDATES // 2) : at + CANDIDATES // 2])
        out.update(j for j in close if aid in authors[j])
    out.discard(i)
    return out


@dataclass(frozen=True)
class _Shared:
    """What two papers have in common besides their text: topics, listed authors and fields."""

    topics: list[tuple[str, ...]]
    authors: list[set[str]]
    fields: list[frozenset[str]]

    def weight(self, i: int, j: int) -> float:
        common = bool(set(self.topics[i]) & set(self.topics[j])) or bool(self.authors[i] & self.authors[j])
        return 1.0 if common else UNSHARED_WEIGHT

    def far(self, i: int, j: int) -> bool:
        return distant(self.fields[i], self.fields[j])


def _similar_content(
    corpus: Corpus, reasons: dict[tuple[int, int], list[str]], top_k: int, min_score: float, shared: _Shared
) -> None:
    """Pairs among each paper's nearest whose weighted similarity and distinct shared words are
    enough (evidence.py), at most ``top_k`` new links a page, most similar first; none else. A
    pair linked already (a version, shared authors) gets the reason too, outside the cap."""
    weighted: dict[tuple[int, int], float] = {}
    for i in range(len(shared.topics)):
        for s, j in corpus.neighbours(i):
            if s * shared.weight(i, j) >= min_score:
                weighted[(min(i, j), max(i, j))] = s * shared.weight(i, j)
    words = corpus.shared_words(sorted(weighted), distinctive_df(len(shared.topics)))
    strong = [p for p in sorted(weighted) if enough(words[p], weighted[p], min_score, shared.far(*p))]
    linked = [p for p in strong if p in reasons]
    ranked = sorted((p for p in strong if p not in reasons), key=lambda p: (-weighted[p], p))
    ordered = sorted([*linked, *capped(ranked, top_k)])
    terms = corpus.shared_terms(ordered)
    for i, j in ordered:
        # No score in the text: a new paper shifts every TF-IDF weight, and printing the score
        # would rewrite (and make Sphinx re-read) pages whose related papers did not change.
        reason = f"similar content (shared terms: {', '.join(terms[(i, j)])})"
        reasons[(i, j)].append(reason)
        reasons[(j, i)].append(reason)
