"""One person, one author: the ways a list writes a name, joined only on evidence.

Names with one spelling once typography is set aside (accents, case, dots, hyphens, spaces:
"Yann Le Cun", "Yann LeCun") are one name. Names that merely *can* be one person ("Y. LeCun",
"Yann LeCun"; "A. J. Smola", "Alex Smola"; "S. Peyton Jones", "Simon L. Peyton Jones": one
family name, given names that fit, ``store.names.NameParts.fits``) are joined only when their
papers share something besides the name: a co-author, a venue, or a keyword (a topic the user
gave). Without it they stay apart, and each says so (``namesakes``): "J. González" (Javier)
is not "Joseph E. Gonzalez" because both names fit "J.". One whole first name with one family
name is evidence enough, as one spelling is: "John Reynolds" is "John C. Reynolds" (a real
reading list had Reynolds, Halpern, Plotkin and Courville each on two pages so). A group is never joined with a name
that fits one of its names but not another ("J. Gonzalez" joins Javier or Joseph, not both).

``conf/identity.toml`` has the last word: ``[[same]] authors = [...]`` joins names whatever the
evidence, ``[[different]] authors = [...]`` keeps them apart whatever it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..model import Work
from ..store.identity import Rules
from ..store.namekeys import NameParts, name_parts, natural, spelling
from ..store.nearby import norm
from .credit import author_id, page_authors

VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "eventtitle")
# Venues that say where a paper was posted, not where it was accepted: sharing one says nothing.
POSTED = ("arxiv", "corr", "preprint", "rxiv", "ssrn", "openreview", "submitted")
NO_EVIDENCE = "no co-author, venue or topic in common"
# What tells one year's proceedings from the next: its number, year, and words around them.
_EDITION = re.compile(r"\d+(?:st|nd|rd|th)?")
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
_SERIES_NOISE = frozenset(f"proceedings proc of the annual in on and for {_ORDINALS}".split())
# Co-authors written two ways ("V. N. Vapnik", "Vladimir Vapnik") are one once joined: the
# evidence is weighed again after each round of joins, at most this many rounds.
ROUNDS = 3
# A paper of more authors (a consortium's: 1000 Genomes lists 477) shares co-authors with any
# other such paper; sharing one says nothing of who a name is.
CONSORTIUM = 50
BUCKET = 200  # names of one family and initial compared pairwise; a larger group is compared by first name only


@dataclass(frozen=True)
class People:
    """``ids``: every name as written -> its person's id; ``namesakes``: a person's id -> the
    names that could be theirs but are kept apart, each with why."""

    ids: dict[str, str]
    namesakes: dict[str, tuple[str, ...]]


@dataclass
class _Spelling:
    """The names of one spelling, and the papers that write it."""

    names: list[str] = field(default_factory=list)
    papers: set[int] = field(default_factory=set)


def people(works: Sequence[Work], rules: Rules | None = None) -> People:
    """Who each name of ``works`` (listed authors and profile owners) is."""
    rules = rules or Rules()
    spellings, listed = _spellings(works)
    parts = {s: _fullest(found.names) for s, found in spellings.items()}
    join = _Joiner({s: {s} for s in spellings}, parts, rules, {s: found.papers for s, found in spellings.items()})
    for group in rules.same_authors:
        join.force({spelling(name) for name in group} & spellings.keys())
    # Two names on one paper's author list are two people ("Bin Liu" and "Binghang Liu").
    pairs = [(a, b) for a, b in _candidates(parts) if not spellings[a].papers & spellings[b].papers]
    for a, b in _whole_first_names(pairs, parts, spellings):
        join.join(a, b)
    apart: list[tuple[str, str, str]] = []
    for _ in range(ROUNDS):
        # Only the names that can be another's are weighed: a 5,000-author paper's other names are not.
        around = {key: _around(spellings[key], key, works, listed, join) for key in {k for pair in pairs for k in pair}}
        scored = sorted((-len(_evidence(around[a], around[b], a, b, parts)), a, b) for a, b in pairs)
        before = len({id(g) for g in join.groups.values()})
        apart = [(a, b, why) for score, a, b in scored if (why := join.join(a, b) if score else NO_EVIDENCE)]
        if len({id(g) for g in join.groups.values()}) == before:
            break
    ids = _ids(spellings, join)
    return People(ids, _namesakes(apart, spellings, ids))


def _ids(spellings: dict[str, _Spelling], join: _Joiner) -> dict[str, str]:
    """Each name's person id: the id of its group's fullest name (a whole first name, then the
    most given names, then the most papers), so that "Y. LeCun" is under "Yann LeCun"."""
    ids: dict[str, str] = {}
    for group in {id(g): g for g in join.groups.values()}.values():
        names = [(name, key) for key in sorted(group) for name in spellings[key].names]
        best = max(names, key=lambda nk: _fullness(nk[0], len(spellings[nk[1]].papers)))[0]
        pid = author_id(best)
        ids.update((name, pid) for name, _ in names)
    return ids


def _fullness(name: str, papers: int) -> tuple[bool, int, int, str]:
    given = name_parts(name).given
    return (bool(given) and not given[0].short, len(given), papers, name)


def _namesakes(
    apart: list[tuple[str, str, str]], spellings: dict[str, _Spelling], ids: dict[str, str]
) -> dict[str, tuple[str, ...]]:
    """For each person, the names that fit theirs but are kept apart, and why."""
    found: dict[str, list[str]] = defaultdict(list)
    said: set[frozenset[str]] = set()
    for a, b, why in apart:
        name_a, name_b = min(spellings[a].names), min(spellings[b].names)
        if ids[name_a] != ids[name_b] and frozenset((ids[name_a], ids[name_b])) not in said:
            said.add(frozenset((ids[name_a], ids[name_b])))
            found[ids[name_a]].append(f"{name_b}: a name that fits, kept apart ({why})")
            found[ids[name_b]].append(f"{name_a}: a name that fits, kept apart ({why})")
    return {pid: tuple(dict.fromkeys(notes)) for pid, notes in sorted(found.items())}


def _spellings(works: Sequence[Work]) -> tuple[dict[str, _Spelling], list[list[str]]]:
    """Each spelling's names and papers; each paper's spellings."""
    found: dict[str, _Spelling] = defaultdict(_Spelling)
    listed = []
    for i, work in enumerate(works):
        names = page_authors(work)
        listed.append([spelling(n) or author_id(n) for n in names])
        for name, key in zip(names, listed[-1], strict=True):
            entry = found[key]
            if name not in entry.names:
                entry.names.append(name)
            entry.papers.add(i)
    return dict(found), listed


def _around(found: _Spelling, key: str, works: Sequence[Work], listed: list[list[str]], join: _Joiner) -> set[str]:
    """What the papers of a spelling hold besides it: "co-author X" (X a group of names, by its
    first spelling), "venue X", "topic X" (a keyword)."""
    out: set[str] = set()
    for i in found.papers:
        out.update(f"venue {v}" for v in _venues(works[i]))
        out.update(f"topic {norm(k)}" for k in works[i].keywords if norm(k))
        if len(listed[i]) <= CONSORTIUM:
            out.update(f"co-author {min(join.groups[k])}" for k in listed[i] if k != key)
    return out


def _venues(work: Work) -> Iterable[str]:
    for name, value in work.extra:
        venue = norm(value) if name in VENUE_FIELDS else ""
        if venue and not any(word in venue for word in POSTED):
            yield venue_series(venue)


def venue_series(venue: str) -> str:
    """A normalised venue without what changes from one year to the next: "Proceedings of the 16th
    ACM SIGPLAN-SIGACT Symposium on Principles of Programming Languages" and "... of the 34th Annual
    ACM SIGACT-SIGPLAN ..." are one series (the words sorted: the two SIGs come in either order)."""
    words = {w for w in venue.split() if w not in _SERIES_NOISE and not _EDITION.fullmatch(w)}
    return " ".join(sorted(words)) if len(words) >= 2 else venue


