"""Rendered files kept from one generate to the next, each under a digest of exactly what it read.

A status edit changes about 13 of a 1,000-work site's 2,500 generated files, and adding a paper
about a hundred: rendering every listing, feed, download and paper page again would be most of
such a generate. So a renderer hands each of its units (a page, a feed, a download) to
``unit(name, key, make)``. ``key`` is a digest of everything the unit reads (its papers, their
notes' front matter, its topic or author), and when it matches the files the last generate
wrote are served, read back from docs/: an entry holds their digests, not their text (a memo
of the texts costs more to write than the listings it saves), so a file edited by hand, or never
written by a killed generate, no longer matches and is rendered.

A paper page also reads other papers by key (its related links, versions, crossref parent,
category evidence) through ``by_key``: ``page`` hands it a ``Recorder`` that notes each key
read, and what the page can show of those papers (``Memo.shown``) is checked on the next
generate too, so the page is rendered again when any paper it read changed, appeared or went.

A unit's charts and its Cite menus' formatted references go with its entry, so a served unit
leaves ``charts.drawn`` and the Cite cache as rendering it would. Outside ``kept`` (a test, a
forced generate) every unit is rendered. The settings and the code are in no key: the caller
(site/assemble.site_files) keeps the memo in the cache (readinglist.cache) under a key of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

from ..model import Paper
from . import charts
from .citecache import CACHE
from .recorder import Recorder

Make = Callable[[], dict[str, str]]


Read = tuple[str, str, str]  # a paper read by key: (key, its digest, what the page can show of it)


@dataclass(frozen=True)
class Entry:
    key: str  # the digest of the unit's own inputs
    reads: tuple[Read, ...]  # the papers a paper page read through by_key ("" digests: absent)
    files: dict[str, str]  # {path under docs/: digest of its text}: the unit's page or file, and its charts
    cited: dict[str, list[str]]  # the Cite cache's entries it used (citecache)


PageMake = Callable[[dict[str, Paper]], dict[str, str]]  # a paper page's files, from the papers it may read


class Memo:
    """``docs``: where the last generate wrote the files its entries name (their digests only)."""

    def __init__(self, previous: dict[str, Entry], active: bool = True, docs: Path | None = None) -> None:
        self.previous, self.active, self.docs = previous, active, docs
        self.made: dict[str, Entry] = {}
        self.served = 0  # units served unrendered, for tests and profiles
        # The texts served, by path: each equals the file the last generate wrote, after its
        # last pass of the character policy (chars.py), so that pass need not read it again.
        self.clean: dict[str, str] = {}
        self.rendered: list[str] = []  # the units rendered, likewise
        self._digests: dict[int, str] = {}  # linkless, by id(): one library per generate

    def digest(self, paper: Paper | None, linkless: bool = False) -> str:
        """A digest of everything ``paper`` holds; ``linkless``: but its related links."""
        if paper is None:
            return ""
        if not linkless:
            return paper.digest
        found = self._digests.get(id(paper))
        if found is None:
            found = self._digests[id(paper)] = replace(paper, related=()).digest
        return found

    def shown(self, paper: Paper | None, scope: frozenset[str]) -> str:
        """What a page that read the papers ``scope`` can show of ``paper``: all of it but its
        links to papers it did not read (a related list shows their titles, not their links;
        the graph draws the links among the papers it read)."""
        if paper is None:
            return ""
        links = [(link.key, link.reason) for link in paper.related if link.key in scope]
        return _sha(self.digest(paper, linkless=True) + repr(links))

    def unit(self, name: str, key: str, make: Make) -> dict[str, str]:
        """``make``'s files, or the last generate's if ``key`` is the same."""
        old = self.previous.get(name)
        served = self._serve(name, old) if old is not None and old.key == key and not old.reads else None
        return served if served is not None else self._made(name, key, make, ())

    def page(self, name: str, key: str, own: str, by_key: dict[str, Paper], make: PageMake) -> dict[str, str]:
        """A paper page's files (``own``: its key): ``make`` reads other papers only through the mapping it is given."""
        old = self.previous.get(name)
        reads = self._still(old.reads, by_key) if old is not None and old.key == key else None
        served = self._serve(name, replace(old, reads=reads)) if old is not None and reads is not None else None
        if served is not None:
            return served
        recorder = Recorder(by_key)
        files = self._made(name, key, lambda: make(recorder), ())
        if name in self.made and not recorder.all:  # a page that read every paper is not kept
            scope = frozenset(recorder.read | {own})
            reads = tuple((k, self.digest(by_key.get(k)), self.shown(by_key.get(k), scope)) for k in sorted(scope))
            self.made[name] = replace(self.made[name], reads=reads)
        else:
            self.made.pop(name, None)
        return files

    def _still(self, reads: tuple[Read, ...], by_key: dict[str, Paper]) -> tuple[Read, ...] | None:
        """``reads`` with today's digests if every paper shows the same as it did, else None."""
        scope, out = frozenset(k for k, _, _ in reads), []
        for k, full, shown in reads:
            paper = by_key.get(k)
            now = self.digest(paper)
            if now != full and self.shown(paper, scope) != shown:
                return None
            out.append((k, now, shown))
        return tuple(out)

    def _made(self, name: str, key: str, make: Make, reads: tuple[Read, ...]) -> dict[str, str]:
        drawn, cited = len(charts.current_files()), len(CACHE.used)
        files = make()
        if self.active:
            self.rendered.append(name)
            extra = dict(islice(charts.current_files().items(), drawn, None))  # drawn by ``make``
            digests = {path: _sha(text) for path, text in (files | extra).items()}
            self.made[name] = Entry(key, reads, digests, dict(islice(CACHE.used.items(), cited, None)))
        return files

    def _serve(self, name: str, old: Entry) -> dict[str, str] | None:
        """The unit's files as the last generate wrote them, if they are still so on disk."""
        found = self._on_disk(old.files) if self.active else None
        if found is None:
            return None
        self.served += 1
        self.made[name] = old
        charts.keep({p: t for p, t in found.items() if p.startswith(f"{charts.FOLDER}/")})
        for k, v in old.cited.items():
            CACHE.put(k, v)
        files = {p: t for p, t in found.items() if not p.startswith(f"{charts.FOLDER}/")}
        self.clean.update(files)
        return files

    def _on_disk(self, digests: dict[str, str]) -> dict[str, str] | None:
        """Each file's text from docs/, or None if one is gone or differs (an edit by hand, a
        generate killed before it wrote it, unsafe characters removed after rendering)."""
        found = {}
        for path, digest in digests.items():
            try:
                text = (self.docs / path).read_bytes().decode("utf-8") if self.docs else None
            except (OSError, UnicodeDecodeError):
                return None
            if text is None or _sha(text) != digest:
                return None
            found[path] = text
        return found


