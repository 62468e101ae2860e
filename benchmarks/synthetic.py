"""A deterministic synthetic reading list of N works, written as profile dumps.

Works are grouped into author profiles of about 150 papers, as an aggregator's dumps are.
Every work is in its owner's author-profile dump (authors and abstract, no title); about
90% are also in the owner's arXiv listing (year, title, abstract, category), so the
importer merges the two records by their identical abstract. The other 10% stay untitled
and uncategorized, so working titles and category inference run. A few works are also
listed by a second profile (co-owned papers), which the importer merges too.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

import prose
from vocabulary import (
    FIRST_NAMES,
    LAST_NAMES,
    MIDDLE_INITIALS,
    SYSTEM_HEADS,
    SYSTEM_SUFFIXES,
    SYSTEM_TAILS,
    TOPIC_WEIGHTS,
    TOPICS,
)

PROFILE_SIZE = 150
LISTED_SHARE = 0.9  # works with a title and a category (the rest: author-profile record only)
CO_OWNED_SHARE = 0.04  # works also in a second profile's listing
NAMED_SHARE = 0.4  # titles of the form "System: description"
VERSION_SHARE = 0.2  # named works that reuse an earlier system name (a new version)
AUTHOR_COUNT_WEIGHTS = (5, 12, 20, 20, 16, 12, 8, 7)  # 1..8 authors
YEARS = range(2015, 2025)


@dataclass
class Work:
    title: str
    abstract: str
    year: int
    categories: tuple[str, ...]
    authors: list[str]
    owner: int
    listed: bool = True
    co_owner: int | None = None


@dataclass
class Corpus:
    owners: list[str]
    works: list[Work]
    networks: list[list[str]] = field(default_factory=list)
    systems: dict[int, list[str]] = field(default_factory=dict)  # profile -> system names used
    ranks: list[float] = field(default_factory=list)  # cumulative Zipf weights over a network's members


def people(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct names; about one in six has a middle initial ("Alexander C. Berg")."""
    names: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        name = f"{first} {rng.choice(MIDDLE_INITIALS)}. {last}" if rng.random() < 0.17 else f"{first} {last}"
        if name not in names:
            names.add(name)
            out.append(name)
    return out


def make_corpus(n: int, seed: int = 1) -> Corpus:
    rng = random.Random(seed)
    profiles = max(2, round(n / PROFILE_SIZE))
    pool = people(rng, profiles + 3 * n + 20)
    owners, rest = pool[:profiles], pool[profiles:]
    size = len(rest) // profiles  # each owner's co-authors: a network of their own
    corpus = Corpus(owners, [], [rest[i * size : (i + 1) * size] for i in range(profiles)])
    corpus.ranks = list(accumulate(1 / (r + 1) ** 0.8 for r in range(size)))
    titles: set[str] = set()
    for i in range(n):
        corpus.works.append(make_work(rng, corpus, i % profiles, titles))
    return corpus


def make_work(rng: random.Random, corpus: Corpus, owner: int, titles: set[str]) -> Work:
    topic = rng.choices(list(TOPIC_WEIGHTS), weights=list(TOPIC_WEIGHTS.values()))[0]
    year = rng.choices(YEARS, weights=[1 + i for i in range(len(YEARS))])[0]
    while True:
        values = prose.slots(rng, topic, system_name(rng, corpus, owner))
        title = prose.title(rng, values)
        if title.lower() not in titles:  # identical titles would be merged into one work
            titles.add(title.lower())
            break
    work = Work(title, prose.abstract(rng, topic, values), year, categories(rng, topic), [], owner)
    work.authors = authors(rng, corpus, owner)
    work.listed = rng.random() < LISTED_SHARE
    if work.listed and len(corpus.owners) > 1 and rng.random() < CO_OWNED_SHARE:
        work.co_owner = rng.choice([o for o in range(len(corpus.owners)) if o != owner])
        work.authors.insert(rng.randrange(len(work.authors) + 1), corpus.owners[work.co_owner])
    return work


