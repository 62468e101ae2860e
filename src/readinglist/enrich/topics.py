"""Placing papers in topics: by arXiv category, else by the topic keywords in the text.

Subtopics then split each topic the paper joined. A paper joins the subtopics its categories
select, and otherwise those its text names most; a paper whose text names none stays in its
topic alone (no fallback: a forced subtopic would mislead more than the topic page's "Other").
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Topic

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


def assign_subtopics(
    topic_ids: tuple[str, ...], categories: tuple[str, ...], text: str, topics: tuple[Topic, ...]
) -> tuple[str, ...]:
    """Subtopic ids (``<topic>/<sub>``) for a paper in the topics ``topic_ids``; may be empty."""
    lowered = text.lower()
    found: list[str] = []
    for topic in topics:
        if topic.id in topic_ids and topic.subtopics:
            found += _best_subtopics(topic.subtopics, categories, lowered)
    return tuple(found)


def _best_subtopics(subs: tuple[Topic, ...], categories: tuple[str, ...], text: str) -> list[str]:
    by_category = [s.id for s in subs if any(s.matches_category(c) for c in categories)]
    hits = {s.id: _keyword_hits(s, text) for s in subs}
    # The text's own evidence counts even beside a category: a paper can be about two subtopics.
    strong = {
        sid for sid, counts in hits.items() if sum(counts) >= STRONG_TEXT_EVIDENCE and sum(map(bool, counts)) >= 2
    }
    best = max(sum(counts) for counts in hits.values())
    top = {sid for sid, counts in hits.items() if best and sum(counts) == best}
    return [s.id for s in subs if s.id in by_category or s.id in strong or s.id in top]


def _keyword_hits(topic: Topic, text: str) -> list[int]:
    """How often each keyword of the topic occurs in ``text`` at a word start, without
    overlapping itself (as ``re.findall``), found in one scan for all keywords."""
    counts = dict.fromkeys(topic.keywords, 0)
    ends = dict.fromkeys(topic.keywords, 0)
    for match in _starts(topic.keywords).finditer(text):
        at = match.start()
        for keyword in topic.keywords:
            if at >= ends[keyword] and text.startswith(keyword, at):
                counts[keyword] += 1
                ends[keyword] = at + len(keyword)
    return [counts[k] for k in topic.keywords]


@lru_cache(maxsize=256)
def _starts(keywords: tuple[str, ...]) -> re.Pattern[str]:
    """Every word start where some keyword begins (zero-width, so starts can overlap)."""
    alternatives = "|".join(re.escape(k) for k in sorted(keywords, key=len, reverse=True))
    return re.compile(rf"\b(?=(?:{alternatives}))")
