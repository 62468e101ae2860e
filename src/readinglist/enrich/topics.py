"""Placing papers in topics: by arXiv category, else by the topic keywords in the text."""

from __future__ import annotations

import re

from .taxonomy import Topic

STRONG_TEXT_EVIDENCE = 3


def assign_topics(categories: tuple[str, ...], text: str, topics: tuple[Topic, ...]) -> tuple[str, ...]:
    """Topic ids for a paper; never empty (the best keyword match, else the first topic)."""
    lowered = text.lower()
    scores = {t.id: _keyword_hits(t, lowered) for t in topics}
    distinct = {t.id: sum(bool(re.search(rf"\b{re.escape(k)}", lowered)) for k in t.keywords) for t in topics}
    by_category = [t.id for t in topics if any(t.matches_category(c) for c in categories)]
    if by_category:

        def strong(tid: str) -> bool:
            return scores[tid] >= STRONG_TEXT_EVIDENCE and distinct[tid] >= 2

        # A paper whose text is plainly about another topic belongs there too.
        return tuple(t.id for t in topics if t.id in by_category or strong(t.id))
    best = max(scores.values())
    if best == 0:
        return (topics[0].id,)
    return tuple(t.id for t in topics if scores[t.id] == best)


def _keyword_hits(topic: Topic, text: str) -> int:
    return sum(len(re.findall(rf"\b{re.escape(k)}", text)) for k in topic.keywords)
