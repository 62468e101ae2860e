"""The central model: immutable records that every pipeline stage reads and returns anew.

A ``RawRecord`` is one record as a source dump states it. A ``Work`` is one paper
as refs.bib stores it. ``Paper`` is a work after enrichment: everything a page shows. A
``Library`` is every paper with the user's topics (``Topic``) and the authors (``Author``);
``Note`` is a note of the user's, ``Credit`` what a source says of a work's authors.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SourceRef:
    """Where a record came from: the dump file (relative to the repo), its line, its owner.

    ``why`` says why a record was merged into a work that another record started; it is
    not part of the record's identity.
    """

    file: str
    line: int
    owner: str = field(default="", compare=False)
    why: str = field(default="", compare=False)
    # What kind of source the file is: one of SOURCE_KINDS. Shown to readers ("BibTeX: mine.bib:120").
    kind: str = field(default="profile", compare=False)

    def render(self) -> str:
        return f"{self.file}:{self.line}"


# Source kinds, and how a page names each (with the file:line where there is one).
SOURCE_KINDS = {
    "profile": "author profile",
    "bibtex": "BibTeX",
    "csl-json": "CSL-JSON",
    "zotero": "Zotero",
    "arxiv": "arXiv API",
    "crossref": "Crossref",
}


@dataclass(frozen=True)
class Skip:
    """An entry a reader could not use: reported as ``file:line: key: reason``, never fatal to the rest."""

    file: str
    line: int
    key: str
    reason: str

    def render(self) -> str:
        return f"{self.file}:{self.line}: {self.key or '(no key)'}: {self.reason}"


@dataclass(frozen=True)
class RawRecord:
    """One record exactly as a source dump gives it (text still raw, possibly LaTeX)."""

    source: SourceRef
    title: str = ""
    authors: tuple[str, ...] = ()
    et_al: bool = False
    year: int | None = None
    abstract: str = ""
    categories: tuple[str, ...] = ()  # arXiv categories only (cs.DC); a user's keywords are ``keywords``
    key: str = ""  # the citation key the source gave, if any (kept when valid)
    entry_type: str = ""  # BibTeX/BibLaTeX type, lower case (article, inproceedings, online, ...)
    doi: str = ""  # bare DOI, 10.xxxx/...
    eprint: str = ""  # arXiv id as given (version suffix kept)
    url: str = ""
    keywords: tuple[str, ...] = ()  # the user's keywords: tags, not categories
    # Other bibliographic fields, BibTeX-named (journal, booktitle, publisher, editor, volume,
    # pages, school, month, note, ...), values as LaTeX text: venues and what a citation needs.
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ReadResult:
    """What a reader made of one file: the records it could read and the entries it skipped."""

    records: tuple[RawRecord, ...]
    skipped: tuple[Skip, ...] = ()


@dataclass(frozen=True)
class Work:
    """One paper in refs.bib. ``title_inferred`` marks a working title the tool derived."""

    key: str
    title: str
    authors: tuple[str, ...] = ()
    et_al: bool = False
    year: int | None = None
    abstract: str = ""
    categories: tuple[str, ...] = ()
    title_inferred: bool = False
    eprint: str = ""
    sources: tuple[SourceRef, ...] = ()
    entry_type: str = "misc"
    extra: tuple[tuple[str, str], ...] = ()  # every other field of the entry, as stored (venue, editor, ...)
    doi: str = ""
    url: str = ""
    keywords: tuple[str, ...] = ()  # the user's keywords: shown as tags


@dataclass(frozen=True)
class Link:
    """A cross-link from one paper to another, with the reason shown to the reader."""

    key: str
    reason: str


@dataclass(frozen=True)
class Brief:
    """A paper in three lines cut from its abstract; a line the abstract does not support is empty."""

    problem: str = ""
    approach: str = ""
    result: str = ""

    def lines(self) -> tuple[tuple[str, str], ...]:
        """(label, line) for each line there is, in reading order."""
        named = (("Problem", self.problem), ("Approach", self.approach), ("Result", self.result))
        return tuple((label, line) for label, line in named if line.strip())


@dataclass(frozen=True)
class Paper:
    """A work with everything derived for its page."""

    work: Work
    slug: str
    categories: tuple[str, ...]
    categories_inferred: bool
    category_evidence: str
    topics: tuple[str, ...]
    tldr: str
    key_results: tuple[str, ...]
    system: str = ""
    versions: tuple[str, ...] = ()
    related: tuple[Link, ...] = field(default_factory=tuple)
    subtopics: tuple[str, ...] = ()  # ``<topic>/<sub>`` ids within ``topics`` (conf/topics.toml's [[topic.sub]])
    brief: Brief = Brief()

    @property
    def key(self) -> str:
        return self.work.key

    @cached_property
    def digest(self) -> str:
        """A SHA-256 of everything the paper holds (its fields' repr), for the renders that key on it
        (render/memo.py). Kept on the object, so it is pickled with the enrichment's cache: a
        served library of 10,000 papers is not digested again at each note edit (0.4 s)."""
        return hashlib.sha256(repr(self).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    description: str
    categories: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    subtopics: tuple[Topic, ...] = ()  # a subtopic's id is ``<topic>/<sub>``: its page under topics/

    def matches_category(self, category: str) -> bool:
        return any(
            category == pattern or (pattern.endswith(".*") and category.startswith(pattern[:-1]))
            for pattern in self.categories
        )

    @property
    def parent(self) -> str:
        """The topic id of a subtopic; empty for a topic."""
        return self.id.rpartition("/")[0]


@dataclass(frozen=True)
class Flag:
    """A paper of a profile that looks like a namesake's, and why (the page shows it to maintainers)."""

    key: str
    evidence: str


@dataclass(frozen=True)
class Author:
    id: str
    name: str
    papers: tuple[str, ...]
    flags: tuple[Flag, ...] = ()  # papers that look like a namesake's (profile owners only)
    namesakes: tuple[str, ...] = ()  # names that could be this person's, kept apart, and why (enrich/people.py)


@dataclass(frozen=True)
class Library:
    papers: tuple[Paper, ...]
    topics: tuple[Topic, ...]
    authors: tuple[Author, ...]
    author_ids: dict[str, str]  # every name as written -> its person's id

    def by_key(self) -> dict[str, Paper]:
        return {p.key: p for p in self.papers}


@dataclass(frozen=True)
class Credit:
    """What the source says about a work's authors, and no more.

    ``listed``: authors in the source's order (an owner standing in for an unknown list is not
    one: an arXiv listing that names only its profile owner says nothing of who came first);
    ``with_``: profile owners the work is attributed to that the list does not name.
    """

    listed: tuple[str, ...]
    et_al: bool
    with_: tuple[str, ...]

    @property
    def gap(self) -> str:
        """Why ``with_`` names are apart from the list, as the page and the BibTeX note say it."""
        if not self.with_:
            return ""
        if self.et_al:
            return "full author list not in the source"
        return "attributed by an author profile, not in the source's author list"

    @property
    def note(self) -> str:
        """The BibTeX ``note`` that keeps a citation honest about the list (empty if complete)."""
        if not self.with_:
            return ""
        names = " and ".join(self.with_)
        if self.et_al:
            return f"Author list incomplete in the source; includes {names}"
        return f"Attributed to {names} by an author profile; not in the source's author list"


@dataclass(frozen=True)
class Note:
    path: Path
    body_line: int  # 0-based first line after the front matter, for {include} :start-line:
    meta: dict[str, Any] = field(default_factory=dict)
    has_body: bool = True
