"""Who a record credits: name identity and the credit line, with no numeric imports.

The renderers and the Sphinx adapter show credits on every page; keeping these functions out
of ``authors.py`` (numpy) and ``pipeline.py`` (the whole enrichment: scipy, scikit-learn) spares
each ``readinglist build`` and each note edit about 0.3 s of imports.
"""

from __future__ import annotations

import re
from functools import cache

from ..latex import ascii_fold
from ..model import Credit, Work
from ..slugs import RESERVED
from ..store.namekeys import fold

# What a source writes for "and others": the et_al flag, never a person (no "shared authors: et al.").
_ET_AL = re.compile(r"^(?:and\s+)?(?:et\.?\s*al(?:ii|ia)?\.?|others)$")


def is_et_al(name: str) -> bool:
    return bool(_ET_AL.match(" ".join(ascii_fold(name).replace("~", " ").lower().strip(" ,;{}").split())))


@cache  # every page, card, feed entry and record of a paper names its authors by id
def author_id(name: str) -> str:
    """A filesystem-safe id; variants that differ only in accents, case or hyphens share it.
    Letters are transliterated (``store.names.fold``): "Ł" is "l", and a name in Chinese
    characters gets its pinyin, where dropping what is not ASCII made every such name "unknown"."""
    folded = fold(name)
    aid = re.sub(r"[^a-z0-9]+", "-", folded.replace("-", "")).strip("-")[:60] or "unknown"
    return f"{aid}-author" if aid in RESERVED else aid


def page_authors(work: Work) -> tuple[str, ...]:
    """Listed authors, then profile owners the record is attributed to but does not list."""
    ids = {author_id(a) for a in work.authors}
    owners = [s.owner for s in work.sources if s.owner and author_id(s.owner) not in ids]
    return work.authors + tuple(dict.fromkeys(owners))


def credit(authors: tuple[str, ...], et_al: bool, owners: tuple[str, ...]) -> Credit:
    """The credit a record gives: its authors, and the owners it is attributed to (by name)."""
    owner_ids = {author_id(o) for o in owners if o}
    if et_al and authors and {author_id(a) for a in authors} <= owner_ids:
        authors = ()  # the owner stood in for an unknown list (refs.bib: "Lin, Wei and others")
    listed = {author_id(a) for a in authors}
    missing = tuple(dict.fromkeys(o for o in owners if o and author_id(o) not in listed))
    return Credit(authors, et_al, missing)


def work_credit(work: Work) -> Credit:
    return credit(work.authors, work.et_al, tuple(s.owner for s in work.sources))
