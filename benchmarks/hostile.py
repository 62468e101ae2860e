"""The resource budget's projects (issue 9, item 10): the synthetic list, and hostile inputs.

Each case lays out a project folder. Single hostile entries go into the 10,000-work list,
as one odd record in a real list would; the many-entry cases are whole lists of their own.
A 5 MB abstract comes through a dump (the importer's path); 5,000 authors cannot (an author
line in a dump is at most 400 characters), so that entry is written into refs.bib by hand,
as are the identical titles: the importer merges identical titles into one work, so only a
hand-written refs.bib brings 2n of them to generate (their dump import is a case too).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import project
import prose
from synthetic import Corpus, Work, listing_text, make_corpus
from vocabulary import TOPICS

ABSTRACT_BYTES = 5_000_000
AUTHORS = 5_000
IDENTICAL = 2  # entries with one title, per work of the synthetic list: 20,000 for 10,000
TITLE = "WidgetNet: A Study of Widgets"


@dataclass(frozen=True)
class Case:
    name: str
    description: str
    write: Callable[[Path, int], None]  # lays out the project for a list of n works
    imports: bool = True  # False: a hand-written refs.bib and no dumps, so no import step


def synthetic(root: Path, n: int) -> None:
    project.write_project(root, make_corpus(n))


def big_abstract(root: Path, n: int) -> None:
    """The synthetic list, plus one listing record whose abstract is 5 MB of prose (one paragraph)."""
    corpus = make_corpus(n)
    project.write_project(root, corpus)
    rng, topic = random.Random(5), next(iter(TOPICS))
    values, parts, size = prose.slots(rng, topic, "HugeNet"), [], 0
    while size < ABSTRACT_BYTES:
        parts.append(prose.abstract(rng, topic, values))
        size += len(parts[-1]) + 1
    work = Work("HugeNet: An Abstract of Five Megabytes", " ".join(parts), 2024, ("cs.LG",), [], 0)
    (root / "conf" / "sources" / "hostile-arxiv.txt").write_text(listing_text(corpus.owners[0], [work]), "utf-8")


def many_authors(root: Path, n: int) -> None:
    """The synthetic list, plus a hand-written refs.bib entry with 5,000 authors from its people."""
    corpus = make_corpus(n)
    project.write_project(root, corpus)
    people = list(dict.fromkeys(name for network in corpus.networks for name in network))[:AUTHORS]
    author = " and ".join(_bib_name(p) for p in people)
    entry = _entry("collaboration2024", "A Result of a Large Collaboration", author, 2024, _abstract(random.Random(6)))
    (root / "refs.bib").write_text(entry, encoding="utf-8")


def identical_dumps(root: Path, n: int) -> None:
    """2n listing records with one title (the importer merges them into one work)."""
    rng, corpus = random.Random(7), make_corpus(2)
    project.write_project(root, Corpus([], []))
    works = [
        replace(corpus.works[0], title=TITLE, year=2015 + i % 10, abstract=_abstract(rng)) for i in range(IDENTICAL * n)
    ]
    (root / "conf" / "sources" / "identical-arxiv.txt").write_text(listing_text(corpus.owners[0], works), "utf-8")


def identical_bib(root: Path, n: int) -> None:
    """A hand-written refs.bib: 2n distinct keys, one title, one author, no abstract."""
    project.write_project(root, Corpus([], []))
    entries = [_entry(f"widget{i:05d}", TITLE, "Lovelace, Ada", 2015 + i % 10, "") for i in range(IDENTICAL * n)]
    (root / "refs.bib").write_text("".join(entries), encoding="utf-8")


def shared_prefix(root: Path, n: int) -> None:
    """The synthetic list with every title renamed "WidgetNet: ..." (one system name for all)."""
    corpus = make_corpus(n)
    for work in corpus.works:
        work.title = "WidgetNet: " + work.title.split(": ", 1)[-1]
    project.write_project(root, corpus)


def prefix_one_author(root: Path, n: int) -> None:
    """One profile's listing of n works, all of 2020, every title "WidgetNet: ..." (one key stem)."""
    corpus = make_corpus(n)
    works = [replace(w, title="WidgetNet: " + w.title.split(": ", 1)[-1], year=2020) for w in corpus.works]
    project.write_project(root, Corpus([], []))
    (root / "conf" / "sources" / "widgetnet-arxiv.txt").write_text(listing_text(corpus.owners[0], works), "utf-8")


def _bib_name(name: str) -> str:
    first, _, last = name.rpartition(" ")
    return f"{last}, {first}"


def _abstract(rng: random.Random) -> str:
    topic = rng.choice(list(TOPICS))
    return prose.abstract(rng, topic, prose.slots(rng, topic, ""))


def _entry(key: str, title: str, author: str, year: int, abstract: str) -> str:
    fields = [f"  title = {{{title}}},", f"  author = {{{author}}},", f"  year = {{{year}}},"]
    fields += [f"  abstract = {{{abstract}}},"] if abstract else []
    return f"@misc{{{key},\n" + "\n".join(fields) + "\n}\n\n"


CASES = (
    Case("synthetic", "the synthetic list of n works (the budget's reference)", synthetic),
    Case("abstract_5mb", "the list + one record with a 5 MB abstract (dump)", big_abstract),
    Case("authors_5000", "the list + one entry with 5,000 authors (refs.bib)", many_authors),
    Case("identical_dumps", "2n dump records with one title (merged on import)", identical_dumps),
    Case("identical_bib", "2n refs.bib entries with one title and author, no abstract", identical_bib, imports=False),
    Case("prefix", "the list with every title starting 'WidgetNet:'", shared_prefix),
    Case("prefix_one_author", "n 'WidgetNet:' titles of 2020 in one profile's listing", prefix_one_author),
)
