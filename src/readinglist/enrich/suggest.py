"""Topics suggested for a library (``readinglist topics --suggest``): clusters of its works.

Each work is its title, keywords, abstract and venue, weighed by TF-IDF; k-means runs for each
k of a small range and the k whose clusters have the best silhouette is kept (fixed seeds: the
same library gives the same draft). A cluster becomes a topic whose keywords are the terms of
its works' titles and keywords (what enrich/topics.py matches) that occur mostly in that
cluster, picked greedily until they place as many of its works as they can by themselves; an
everyday English word ("local", ``topicnames.general``) or one the library's abstracts use
mostly elsewhere is no keyword, and a common one ("comprehensive") places no work alone. It is
named by the distinctive phrases its works share (``topicnames``) and described by its venues.
The works no topic's keywords name are clustered once more, into topics of their own. A first
topic, "General", takes the works no keyword places: enrich/topics.py puts a paper it cannot
place in the first topic.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from ..latex import to_text
from ..model import Topic, Work
from .similarity import RESEARCH_STOP_WORDS
from .taxonomy import RESERVED_IDS
from .topicnames import MAX_NAME_TERMS, covered, general, name_terms, rare, spelled
from .venues import VENUE_FIELDS, venue_of

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

K_RANGE = range(2, 13)  # how many clusters are tried; a draft of a dozen topics is still one to edit
MAX_KEYWORDS = 25  # 20 placed too few works once everyday words were left out (General 19%, not 9-11%)
# A topic of fewer works than this (or a twentieth of the library) is no topic worth a page:
# without it, the silhouette favours splitting off pairs of near-identical titles.
MIN_CLUSTER = 3
MIN_PRECISION = 0.5  # at least half the works a keyword matches are the cluster's own
SEED = 0
_TERM = r"(?u)\b[^\W\d_][\w-]+[^\W_]\b"  # words of three letters or more, hyphenated ones whole
GENERAL = Topic(
    id="general",
    title="General",
    description="Works that no other topic's keywords place. Add keywords to a topic to move them.",
)


@dataclass(frozen=True)
class Suggestion:
    """The draft's topics (General first) and how many works each cluster had."""

    topics: tuple[Topic, ...]
    cluster_sizes: tuple[int, ...]


def suggest(works: list[Work]) -> Suggestion:
    works = sorted(works, key=lambda w: w.key)  # the same draft whatever order refs.bib is in
    focus = [focus_text(w) for w in works]
    texts = [_cluster_text(w) for w in works]
    matched = [f"{f}. {to_text(w.abstract)}".lower() for f, w in zip(focus, works, strict=True)]  # as topics.py reads
    taken = {GENERAL.id, *RESERVED_IDS}  # ids and name terms the draft may not use again
    found = _cluster_topics(works, (texts, focus, matched), list(range(len(works))), taken)
    # The works no keyword of those topics names would all land in General: their own clusters
    # are topics too (security papers among PL ones, physics among ML ones).
    left = [i for i in range(len(works)) if not any(_names(t, matched[i]) for t, _ in found)]
    if len(left) >= 2 * MIN_CLUSTER:
        found += _cluster_topics(works, (texts, focus, matched), left, taken)
    return Suggestion((GENERAL, *(t for t, _ in found)), tuple(n for _, n in found))


def _cluster_topics(
    works: list[Work], views: tuple[list[str], list[str], list[str]], among: list[int], taken: set[str]
) -> list[tuple[Topic, int]]:
    """A topic for each cluster of the works ``among``, biggest first, with its size. ``views``:
    each work's text to cluster, its focus text, and the text topics are matched in."""
    texts, focus, matched = views
    labels = clusters([texts[i] for i in among])
    out = []
    for label in sorted(set(labels) - {-1}, key=lambda c: (-labels.count(c), c)):
        members = {among[j] for j, c in enumerate(labels) if c == label}
        found = _candidates(members, focus)
        keywords = pick_keywords(members, found, matched)
        if keywords:
            named = _name(members, found, keywords, taken)
            out.append((_topic(keywords, named, [works[i] for i in sorted(members)], taken), len(members)))
    return out


def _name(members: set[int], found: dict[str, set[int]], keywords: tuple[str, ...], taken: set[str]) -> list[str]:
    """The terms that name the cluster ``members``, none a name an earlier topic took
    ("Snapshot isolation", then "Snapshot"); its first keywords when its works share none."""
    support = {t: (len(d & members), _precision(d, members)) for t, d in found.items() if not covered(t, taken)}
    named = name_terms(support, len(members)) or [k for k in keywords if not covered(k, taken)][:MAX_NAME_TERMS]
    taken.update(named)
    return named


def _names(topic: Topic, text: str) -> bool:
    return any(re.search(rf"\b{re.escape(k)}", text) for k in topic.keywords)


def focus_text(work: Work) -> str:
    """What a work says it is about: its title and keywords, lowercased as topics match them."""
    return ". ".join((to_text(work.title), *work.keywords)).lower()


def _cluster_text(work: Work) -> str:
    fields = dict(work.extra)
    venues = [to_text(fields[f]) for f in VENUE_FIELDS[:3] if fields.get(f)]
    return " ".join((focus_text(work), to_text(work.abstract), *venues))