def _candidates(parts: dict[str, NameParts]) -> Iterable[tuple[str, str]]:
    """Each two spellings that can be one person (compared within one family and initial)."""
    buckets: dict[tuple[str, str], list[str]] = defaultdict(list)
    for key, p in parts.items():
        if p.given:
            buckets[(p.family, p.given[0].text[:1])].append(key)
    for members in buckets.values():
        for a, b in _pairs(sorted(members), parts):
            if parts[a].fits(parts[b]):
                yield a, b


def _whole_first_names(
    pairs: list[tuple[str, str]], parts: dict[str, NameParts], spellings: dict[str, _Spelling]
) -> Iterable[tuple[str, str]]:
    """The pairs that write one whole first name and one family name, the one's middle names
    absent from the other ("John Reynolds", "John C. Reynolds"): one person, as one spelling
    is, whatever their papers share. Not a hyphenated first name ("Jun Zhu" is not "Jun-Yan
    Zhu"), not a middle name written whole in one only ("Guo Qiang Chen", "Guo Chen"), and not a
    name that fits two that do not fit each other ("John C." and "John D.")."""
    fitting: dict[str, set[str]] = defaultdict(set)
    for a, b in pairs:
        fitting[a].add(b)
        fitting[b].add(a)
    clear = {k for k, found in fitting.items() if all(parts[x].fits(parts[y]) for x, y in combinations(found, 2))}
    for a, b in pairs:
        first_a, first_b = parts[a].given[0], parts[b].given[0]
        whole = not first_a.short and not first_b.short and first_a.text == first_b.text
        if (
            whole
            and _middles_written(parts[a], parts[b])
            and a in clear
            and b in clear
            and not _hyphenated(spellings[a])
            and not _hyphenated(spellings[b])
        ):
            yield a, b