_current = [Memo({}, active=False)]


@contextmanager
def kept(previous: dict[str, Entry], docs: Path | None, active: bool = True) -> Iterator[Memo]:
    """Units are served from ``previous`` (the last generate's ``made``) and the files it wrote
    in ``docs`` while this is open; not ``active``: rendered, and none kept."""
    memo = Memo(previous, active, docs)
    _current[0] = memo
    try:
        yield memo
    finally:
        _current[0] = Memo({}, active=False)


def current() -> Memo:
    return _current[0]


@dataclass(frozen=True)
class Done:
    """What rendering some units added to the memo, the charts and the Cite cache: a forked
    helper's share of a render (site/assemble.py), handed back to the process that saves them."""

    made: dict[str, Entry]
    rendered: list[str]
    served: int
    charts: dict[str, str]
    cited: dict[str, list[str]]


Mark = tuple[frozenset[str], int, int, frozenset[str], frozenset[str]]


def mark() -> Mark:
    """Where the memo, the charts and the Cite cache stand now, for :func:`since`."""
    memo, drawn = current(), charts.current_files()
    return frozenset(memo.made), len(memo.rendered), memo.served, frozenset(drawn), frozenset(CACHE.used)


def since(at: Mark) -> Done:
    """What was added after ``at`` (each unit is rendered once per generate, under its own name)."""
    made, rendered, served, drawn, cited = at
    memo = current()
    return Done(
        {name: entry for name, entry in memo.made.items() if name not in made},
        memo.rendered[rendered:],
        memo.served - served,
        {path: svg for path, svg in charts.current_files().items() if path not in drawn},
        {key: value for key, value in CACHE.used.items() if key not in cited},
    )


def absorb(done: Done) -> None:
    """Take in another process's :class:`Done`, as if its units had been rendered here."""
    memo = current()
    memo.made.update(done.made)
    memo.rendered.extend(done.rendered)
    memo.served += done.served
    charts.keep(done.charts)
    for key, value in done.cited.items():
        CACHE.put(key, value)


def one(path: str, key: str, render: Callable[..., str], *args: Any) -> str:
    """The file ``path``: ``render(*args)``, or the last generate's under the same ``key``."""
    return current().unit(path, key, lambda: {path: render(*args)})[path]


def key_of(*parts: object) -> str:
    """A digest of ``parts``: reprs of strings, numbers, tuples and front matter, stable across runs."""
    return _sha(repr(parts))


def papers_key(papers: Sequence[Paper], notes: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[str, ...]:
    """The papers' digests, each with its note's front matter when ``notes`` is given."""
    memo = current()
    if notes is None:
        return tuple(memo.digest(p) for p in papers)
    return tuple(memo.digest(p) + repr(sorted(notes.get(p.slug, {}).items())) for p in papers)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
