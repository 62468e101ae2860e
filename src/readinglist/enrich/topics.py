"""Placing papers in topics: by arXiv category, else by the topic keywords in the text."""

from __future__ import annotations

import re

from .taxonomy import Topic


def assign_topics(categories: tuple[str, ...], text: str, topics: tuple[Topic, ...]) -> tuple[str, ...]:
    """Topic ids for a paper; never empty (the best keyword match, else the first topic)."""
    by_category = [t.id for t in topics if any(t.matches_category(c) for c in categories)]
    if by_category:
        return tuple(by_category)
    scores = {t.id: _keyword_hits(t, text.lower()) for t in topics}
    best = max(scores.values())
    if best == 0:
        return (topics[0].id,)
    return tuple(t.id for t in topics if scores[t.id] == best)


def _keyword_hits(topic: Topic, text: str) -> int:
    return sum(len(re.findall(rf"\b{re.escape(k)}", text)) for k in topic.keywords)
