"""What a record without an arXiv category says about its field, before any guess from its text.

In this order: an old-style arXiv id names its archive (``hep-th/9901001``, ``math.AG/0101001``);
the venue (``venues.py``: "CVPR", a DBLP key, a DOI prefix); the keywords, where they name an
arXiv category ("Computer Science - Machine Learning", as arXiv's exports write them). A
venue known only to publish computer science gives no category, only the archives a text
guess may choose from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .. import arxiv_categories
from ..model import Work
from .venues import venue_of

# An arXiv id of before 2007: archive, optional subject class, then seven digits.
_OLD_ID = re.compile(r"\b([a-z]+(?:-[a-z]+)?)(?:\.([A-Z]{2}))?/\d{7}\b")
ID_FIELDS = ("journal", "note", "howpublished", "url")
# arXiv's subject names in exports ("Computer Science - Robotics"): the group, then the name.
_GROUP = re.compile(
    r"^(?:computer science|statistics|mathematics|physics|quantitative biology|"
    r"quantitative finance|economics|electrical engineering and systems science)\s*-\s*",
    re.I,
)


# How each signal's evidence begins: render/about.py says "Category from the venue (CVPR)."
RECORD_SIGNALS = ("the arXiv id (", "the venue (", "the keywords (")
NONE = "none: no signal was strong enough"  # a paper shown uncategorized


@dataclass(frozen=True)
class Signal:
    """Categories a record's own fields give (or only the archives to guess in), and why."""

    categories: tuple[str, ...]
    evidence: str
    archives: tuple[str, ...] = ()


def record_signal(work: Work) -> Signal | None:
    return _arxiv_id(work) or _venue(work) or _keywords(work)


def _arxiv_id(work: Work) -> Signal | None:
    texts = (work.eprint, *(v for k, v in work.extra if k in ID_FIELDS), work.url)
    for found in (m for text in texts for m in _OLD_ID.finditer(text)):
        archive, subject = found.group(1), found.group(2)
        category = f"{archive}.{subject}" if subject else archive
        if category in _canonical():
            return Signal((category,), f"the arXiv id ({found.group(0)})")
        if archive in _archives():
            return Signal((), f"the arXiv id ({found.group(0)})", (archive,))
    return None


def _venue(work: Work) -> Signal | None:
    found = venue_of(work)
    if found is None:
        return None
    venue, _ = found
    return Signal(venue.categories, f"the venue ({venue.name})", venue.archives)


def _keywords(work: Work) -> Signal | None:
    by_name = _by_name()
    named = [
        (k, by_name[_GROUP.sub("", k).strip().lower()])
        for k in work.keywords
        if _GROUP.sub("", k).strip().lower() in by_name
    ]
    if not named:
        return None
    cats = tuple(dict.fromkeys(c for _, c in named))
    return Signal(cats, f"the keywords ({', '.join(k for k, _ in named)})")


@lru_cache(maxsize=1)
def _canonical() -> frozenset[str]:
    return frozenset(arxiv_categories.names())


@lru_cache(maxsize=1)
def _archives() -> frozenset[str]:
    return frozenset(c.split(".")[0] for c in _canonical())


@lru_cache(maxsize=1)
def _by_name() -> dict[str, str]:
    """A category's name, lowercased, to its id; a name two categories share names neither."""
    names = arxiv_categories.names()
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name.lower()] = counts.get(name.lower(), 0) + 1
    return {name.lower(): cid for cid, name in names.items() if counts[name.lower()] == 1}
