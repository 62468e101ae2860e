"""Extractive summaries: a TL;DR from the contribution sentences, and quoted key results."""

from __future__ import annotations

import re

from .sentences import BACKGROUND, CONTRIBUTION, split_sentences

MAX_TLDR_WORDS = 50
PROPOSAL = re.compile(r"\b(?:propose|present|introduce|develop|design|build)s?\b", re.I)
QUANTITY = re.compile(
    r"\d[\d,.]*\s*(?:%|x\b|×|times\b|-?fold\b|GPU hours|hours\b|speedup|MB|GB|ms\b)"
    r"|(?:accuracy|recall|precision|speedup|improvement|reduc\w+|outperform\w*|saves?)\b[^.]*\d",
    re.I,
)


def tldr(text: str) -> str:
    """The contribution, in at most 50 words; never the background sentence that opens an abstract."""
    sentences = split_sentences(text)
    picked = [s for s in sentences if CONTRIBUTION.search(s)]
    # "We propose X" states the contribution better than "we show that ..." or "we study".
    proposing = [s for s in picked if PROPOSAL.search(s)]
    picked = proposing or picked
    if not picked:
        picked = [s for s in sentences if not BACKGROUND.match(s)][:1] or sentences[:1]
    words: list[str] = []
    for sentence in picked:
        if words and len(words) + len(sentence.split()) > MAX_TLDR_WORDS:
            break
        words.extend(sentence.split())
    if len(words) > MAX_TLDR_WORDS:
        words = [*words[: MAX_TLDR_WORDS - 1], words[MAX_TLDR_WORDS - 1].rstrip(",;:") + "…"]
    return " ".join(words)


def key_results(text: str) -> tuple[str, ...]:
    """Sentences that make a quantitative claim, quoted verbatim (numbers are never altered)."""
    return tuple(s for s in split_sentences(text) if QUANTITY.search(s))
