"""Cross-links that explain themselves: versions of one system, shared authors, similar content."""

from __future__ import annotations

import re
from collections import defaultdict

from ..latex import to_text
from ..model import Link, Work
from .authors import author_id
from .similarity import Corpus

_SYSTEM = re.compile(r"^([^\s:]{2,40})\s*:")
MIN_LINKS = 2  # every paper links to at least this many others when the list has them


def system_name(work: Work) -> str:
    """The system a title names before its colon ("FusionStitching: ..."), if it looks like a name."""
    match = _SYSTEM.match(to_text(work.title))
    if not match:
        return ""
    name = match.group(1)
    return name if any(c.isupper() or c.isdigit() for c in name[1:]) else ""


def version_groups(works: list[Work]) -> dict[str, tuple[str, ...]]:
    """Key -> the other works naming the same system, ordered by year (unknown years last)."""
    groups: dict[str, list[Work]] = defaultdict(list)
    for work in works:
        name = system_name(work).lower()
        if name:
            groups[name].append(work)
    out: dict[str, tuple[str, ...]] = {}
    for members in groups.values():
        ordered = sorted(members, key=lambda w: (w.year is None, w.year or 0, w.key))
        for work in members if len(members) > 1 else ():
            out[work.key] = tuple(w.key for w in ordered if w.key != work.key)
    return out


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
) -> dict[str, tuple[Link, ...]]:
    """Links with reasons, symmetric: if A lists B for a reason, B lists A for the same reason."""
    reasons: dict[tuple[int, int], list[str]] = defaultdict(list)
    index = {w.key: i for i, w in enumerate(works)}
    for i, work in enumerate(works):
        for key in versions.get(work.key, ()):
            reasons[(i, index[key])].append(f"another version of {system_name(work)} (the titles name the same system)")
    _shared_authors(works, ids, corpus, top_k, reasons)
    _similar_content(works, corpus, reasons, top_k, min_score)
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
    works: list[Work], ids: dict[str, str], corpus: Corpus, top_k: int, reasons: dict[tuple[int, int], list[str]]
) -> None:
    """Each paper's top-k co-authored papers (most shared authors, then most similar), kept symmetric."""
    authors = [listed_authors(w, ids) for w in works]
    papers_of: dict[str, list[int]] = defaultdict(list)
    for i, listed in enumerate(authors):
        for aid in sorted(listed):
            papers_of[aid].append(i)
    pairs: set[tuple[int, int]] = set()
    for i in range(len(works)):
        close = {j: s for s, j in corpus.neighbours(i)}
        others = {j for aid in authors[i] for j in papers_of[aid] if j != i}
        ranked = sorted(others, key=lambda j: (-len(authors[i] & authors[j]), -close.get(j, 0.0), works[j].key))
        pairs.update((min(i, j), max(i, j)) for j in ranked[:top_k])
    names = [{ids.get(a, author_id(a)): a for a in w.authors} for w in works]
    for i, j in sorted(pairs):
        reason = "shared authors: " + ", ".join(names[i][a] for a in sorted(authors[i] & authors[j]))
        reasons[(i, j)].append(reason)
        reasons[(j, i)].append(reason)


def _similar_content(
    works: list[Work], corpus: Corpus, reasons: dict[tuple[int, int], list[str]], top_k: int, min_score: float
) -> None:
    """Each paper's top-k most similar above ``min_score``, topped up to MIN_LINKS links when it has fewer."""
    linked: dict[int, set[int]] = defaultdict(set)
    for a, b in reasons:
        linked[a].add(b)
    pairs: set[tuple[int, int]] = set()
    for i in range(len(works)):
        ranked = corpus.neighbours(i)
        chosen = [j for s, j in ranked if s >= min_score][:top_k]
        have = linked[i] | set(chosen)
        for _, j in ranked:
            if len(have) >= MIN_LINKS:
                break
            if j not in have:
                chosen.append(j)
                have.add(j)
        pairs.update((min(i, j), max(i, j)) for j in chosen)
    ordered = sorted(pairs)
    terms = corpus.shared_terms(ordered)
    for i, j in ordered:
        # No score in the text: a new paper shifts every TF-IDF weight, and printing the score
        # would rewrite (and make Sphinx re-read) pages whose related papers did not change.
        reason = f"similar content (shared terms: {', '.join(terms[(i, j)])})"
        reasons[(i, j)].append(reason)
        reasons[(j, i)].append(reason)
