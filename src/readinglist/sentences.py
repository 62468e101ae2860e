"""Sentence splitting and the contribution sentence of an abstract."""

from __future__ import annotations

import re

# A pointer to a problem stated in the sentence before ("this problem", "the above issues"): the
# sentence is not self-contained. Summaries add the sentence before; working titles skip it.
ANAPHORA = re.compile(r"\b(?:this|these|such|the above)\s+(?:problem|issue|challenge|task|limitation)s?\b", re.I)

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[]|\d\)\s)")  # "... state of the art. 2) Some ..." too
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|Fig|cf)\.$")
CONTRIBUTION = re.compile(
    r"\b(?:we|this (?:\w+ )?(?:paper|work|report|research|article|study|survey)"
    r"|our (?:approach|method|system|model|framework))\s+"
    r"(?:\w+\s+){0,2}?(?:propose|present|introduce|develop|design|build|show|study|report|establish|characteri[sz]e"
    r"|attempts?|integrates?|serves?|summari[sz]es?|reviews?|surveys?|examines?)",
    re.I,
)
PROPOSAL = re.compile(r"\b(?:propose|present|introduce|develop|design|build)s?\b", re.I)
# "In this paper, a technique ... is proposed": a contribution without "we".
PASSIVE = re.compile(
    r"^(?:in this (?:paper|work|article),\s*)?an?\s[^.]*?\b(?:is|are)\s+(?:proposed|presented|introduced|developed)\b",
    re.I,
)
# "This article serves two main purposes: (1) ...", "The contributions of X are in three folds: 1) ...".
ENUMERATION = re.compile(
    r"^[^:.]{0,80}\b(?:purposes?|goals?|aims?|objectives?|contributions?|folds?)\b[^:.]{0,20}:\s*(?:\(1\)|1\))\s*", re.I
)
BACKGROUND = re.compile(
    r"^(?:it is (?:a )?(?:challenging|difficult|important)|recent(?:ly)?|in recent years|over the past)", re.I
)


def split_sentences(text: str) -> list[str]:
    parts: list[str] = []
    for piece in _SPLIT.split(text.strip()):
        if parts and _ABBREV.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return [p for p in parts if p]


def contribution_sentence(text: str) -> str:
    """The sentence stating what the paper does, else the first non-background one."""
    sentences = split_sentences(text)
    for sentence in sentences:
        if CONTRIBUTION.search(sentence):
            return sentence
    for sentence in sentences:
        if not BACKGROUND.match(sentence):
            return sentence
    return sentences[0] if sentences else ""


def contribution_index(sentences: list[str]) -> int | None:
    """Where the paper says what it does: "we propose" first, then "we study", then "X is proposed"."""
    tests = (lambda s: bool(CONTRIBUTION.search(s) and PROPOSAL.search(s)), CONTRIBUTION.search, PASSIVE.search)
    for test in tests:
        found = [i for i, s in enumerate(sentences) if test(s)]
        if found:
            return found[0]
    return None
