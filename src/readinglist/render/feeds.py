"""Atom feeds of the papers, newest additions first: the whole list, each topic, tag and author.

Each feed is written by feedgen as ``feeds/<name>.xml``; ``feeds/index.json`` tells the Sphinx
adapter (``site/feedlinks.py``) which page advertises which feed, and it copies the feeds to the
site's ``feeds/`` folder. A feed never reads a clock: an entry's date is its note's ``added``,
else the first day of its year, else the epoch, so an unchanged list writes the same bytes and
a feed reader sees no false news. Without ``[site].base_url`` the links are relative to the
feed (Atom allows it; readers resolve them against the feed's own address) and the ids are
stable URNs; with it, every link is absolute.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from feedgen.entry import FeedEntry
from feedgen.feed import FeedGenerator

from ..enrich.credit import work_credit
from ..latex import to_text
from ..model import Library, Paper
from .accessors import year_of
from .authors import page_names, prolific, shown_names
from .escape import clean
from .links import AUTHORS, PAPERS, TOPICS, display_title
from .memo import current, key_of, one
from .reading import TAGS, tagged
from .registry import FEED_INDEX, FEEDS
from .workflow import LABELS, added_on, status

LIMIT = 50  # entries per feed: the newest additions
AUTHOR_MIN = 3  # the default [site] author_feed_min: an author gets a feed from this many papers on
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
Notes = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Feed:
    name: str  # the file's stem under feeds/
    title: str
    page: str  # the docname of the page it follows ("index" for the whole list)
    papers: Sequence[Paper]


def feed_files(library: Library, notes: Notes, site: Mapping[str, str]) -> dict[str, str]:
    """``{path under docs/: text}``: one Atom file per feed and the index of who advertises what."""
    base = site.get("base_url", "").rstrip("/")
    least = int(site.get("author_feed_min", AUTHOR_MIN))
    feeds = list(_feeds(library, notes, site.get("title", "Reading list"), least))
    # Every paper's place in the whole list's order, and its entry, made once for all its feeds.
    rank = {p.key: i for i, p in enumerate(newest(library.papers, notes, len(library.papers)))}
    entries: dict[str, FeedEntry] = {}
    files = {f"{FEEDS}/{feed.name}.xml": _atom(feed, notes, base, rank, entries) for feed in feeds}
    index: dict[str, list[list[str]]] = {}
    for feed in feeds:
        index.setdefault("*" if feed.name == "all" else feed.page, []).append([feed.title, f"{feed.name}.xml"])
    files[FEED_INDEX] = json.dumps(index, ensure_ascii=False, sort_keys=True) + "\n"
    return files


def _feeds(library: Library, notes: Notes, title: str, least: int) -> list[Feed]:
    by_key = library.by_key()
    feeds = [Feed("all", f"{title}: newest papers", "index", library.papers)]
    for topic in library.topics:
        for t in (topic, *topic.subtopics):
            members = [p for p in library.papers if t.id in p.topics or t.id in p.subtopics]
            feeds.append(Feed(_name("topic", t.id), f"{title}: {to_text(t.title)}", f"{TOPICS}/{t.id}", members))
    for slug, (tag, papers) in tagged(library, notes).items():
        feeds.append(Feed(_name("tag", slug), f"{title}: tagged {clean(tag)}", f"{TAGS}/{slug}", papers))
    followed = prolific(library.authors, least, lambda a: len(a.papers))
    pages = page_names(library.authors)
    for author in library.authors:
        if author.id in followed:
            papers = [by_key[k] for k in author.papers if k in by_key]
            page = f"{AUTHORS}/{pages[author.id]}"
            feeds.append(Feed(_name("author", author.id), f"{title}: papers by {clean(author.name)}", page, papers))
    return feeds


def _name(kind: str, ident: str) -> str:
    return f"{kind}-{ident.replace('/', '--')}"  # subtopic ids are "topic/sub": one flat folder


def entry_date(paper: Paper, notes: Notes) -> datetime.datetime:
    """When the paper joined the list as far as the records say: the note's ``added``, else its year."""
    added = added_on(notes.get(paper.slug, {}))
    if added:
        return datetime.datetime(added.year, added.month, added.day, tzinfo=datetime.UTC)
    year = year_of(paper.work)
    return datetime.datetime(year, 1, 1, tzinfo=datetime.UTC) if year and year >= 1970 else EPOCH


