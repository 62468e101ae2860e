"""Cross-links that explain themselves: versions of one system, shared authors, similar content."""

from __future__ import annotations

import re
from collections import defaultdict

from ..latex import to_text
from ..model import Link, Work
from .authors import author_id
from .similarity import Corpus

_SYSTEM = re.compile(r"^([^\s:]{2,40})\s*:")


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


def listed_authors(work: Work) -> set[str]:
    """Authors named in a real author line; an owner standing in for unknown authors is not one."""
    owners = {s.owner for s in work.sources}
    if work.et_al and set(work.authors) <= owners:
        return set()
    return {author_id(a) for a in work.authors}


def related_links(
    works: list[Work], corpus: Corpus, versions: dict[str, tuple[str, ...]], top_k: int, min_score: float
) -> dict[str, tuple[Link, ...]]:
    sims = corpus.similarities()
    names = {w.key: {author_id(a): a for a in w.authors} for w in works}
    authors = [listed_authors(w) for w in works]
    out: dict[str, tuple[Link, ...]] = {}
    for i, work in enumerate(works):
        links: dict[str, list[str]] = defaultdict(list)
        for key in versions.get(work.key, ()):
            links[key].append(f"another version of {system_name(work)}")
        for j, other in enumerate(works):
            shared = sorted(authors[i] & authors[j]) if j != i else []
            if shared:
                links[other.key].append("shared authors: " + ", ".join(names[work.key][a] for a in shared))
        row = sims.getrow(i).tocoo()
        ranked = sorted(
            ((float(s), j) for s, j in zip(row.data, row.col, strict=True) if j != i and s >= min_score),
            key=lambda pair: (-round(pair[0], 9), works[pair[1]].key),
        )
        for score, j in ranked[:top_k]:
            terms = ", ".join(corpus.shared_terms(i, j))
            links[works[j].key].append(f"similar content (score {score:.2f}; shared terms: {terms})")
        out[work.key] = tuple(Link(key, "; ".join(reasons)) for key, reasons in links.items())
    return out