def system_name(rng: random.Random, corpus: Corpus, owner: int) -> str:
    """Empty for a plain title; else a new name, or (a new version) one this profile used before."""
    if rng.random() >= NAMED_SHARE:
        return ""
    used = corpus.systems.setdefault(owner, [])
    if used and rng.random() < VERSION_SHARE:
        return rng.choice(used)
    name = rng.choice(SYSTEM_HEADS) + rng.choice(SYSTEM_TAILS) + rng.choice(SYSTEM_SUFFIXES)
    used.append(name)
    return name


def categories(rng: random.Random, topic: str) -> tuple[str, ...]:
    first = rng.choice(TOPICS[topic]["categories"])
    if rng.random() < 0.2:
        other = rng.choice(TOPICS[rng.choice(list(TOPICS))]["categories"])
        return (first, other) if other != first else (first,)
    return (first,)


def authors(rng: random.Random, corpus: Corpus, owner: int) -> list[str]:
    """1-8 authors: the owner (usually last, as a lab head), frequent and occasional co-authors."""
    count = rng.choices(range(1, 9), weights=AUTHOR_COUNT_WEIGHTS)[0]
    network = corpus.networks[owner]
    chosen: list[str] = []
    while len(chosen) < count - 1:
        source = network if rng.random() > 0.1 else rng.choice(corpus.networks)  # 10%: another group's
        # 40% of picks favour a group's frequent co-authors; the rest are anyone in it.
        name = rng.choices(source, cum_weights=corpus.ranks)[0] if rng.random() < 0.4 else rng.choice(source)
        if name not in chosen:
            chosen.append(name)
    position = len(chosen) if rng.random() < 0.7 else rng.randrange(len(chosen) + 1)
    chosen.insert(position, corpus.owners[owner])
    return chosen


def author_line(rng: random.Random, names: list[str]) -> str:
    """Dumps often show three names and "et al."."""
    if len(names) > 3 and rng.random() < 0.6:
        return ", ".join(names[:3]) + " et al."
    return ", ".join(names)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def listing_text(owner: str, works: list[Work]) -> str:
    """An arXiv listing dump: header lines, then year, title, abstract, category; blank lines between."""
    lines = ["arXiv subjects", owner, f"Publications and source records attributed to {owner}."]
    lines.append(f"At least {len(works)} records · Page 1")
    for work in works:
        lines += [f"arXiv{work.year}", work.title, work.abstract, " ".join(work.categories) + "↗"]
    return "\n\n".join(lines) + "\n"


def pairs_text(rng: random.Random, owner: str, works: list[Work]) -> str:
    """An author-profile dump: the owner's name, then author line and abstract pairs."""
    lines = [owner]
    for work in works:
        lines += [author_line(rng, work.authors), work.abstract]
    return "\n\n".join(lines) + "\n"


def write_dumps(corpus: Corpus, folder: Path, seed: int = 2) -> list[Path]:
    """Two dumps per profile; returns the paths written."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for o, owner in enumerate(corpus.owners):
        listed = [w for w in corpus.works if (w.owner == o and w.listed) or w.co_owner == o]
        listed.sort(key=lambda w: -w.year)  # newest first, as the listing pages are
        paths.append(folder / f"{slug(owner)}-arxiv.txt")
        paths[-1].write_text(listing_text(owner, listed), encoding="utf-8")
        paths.append(folder / f"{slug(owner)}-profile.txt")
        paths[-1].write_text(pairs_text(rng, owner, [w for w in corpus.works if w.owner == o]), encoding="utf-8")
    return paths


def extra_listing_record(corpus: Corpus, seed: int = 3) -> str:
    """One more arXiv listing record for profile 0 (the "add one paper" step appends it)."""
    rng = random.Random(seed)
    work = make_work(rng, corpus, 0, {w.title.lower() for w in corpus.works})
    block = [f"arXiv{work.year}", work.title, work.abstract, " ".join(work.categories) + "↗"]
    return "\n\n" + "\n\n".join(block) + "\n"