def newest(papers: Sequence[Paper], notes: Notes, limit: int = LIMIT) -> list[Paper]:
    dated = sorted((-entry_date(p, notes).timestamp(), p.key, i) for i, p in enumerate(papers))
    return [papers[i] for _, _, i in dated[:limit]]


def _atom(feed: Feed, notes: Notes, base: str, rank: Mapping[str, int], made: dict[str, FeedEntry]) -> str:
    """The feed, or the last generate's if its papers, their ``added`` and status are the same (render/memo.py)."""
    memo = current()
    read = [(memo.digest(p), repr(notes.get(p.slug, {}).get("added")), status(p, notes)) for p in feed.papers]
    path = f"{FEEDS}/{feed.name}.xml"
    return one(path, key_of(feed.name, feed.title, feed.page, base, read), atom, feed, notes, base, rank, made)


def atom(feed: Feed, notes: Notes, base: str, rank: Mapping[str, int], made: dict[str, FeedEntry]) -> str:
    """The feed as Atom XML (feedgen checks the required elements: id, title, updated, link).

    ``rank``: each paper's place in the whole list, newest first; ``made``: the entries made so far.
    """
    entries = sorted(feed.papers, key=lambda p: rank[p.key])[:LIMIT]
    fg = FeedGenerator()
    fg.id(_id(base, f"{FEEDS}/{feed.name}.xml"))
    fg.title(feed.title)
    fg.link(href=_href(base, f"{FEEDS}/{feed.name}.xml"), rel="self", type="application/atom+xml")
    fg.link(href=_href(base, f"{feed.page}.html"), rel="alternate", type="text/html")
    fg.updated(entry_date(entries[0], notes) if entries else EPOCH)
    fg.generator("readinglist")
    for paper in entries:
        if paper.key not in made:
            made[paper.key] = _entry(paper, notes, base)
        fg.add_entry(made[paper.key], order="append")
    return str(fg.atom_str(pretty=True).decode("utf-8"))


def _entry(paper: Paper, notes: Notes, base: str) -> FeedEntry:
    entry = FeedEntry()
    page = f"{PAPERS}/{paper.slug}.html"
    entry.id(_id(base, page))
    entry.title(display_title(paper))
    entry.link(href=_href(base, page), rel="alternate", type="text/html")
    entry.updated(entry_date(paper, notes))
    credit = work_credit(paper.work)  # as the page names them: the listed authors, then "with" owners
    # A collaboration's 5,000 names in each of its entries made feeds of megabytes: the first few.
    names, more = shown_names([n for n in dict.fromkeys(clean(to_text(n)) for n in credit.listed) if n])
    others = [f"and {more:,} others"] if more else []
    for name in dict.fromkeys([*names, *others, *(clean(to_text(n)) for n in credit.with_)]):
        if name:
            entry.author(name=name)
    said = [LABELS[s] for s in [status(paper, notes)] if s]
    summary = " · ".join([*said, clean(paper.tldr)]) if paper.tldr or said else ""  # the TL;DR is plain text
    if summary:
        entry.summary(summary)
    for topic in paper.topics:
        entry.category(term=topic)
    return entry


def _href(base: str, path: str) -> str:
    """Absolute under ``base``; else relative to the feed, which lives one folder down."""
    return f"{base}/{path}" if base else f"../{path}"


def _id(base: str, path: str) -> str:
    """The page's address when the site has one; else a URN the same path always gives."""
    return f"{base}/{path}" if base else uuid.uuid5(uuid.NAMESPACE_URL, f"readinglist:{path}").urn