def _middles_written(a: NameParts, b: NameParts) -> bool:
    """Each whole middle name of either is in the other, if only as an initial ("Paul Blain Levy",
    "Paul B. Levy"): "Guo Qiang Chen" is not "Guo Chen", a given name of two words."""
    return all(any(g.fits(h) for h in y.given[1:]) for x, y in ((a, b), (b, a)) for g in x.given[1:] if not g.short)


def _hyphenated(found: _Spelling) -> bool:
    """The first given name is two joined by a hyphen ("Jun-Yan", "Jean-Pierre")."""
    return any("-" in (natural(name).split() or [""])[0] for name in found.names)


def _pairs(members: list[str], parts: dict[str, NameParts]) -> Iterable[tuple[str, str]]:
    """Every two of a bucket; of a very large one (a thousand "W. Wang"s) only names of one first name."""
    if len(members) <= BUCKET:
        return combinations(members, 2)
    by_first: dict[str, list[str]] = defaultdict(list)
    for key in members:
        by_first[parts[key].given[0].text].append(key)
    return (pair for group in by_first.values() if len(group) <= BUCKET for pair in combinations(group, 2))


def _fullest(names: list[str]) -> NameParts:
    """The parts of a spelling's fullest name: "Kai Wang", not "K A I Wang" (one spelling, but
    three initials that would fit "Kun Wang" too)."""
    return max((name_parts(n) for n in sorted(names)), key=lambda p: sum(not g.short for g in p.given))


def _evidence(around_a: set[str], around_b: set[str], a: str, b: str, parts: dict[str, NameParts]) -> set[str]:
    """What two names' papers share. Two whole first names of which one begins the other ("Bin",
    "Binghang"; "Hong", "Hongxin") are a short form only in some languages: they need a co-author
    in common, a journal being shared by thousands of people of one family name."""
    shared = _shared(around_a, around_b, parts[a].family, parts)
    first_a, first_b = parts[a].given[0], parts[b].given[0]
    if first_a.short or first_b.short or first_a.text == first_b.text:
        return shared
    return {e for e in shared if e.startswith("co-author ")}


def _shared(a: set[str], b: set[str], family: str, parts: dict[str, NameParts]) -> set[str]:
    """What two names' papers have in common besides them: a co-author of another family (a
    variant of their own name is no evidence), a venue, a topic."""
    return {e for e in a & b if not (e.startswith("co-author ") and _family(e, parts) == family)}


def _family(evidence: str, parts: dict[str, NameParts]) -> str:
    known = parts.get(evidence.removeprefix("co-author "))
    return known.family if known else ""


@dataclass
class _Joiner:
    """Groups of spellings (union-find kept as sets: groups are small), joined under the rules."""

    groups: dict[str, set[str]]
    parts: dict[str, NameParts]
    rules: Rules
    papers: dict[str, set[int]]  # the papers each spelling is an author of
    apart: list[set[str]] = field(default_factory=list)  # the spellings of each [[different]] table

    def __post_init__(self) -> None:
        # One spelling cannot be split: "Yann Le Cun" and "Yann LeCun" are one name however written.
        self.apart = [{spelling(n) for n in group} for group in self.rules.different_authors]

    def force(self, keys: set[str]) -> None:
        first, *rest = sorted(keys) or [""]
        for key in rest:
            self._merge(first, key)

    def join(self, a: str, b: str) -> str:
        """Join a's group and b's when every name of one can be every name of the other and the
        rules do not keep them apart; else why they stay apart."""
        ga, gb = self.groups[a], self.groups[b]
        if ga is gb:
            return ""
        misfit = next((y for x in ga for y in gb if x != y and not self.parts[x].fits(self.parts[y])), None)
        if misfit is not None:
            return "joined with another name that does not fit"
        if any(self.papers[x] & self.papers[y] for x in ga for y in gb):
            return "both are authors of one paper"
        if self._split(ga, gb):
            return "conf/identity.toml keeps them apart"
        self._merge(a, b)
        return ""

    def _split(self, ga: set[str], gb: set[str]) -> bool:
        return any(group & ga and group & gb for group in self.apart)

    def _merge(self, a: str, b: str) -> None:
        merged = self.groups[a] | self.groups[b]
        for key in merged:
            self.groups[key] = merged
