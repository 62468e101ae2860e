"""Placing papers in topics: by arXiv category, else by the topic keywords in the text."""

from __future__ import annotations

import re
from functools import lru_cache

from .taxonomy import Topic

STRONG_TEXT_EVIDENCE = 3


def assign_topics(categories: tuple[str, ...], text: str, topics: tuple[Topic, ...]) -> tuple[str, ...]:
    """Topic ids for a paper; never empty (the best keyword match, else the first topic)."""
    hits = {t.id: _keyword_hits(t, text.lower()) for t in topics}
    scores = {tid: sum(counts) for tid, counts in hits.items()}
    by_category = [t.id for t in topics if any(t.matches_category(c) for c in categories)]
    if by_category:
        # A paper whose text is plainly about another topic belongs there too.
        strong = {
            tid for tid, counts in hits.items() if sum(counts) >= STRONG_TEXT_EVIDENCE and sum(map(bool, counts)) >= 2
        }
        return tuple(t.id for t in topics if t.id in by_category or t.id in strong)
    best = max(scores.values())
    if best == 0:
        return (topics[0].id,)
    return tuple(t.id for t in topics if scores[t.id] == best)


def _keyword_hits(topic: Topic, text: str) -> list[int]:
    """How often each keyword of the topic occurs in ``text`` (at word starts)."""
    return [len(pattern.findall(text)) for pattern in _patterns(topic.keywords)]


@lru_cache(maxsize=256)
def _patterns(keywords: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(rf"\b{re.escape(k)}") for k in keywords)
