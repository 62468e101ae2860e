"""Enrich works into papers: categories, topics, summaries, versions and related links."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace

from ..latex import protect_title, to_text
from ..model import Author, Library, Paper, Topic, Work
from ..slugs import slugs
from ..store.identity import Rules
from ..titles import working_title
from . import categories, summary
from .authors import mixed_profile_flags
from .brief import brief
from .credit import is_et_al, page_authors
from .people import people
from .recall import Recall
from .related import listed_authors, related_links, system_name, version_groups
from .signals import RECORD_SIGNALS
from .similarity import Corpus, build_corpus
from .topics import assign_subtopics, assign_topics


def without_et_al(work: Work) -> Work:
    """ "et al." or "others" written as an author is the et_al flag: whatever the store let through."""
    if not any(is_et_al(name) for name in work.authors):
        return work
    return replace(work, authors=tuple(n for n in work.authors if not is_et_al(n)), et_al=True)


def current_title(work: Work, recall: Recall | None = None) -> Work:
    """A working title as today's ``working_title`` makes it: refs.bib keeps the one made at
    import, which an older version may have made worse. A title the user wrote is kept."""
    if not work.title_inferred or not work.abstract.strip():
        return work
    title = (recall or Recall())("title", working_title, work.abstract)
    return replace(work, title=protect_title(title)) if title else work


def plain_text(work: Work) -> str:
    return f"{to_text(work.title)}. {to_text(work.abstract)}"


def enrich(
    works: list[Work],
    topics: tuple[Topic, ...],
    top_k: int = 5,
    min_score: float = 0.1,
    recall: Recall | None = None,
    infer_categories: bool = True,
    rules: Rules | None = None,
) -> Library:
    """``recall``: the last generate's per-work results (enrich/recall.py), if the caller kept them;
    ``infer_categories``: guess a category from the text when the record gives none; ``rules``:
    conf/identity.toml, whose ``authors`` tables join or split people (enrich/people.py)."""
    recall = recall or Recall()
    works = sorted((current_title(without_et_al(w), recall) for w in works), key=lambda w: w.key)
    texts = [plain_text(w) for w in works]
    corpus = build_corpus(texts, recall)
    found = people(works, rules)
    ids = found.ids
    versions = version_groups(works, corpus, ids)
    slug_of = slugs(w.key for w in works)
    inferred = categories.infer(works, texts, corpus, infer_categories)
    cats_of = [inferred[i].categories if i in inferred else w.categories for i, w in enumerate(works)]
    topic_texts = [_topic_text(texts[i], w) for i, w in enumerate(works)]
    focus = [". ".join((to_text(w.title), *w.keywords)) for w in works]  # what a paper says it is about
    topics_of = [
        recall("topics", assign_topics, cats_of[i], topic_texts[i], focus[i], also=(topics,)) for i in range(len(works))
    ]
    # Fields that keep distant papers apart: the record's own or read from it (a venue), never a guess.
    read = [inferred[i].categories if i in inferred and inferred[i].evidence.startswith(RECORD_SIGNALS) else ()
            for i in range(len(works))]  # fmt: skip
    trusted = [w.categories or read[i] for i, w in enumerate(works)]
    related = related_links(works, corpus, versions, ids, top_k, min_score, topics_of, trusted)
    abstracts = [to_text(w.abstract) for w in works]
    results = [recall("results", summary.key_results, text) for text in abstracts]
    papers = []
    for i, work in enumerate(works):
        guess = inferred.get(i)
        cats = cats_of[i]
        abstract = abstracts[i]
        papers.append(
            Paper(
                work=work,
                slug=slug_of[work.key],
                categories=cats,
                categories_inferred=guess is not None and bool(cats),
                category_evidence=guess.evidence if guess else "",
                topics=topics_of[i],
                tldr=recall("tldr", summary.tldr, abstract),
                key_results=results[i],
                system=system_name(work),
                versions=versions.get(work.key, ()),
                related=related.get(work.key, ()),
                subtopics=recall("subtopics", assign_subtopics, topics_of[i], cats, topic_texts[i], also=(topics,)),
                brief=recall("brief", brief, abstract, results[i]),
            )
        )
    return Library(tuple(papers), topics, _authors(works, papers, ids, corpus, found.namesakes), ids)


def _topic_text(text: str, work: Work) -> str:
    """The text topics are matched in: the user's keywords say what a paper is about too."""
    return ". ".join((text, *work.keywords)) if work.keywords else text


def _authors(
    works: list[Work], papers: list[Paper], ids: dict[str, str], corpus: Corpus, namesakes: dict[str, tuple[str, ...]]
) -> tuple[Author, ...]:
    names: dict[str, Counter[str]] = defaultdict(Counter)
    members: dict[str, list[int]] = defaultdict(list)
    for i, work in enumerate(works):
        for name in page_authors(work):
            names[ids[name]][name] += 1
            members[ids[name]].append(i)
    owners = {ids[s.owner] for w in works for s in w.sources if s.owner}
    keys = [w.key for w in works]
    cats = [p.categories for p in papers]
    coauthored = [bool(listed_authors(w, ids)) for w in works]
    out = []
    for aid in sorted(names):
        index = list(dict.fromkeys(members[aid]))
        _, flags = mixed_profile_flags(index, keys, cats, coauthored, corpus) if aid in owners else ("", ())
        name = names[aid].most_common(1)[0][0]
        out.append(Author(aid, name, tuple(keys[i] for i in index), flags, namesakes.get(aid, ())))
    return tuple(out)