def clusters(texts: list[str]) -> list[int]:
    """A cluster label per text; -1 for a text with no term another text shares."""
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.metrics import silhouette_score

    matrix, kept = _tfidf(texts)
    labels = [-1] * len(texts)
    if matrix is None:
        return labels
    smallest = max(MIN_CLUSTER, len(kept) // 20)
    best: tuple[float, list[int]] = (-2.0, [0] * len(kept))
    for k in K_RANGE:
        if k * smallest > len(kept):
            break
        with warnings.catch_warnings():  # fewer distinct works than k: k-means says so, the size check acts
            warnings.simplefilter("ignore", ConvergenceWarning)
            found = [int(c) for c in KMeans(n_clusters=k, n_init=10, random_state=SEED).fit_predict(matrix)]
        if min(Counter(found).values()) >= smallest and len(set(found)) == k:
            score = float(silhouette_score(matrix, found, metric="cosine"))
            best = max(best, (score, found), key=lambda b: b[0])
    for i, label in zip(kept, best[1], strict=True):
        labels[i] = label
    return labels


def _tfidf(texts: list[str]) -> tuple[csr_matrix | None, list[int]]:
    """The TF-IDF rows of the texts that have a term some other text has too, and their indexes."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

    stop = sorted(ENGLISH_STOP_WORDS | RESEARCH_STOP_WORDS)
    vectorizer = TfidfVectorizer(stop_words=stop, token_pattern=_TERM, min_df=2, sublinear_tf=True)
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no term occurs twice: nothing to cluster on
        return None, []
    kept = [i for i in range(matrix.shape[0]) if matrix[i].nnz]
    return (matrix[kept] if kept else None), kept


def pick_keywords(members: set[int], found: dict[str, set[int]], texts: list[str] | None = None) -> tuple[str, ...]:
    """Terms mostly of ``members``' titles and keywords (``found``: each with the works it
    matches), picked while each places more of them; a word of everyday English ("local",
    "theory") only inside a phrase ("type theory"), a common one ("comprehensive") not for one
    work alone, and no word that the library's abstracts (``texts``, lowercased: what topics
    match in) use mostly outside ``members``: it would pull their works in."""
    found = {t: docs for t, docs in found.items() if not general(t)}
    chosen: list[str] = []
    placed: set[int] = set()
    while len(chosen) < MAX_KEYWORDS:
        gains = {t: len(docs & members - placed) for t, docs in found.items() if t not in chosen}
        # Most works placed; then the most precise; then a word before a phrase (easier to edit),
        # and a long word before a short one ("backpropagation" says more than "does").
        best = min(gains.items(), key=lambda kv: (-kv[1], -_precision(found[kv[0]], members), kv[0].count(" "),
                                                  -len(kv[0]), kv[0]), default=None)  # fmt: skip
        if best is None or best[1] == 0:
            break
        if (best[1] == 1 and not rare(best[0])) or (
            texts is not None and _precision(_matching(best[0], texts), members) < MIN_PRECISION
        ):
            del found[best[0]]
            continue
        chosen.append(best[0])
        placed |= found[best[0]] & members
    # The most frequent first: they name the topic.
    return tuple(sorted(chosen, key=lambda t: (-len(found[t] & members), -_precision(found[t], members), t)))


def _matching(term: str, texts: list[str]) -> set[int]:
    pattern = re.compile(rf"\b{re.escape(term)}")
    return {i for i, text in enumerate(texts) if pattern.search(text)}


def _candidates(members: set[int], focus: list[str]) -> dict[str, set[int]]:
    """Each word or two-word phrase of the members' focus texts, with every work it matches."""
    stop = _stop_words()
    terms: set[str] = set()
    for i in members:
        words = [w for w in re.findall(_TERM, focus[i]) if w not in stop]
        terms.update(words)
        terms.update(" ".join(pair) for pair in pairwise(words) if f"{pair[0]} {pair[1]}" in focus[i])
    out = {}
    for term in sorted(terms):
        docs = _matching(term, focus)
        if _precision(docs, members) >= MIN_PRECISION:
            out[term] = docs
    return out


def _precision(docs: set[int], members: set[int]) -> float:
    return len(docs & members) / len(docs) if docs else 0.0


def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS | RESEARCH_STOP_WORDS)


def _topic(keywords: tuple[str, ...], named: list[str], works: list[Work], taken: set[str]) -> Topic:
    titles = [to_text(w.title) for w in works]
    title = ", ".join(spelled(t, titles) for t in named or keywords[:MAX_NAME_TERMS])
    venues = Counter(found[0].name for w in works if (found := venue_of(w)))
    said = f"{len(works)} works of this library that name {', '.join(keywords[:5])}"
    if venues:
        said += "; venues: " + ", ".join(name for name, _ in venues.most_common(3))
    topic_id = _unique_id(tuple(named) or keywords, taken)
    return Topic(topic_id, title[:1].upper() + title[1:], f"Suggested from {said}.", (), keywords)


def _unique_id(keywords: tuple[str, ...], taken: set[str]) -> str:
    base = (
        "-".join(re.findall(r"[a-z0-9]+", " ".join(keywords[:2]).encode("ascii", "ignore").decode()))[:48].strip("-")
        or "topic"
    )
    topic_id, n = base, 2
    while topic_id in taken:
        topic_id, n = f"{base}-{n}", n + 1
    taken.add(topic_id)
    return topic_id
