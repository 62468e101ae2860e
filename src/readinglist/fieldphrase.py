"""The field or task an abstract is about, in its own words, for a working title.

A title names its field ("... in federated learning", "... for crowd counting"); an
abstract's contribution sentence often does not. Abstracts tend to open with the field as
the subject of their first sentence ("Federated learning is a promising framework ...");
failing that, the pair of content words the abstract repeats most is its topic.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from itertools import pairwise

from .sentences import split_sentences

WORD = re.compile(r"[A-Za-z][\w\-]*")
UNIT = re.compile(r"\d|^(?:[kMGT]Hz|[kMGT]B|ms|dB|TOPs|GOPs)$")
SUBJECT = re.compile(
    r"^(?:the\s+)?(?P<np>(?:[A-Za-z][\w\-]*\s+){0,3}?[A-Za-z][\w\-]*)(?:\s+\([A-Za-z\-]+\))?"
    r"\s+(?:is|are|has|have|plays?|becomes?|remains?)\b"
)
# Words that open a sentence without naming a field ("Recent work has ...", "It is ...").
NOT_A_FIELD = frozenset(
    "it this these there we our most many much recent recently such each one some several existing current"
    " state-of-the-art".split()
)
# Words every abstract repeats: their pairs say nothing of its field.
GENERIC = frozenset(
    "paper work method methods approach approaches result results problem problems model models based propose"
    " proposed using used use new novel data performance show shows experimental experiments significant large"
    " different high low better best first second https http doi www com org github".split()
)


@lru_cache(maxsize=1)
def _skipped() -> frozenset[str]:
    """English stop words and GENERIC. scikit-learn's list, imported when first needed: at import
    time it cost every ``readinglist import`` 0.9 s, and a titled entry never needs it."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | GENERIC


def field_phrase(text: str) -> str:
    """The first sentence's subject when it is a short noun phrase, else the most repeated word pair."""
    sentences = split_sentences(text)
    if not sentences:
        return ""
    subject = SUBJECT.match(sentences[0])
    words = subject["np"].split() if subject else []
    if words and words[0].lower() not in NOT_A_FIELD and all(_content(w) or w.lower() == "of" for w in words):
        return subject["np"] if subject else ""
    return _repeated_pair(sentences)


def stem(word: str) -> str:
    """The word as titles are compared: lower case, without a plural s."""
    word = word.lower()
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


@lru_cache(maxsize=1 << 16)  # the same words recur across a list's abstracts
def _content(word: str) -> bool:
    """A word that can name a field: not a stop word, a number ("ZU9") or a unit ("MHz")."""
    lower = word.lower()
    return len(lower) > 2 and lower not in _skipped() and not UNIT.search(word)


def _repeated_pair(sentences: list[str]) -> str:
    counts: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], str] = {}
    for sentence in sentences:
        words = WORD.findall(sentence)
        for a, b in pairwise(words):
            if _content(a) and _content(b):
                pair = (stem(a), stem(b))
                counts[pair] += 1
                first.setdefault(pair, f"{a} {b}")
    repeated = [pair for pair, n in counts.most_common() if n >= 2]
    return first[repeated[0]] if repeated else ""
