"""Author listings: one page per initial of the last name, one section per author.

A page per author made up 62% of a 10,000-paper site's documents, most of them for a
single paper, and each page costs Sphinx's fixed per-document work. Grouped by initial,
the pages stay few (at most 27) and every author keeps an anchor to link to.

An initial with more than ``SPLIT`` authors has a page per first two letters instead ("Ba",
"Be"; the initial's page keeps the names with no second letter a-z): a page of a thousand
sections is slow to scroll and to write, and a note's status change writes again the page
of each of its paper's authors (at 10,000 works, four pages of 900-1,200 authors took 2.1 s).

A chart or a feed of one's own is for the authors a reader follows: those with at least
``[site] author_chart_min`` (``author_feed_min``) papers, and of them the ``MOST`` most
prolific. Twenty collaboration papers of 5,000 authors each otherwise drew 10,000 charts
and wrote 5,000 feeds (more than 10 minutes), each the same as the next.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ..latex import ascii_fold
from ..model import Author, Library, Paper, Topic
from .charts import author_min, chart, topic_stack
from .environment import render
from .escape import Md, md_text
from .inputs import Inputs
from .links import AUTHORS, link_list, newest_first, plural, url
from .memo import current, key_of, one

OTHER = "other"  # last names that do not start with a letter a-z once accents are folded
TOP = 20  # the most frequent authors, listed on the index page
MOST = 200  # authors with a chart (or a feed) of their own, at most: the most prolific
LONG = 20  # a paper with more authors names the first FEW of them ("… and 4,990 others")
FEW = 10
SPLIT = 300  # authors of one initial on one page, at most; more, and it has a page per two letters


def last_name(author: Author) -> str:
    return _folded_last(author.name)


@cache  # by name: the pages, their index, the feeds and the paper pages each sort or group every author
def _folded_last(name: str) -> str:
    parts = name.split()
    return ascii_fold(parts[-1]).lower() if parts else ""


def page_names(authors: Iterable[Author]) -> dict[str, str]:
    """Author id -> the stem of the page under ``authors/`` that lists them: their initial, or the
    first two letters of their last name when more than ``SPLIT`` authors share the initial."""
    by_initial: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for author in authors:
        last = last_name(author)
        by_initial[last[:1] if "a" <= last[:1] <= "z" else OTHER].append((author.id, last[1:2]))
    return {
        aid: first + second if len(group) > SPLIT and first != OTHER and "a" <= second <= "z" else first
        for first, group in by_initial.items()
        for aid, second in group
    }


def prolific(authors: Iterable[Author], least: int, count: Callable[[Author], int]) -> set[str]:
    """The ids of the ``MOST`` authors with the most papers (as ``count`` counts them, at least
    ``least``); ties go by last name, as on the index page."""
    ranked = sorted((a for a in authors if count(a) >= least), key=lambda a: (-count(a), last_name(a), a.name, a.id))
    return {a.id for a in ranked[:MOST]}


def own_papers(author: Author) -> list[str]:
    """The author's papers but those flagged as a namesake's (``Author.flags``)."""
    flagged = {f.key for f in author.flags}
    return [k for k in author.papers if k not in flagged]


def shown_names(names: Sequence[str]) -> tuple[list[str], int]:
    """The names a paper's page or feed entry lists, and how many it leaves out: all of up to
    ``LONG``, else the first ``FEW`` (the BibTeX in the Cite menu has them all)."""
    return (list(names), 0) if len(names) <= LONG else (list(names[:FEW]), len(names) - FEW)


def author_urls(library: Library) -> dict[str, str]:
    """Author id -> ``rl:`` URL of the author's section."""
    pages = page_names(library.authors)
    return {a.id: url(f"{AUTHORS}/{pages[a.id]}", f"author-{a.id}") for a in library.authors}


def author_listings(inputs: Inputs) -> dict[str, str]:
    return author_pages(inputs.library)


def author_pages(library: Library) -> dict[str, str]:
    """Each paper's item names its reading status, as the Sphinx extension fills it in when it
    writes the page (``link_list``'s ``status``): the pages do not change with a note's status."""
    by_key = library.by_key()
    groups: dict[str, list[Author]] = defaultdict(list)
    names = page_names(library.authors)
    for author in sorted(library.authors, key=lambda a: (last_name(a), a.name, a.id)):
        groups[names[author.id]].append(author)
    topics = key_of(library.topics)
    charted = prolific(library.authors, author_min(), lambda a: len(own_papers(a)))
    pages = {}
    for letter, members in groups.items():
        path = f"{AUTHORS}/{letter}.md"
        drawn = sorted(a.id for a in members if a.id in charted)
        key = key_of(letter, members, _papers_read(members, by_key), topics, drawn)
        pages[path] = one(path, key, _letter_page, letter, members, by_key, library.topics, set(drawn))
    pages[f"{AUTHORS}/index.md"] = _index_page(library, groups)
    return pages


def _papers_read(members: list[Author], by_key: dict[str, Paper]) -> list[str]:
    """What a letter's page reads of its authors' papers (and their namesakes')."""
    keys = [k for a in members for k in (*a.papers, *(f.key for f in a.flags))]
    memo = current()
    return [memo.digest(by_key.get(k)) for k in keys]


def _letter_page(
    letter: str, members: list[Author], by_key: dict[str, Paper], topics: tuple[Topic, ...], charted: set[str]
) -> str:
    heading = "Other last names" if letter == OTHER else letter.capitalize()
    return render(
        "authors.md.j2",
        title=f"Authors: {heading}",
        intro=f"{plural(len(members), 'author')}, by last name, each with their papers in this list, newest first.",
        authors=[_section(a, by_key, topics, a.id in charted) for a in members],
    )


def _section(author: Author, by_key: dict[str, Paper], topics: tuple[Topic, ...], charted: bool) -> dict[str, object]:
    flagged = {f.key: f.evidence for f in author.flags}
    papers = newest_first([by_key[k] for k in author.papers])
    intro = plural(len(papers), "paper")
    if flagged:
        intro += (
            f". This is an aggregator's profile, and {plural(len(flagged), 'paper')} in it look like the work of"
            " a different person with the same name. They are kept, and listed apart below with the evidence"
        )
    own = [p for p in papers if p.key not in flagged]  # a namesake's papers are not in the chart
    drawn = chart(f"{AUTHORS}/{author.id}", f"by {author.name}", own, topic_stack(topics)) if charted else Md("")
    return {
        "name": Md(f"{{readinglist-anchor}}`author-{author.id}`{md_text(author.name)}"),
        "chart": drawn,
        "intro": intro + ".",
        "items": link_list([(p, "") for p in own], status=True),  # "— to read", filled in by Sphinx
        "flagged": link_list([(by_key[k], why) for k, why in sorted(flagged.items())]),
        "namesakes": Md("\n".join(f"- {md_text(note)}" for note in author.namesakes)),
    }


def _index_page(library: Library, groups: dict[str, list[Author]]) -> str:
    urls = author_urls(library)
    letters = sorted(groups, key=lambda g: (g == OTHER, g))
    top = sorted(library.authors, key=lambda a: (-len(a.papers), last_name(a), a.id))[:TOP]
    return render(
        "authors_index.md.j2",
        count=plural(len(library.authors), "author"),
        letters=[
            Md(f"[{'Other' if g == OTHER else g.capitalize()}]({url(f'{AUTHORS}/{g}')}) ({len(groups[g])})")
            for g in letters
        ],
        top=[Md(f"[{md_text(a.name)}]({urls[a.id]}) ({plural(len(a.papers), 'paper')})") for a in top],
    )
