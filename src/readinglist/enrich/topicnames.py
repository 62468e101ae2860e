"""Names for suggested topics, and which words are too general to be a topic's keyword.

A word that is common in everyday English ("local", "training", "theory": frequencies from
``wordfreq``, whose data ships in its wheel) says little about a topic on its own: it is no
keyword, though it may be part of a phrase ("deep learning", "type theory"). A topic is named
by the terms its works share most, distinctive ones first: a two-word phrase found in several
titles ("crowd counting", "text detection") before a single word, a rare word before a common
one. Each name term is shown as its works' titles spell it ("detect" matches "detection": the
name says "detection"; "FusionStitching" and "CNN" keep their capitals).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

# Zipf frequency (log10 of occurrences per billion words) from which a single word is general
# English: "memory" 4.81, "theory" 4.88, "text" 5.01, "local" 5.43 are; "robot" 4.24, "crowd" 4.70,
# "compiler" 3.37 are not.
GENERAL_ZIPF = 4.8
SPECIFIC_ZIPF = 4.0  # at or below it a word counts as fully specific when a name is chosen
MAX_NAME_TERMS = 3
RARE_ZIPF = 4.0  # "comprehensive" 4.36, "learning-driven" 4.39; "integrating" 3.52, "compiler" 3.37


# ...or in another language's titles a library may hold: "des", "und", "les" are everyday words
# of French, German or Spanish ("die" is English too), zipf 6 and more, where no topic word is.
FOREIGN = ("fr", "de", "es")
FOREIGN_ZIPF = 6.0


@lru_cache(maxsize=65536)
def zipf(term: str, language: str = "en") -> float:
    """0 for a word rarer than Zipf 3: the small word lists (30 MB in memory for the four
    languages, not 180 MB) stop there, and every threshold here is above it."""
    from wordfreq import zipf_frequency

    return float(zipf_frequency(term, language, wordlist="small"))


def general(term: str) -> bool:
    """A single word too common in English (or another language) to name or place a topic by itself."""
    if " " in term:
        return False
    return zipf(term) >= GENERAL_ZIPF or any(zipf(term, lang) >= FOREIGN_ZIPF for lang in FOREIGN)


def rare(term: str) -> bool:
    """A phrase, or a word rare enough in English to place one work by itself: a system's name
    ("swaptext"), a technical term ("regularization"); not "comprehensive" or "integrating"."""
    return " " in term or zipf(term) < RARE_ZIPF


def specificity(term: str) -> float:
    """1 for a rare word or phrase, falling to 0 at the frequency of the commonest words."""
    return min(1.0, max(0.0, (GENERAL_ZIPF + 0.7 - zipf(term)) / (GENERAL_ZIPF + 0.7 - SPECIFIC_ZIPF)))


def name_terms(support: dict[str, tuple[int, float]], size: int) -> list[str]:
    """The terms that name a cluster of ``size`` works, from each term's (works of the cluster
    it matches, precision): shared by two works or more where the cluster has three, phrases
    first, none a repeat of another's words. One everyday word only when nothing else is shared
    ("training" names papers on distributed training better than one paper's system does)."""
    least = 2 if size >= 3 else 1
    shared = {t: n * precision * (2.0 if " " in t else 1.0) for t, (n, precision) in support.items() if n >= least}
    specific = {t: score * specificity(t) for t, score in shared.items() if not general(t)}
    return _best(specific) or _best({t: score * max(specificity(t), 0.01) for t, score in shared.items()})[:1]


def _best(scored: dict[str, float]) -> list[str]:
    chosen: list[str] = []
    for term in sorted(scored, key=lambda t: (-scored[t], t)):
        if scored[term] > 0 and not _repeats(term, chosen):
            chosen.append(term)
        if len(chosen) == MAX_NAME_TERMS:
            break
    return chosen


def covered(term: str, names: set[str]) -> bool:
    """Whether every word of ``term`` is one of a single name's words, or starts one ("snapshot"
    and "snapshot isolation"). ``names`` may hold the draft's topic ids too: each is made of a
    name's words ("snapshot-isolation"), so it covers no more than that name does."""
    return any(all(any(w.startswith(x) for w in name.split()) for x in term.split()) for name in names)


def _repeats(term: str, chosen: list[str]) -> bool:
    """Whether a word of ``term`` starts, or is the start of, a word already chosen ("fusion"
    after "FusionStitching", "homotopy type" after "type theory")."""
    words = [w for t in chosen for w in t.split()]
    return any(w.startswith(x) or x.startswith(w) for w in words for x in term.split())


def spelled(term: str, titles: list[str]) -> str:
    """``term`` as the titles spell it most often: its words completed ("detect" to "detection"),
    lower case unless a word has capitals inside it (an acronym or a system's name) or is
    capitalized mid-sentence in a title that capitalizes little else ("Monte Carlo")."""
    pattern = re.compile(rf"\b{re.escape(term)}[\w-]*", re.I)
    found = [(m, title) for title in titles for m in pattern.finditer(title)]
    forms = Counter(m.group(0) for m, _ in found)
    if not forms:
        return term
    counts = Counter[str]()
    for form, n in forms.items():
        counts[form.lower()] += n
    best = min(counts, key=lambda f: (-counts[f], f))
    shown = max((f for f in forms if f.lower() == best), key=lambda f: (forms[f], f))
    plain = Counter(w for m, title in found if m.start() > 0 and _sentence_case(title, m) for w in m.group(0).split())
    return " ".join(w if re.search(r"\w[A-Z]", w) or _named(w, plain) else w.lower() for w in shown.split())


def _sentence_case(title: str, match: re.Match[str]) -> bool:
    """Whether the title, the match and its first word aside, is mostly lower case."""
    rest = (title[: match.start()] + title[match.end() :]).split()[1:]
    words = [w for w in rest if w[:1].isalpha()]
    return bool(words) and sum(w[:1].isupper() for w in words) * 3 < len(words)


def _named(word: str, plain: Counter[str]) -> bool:
    """A word that sentence-case titles capitalize, twice or more and more often than not ("Carlo"
    in "Sequential Monte Carlo samplers"); ``plain``: each word as they write it, with its count."""
    return word[:1].isupper() and plain[word] >= 2 and plain[word] > plain[word.lower()]
