"""Placing papers in topics: by arXiv category and by the topic keywords in the text.

A topic's keywords in a paper's title or keywords (its ``focus``: what the paper says it is
about) place it by themselves, beside any topic its categories select, when they name it
distinctively: a phrase ("dynamic inference", "low-power"), or two of the topic's keywords.
One plain word is not enough ("cluster" in a physics title on coupled clusters). Keywords
found only in the abstract count beside a category when they are strong (several, twice).

Subtopics then split each topic the paper joined. A paper joins the subtopics its categories
select, and otherwise those its text names most; a paper whose text names none stays in its
topic alone (no fallback: a forced subtopic would mislead more than the topic page's "Other").
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Topic

STRONG_TEXT_EVIDENCE = 3
_PHRASE = re.compile(r"\w[\s-]+\w")  # several words, or a hyphenated one


def assign_topics(categories: tuple[str, ...], text: str, focus: str, topics: tuple[Topic, ...]) -> tuple[str, ...]:
    """Topic ids for a paper; never empty (the best keyword match, else the first topic).
    ``text``: its title, abstract and keywords; ``focus``: its title and keywords alone."""
    hits = {t.id: _keyword_hits(t, text.lower()) for t in topics}
    scores = {tid: sum(counts) for tid, counts in hits.items()}
    by_category = [t.id for t in topics if any(t.matches_category(c) for c in categories)]
    if by_category:
        # A paper whose text is plainly about another topic, or that says so itself, belongs there too.
        strong = {
            tid for tid, counts in hits.items() if sum(counts) >= STRONG_TEXT_EVIDENCE and sum(map(bool, counts)) >= 2
        }
        named = {t.id for t in topics if _distinctive(t, focus.lower())}
        return tuple(t.id for t in topics if t.id in by_category or t.id in strong or t.id in named)
    best = max(scores.values())
    if best == 0:
        return (topics[0].id,)
    return tuple(t.id for t in topics if scores[t.id] == best)


def _distinctive(topic: Topic, focus: str) -> bool:
    """Whether the title and keywords name the topic by a phrase of its keywords, or by two of them."""
    named = [k for k, n in zip(topic.keywords, _keyword_hits(topic, focus), strict=True) if n]
    return len(named) >= 2 or any(_PHRASE.search(k) for k in named)


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
