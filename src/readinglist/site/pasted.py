"""Entries pasted into refs.bib that are one work: one page, and one line saying so.

``readinglist import`` merges a record into the work it matches; an entry pasted by hand (a
DBLP entry for a paper the list already has) never went through it and would become a second
page. Entries that share an explicit identity key of the import (store/identity.py: DOI, arXiv
id, identical abstract, identical title and year) are folded here, the later (in file order)
into the first, by the import's merge rule: only what the first lacks is filled. refs.bib is
not touched: it is the user's file, and the report says how to tidy it. The same title with
another year or DOI is another version, linked by enrich/related.py, not folded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..model import Work
from ..store.identity import Rules, identity_keys, names, other_version, share_an_author, suspect
from ..store.importer import merge


@dataclass(frozen=True)
class Fold:
    """Entry ``key`` (at ``line``) shown on the page of ``into``, because of ``reason``."""

    key: str
    line: int
    into: str
    reason: str

    def render(self, file: str) -> str:
        return (
            f"{file}:{self.line}: {self.key} is the same work as {self.into} ({self.reason}); shown on one page"
            " — run 'readinglist import' or delete one entry to keep refs.bib tidy"
        )


def fold_duplicates(
    works: list[Work], lines: Mapping[str, int], rules: Rules | None = None
) -> tuple[list[Work], list[Fold]]:
    """``works`` (in file order) with every later entry of one work folded into the first.

    ``lines``: each key's line in refs.bib. ``rules``: conf/identity.toml; the records or keys it
    names ``[[different]]`` stay apart.
    """
    rules = rules or Rules()
    kept: dict[str, Work] = {}
    owner: dict[str, str] = {}  # identity key -> the kept work that has it
    folds = []
    for work in works:
        found = _first_match(work, kept, owner, rules)
        target = found[0] if found else work.key
        kept[target] = merge(kept[target], work) if found else work
        if found:
            folds.append(Fold(work.key, lines.get(work.key, 0), target, found[1]))
        for key in identity_keys(kept[target]):  # a fold can bring keys the first lacked (a DOI)
            owner.setdefault(key, target)
    renamed = {f.key.lower(): f.into for f in folds}
    return [_relinked(w, renamed) for w in kept.values()], folds


def _first_match(work: Work, kept: dict[str, Work], owner: dict[str, str], rules: Rules) -> tuple[str, str] | None:
    for key, reason in identity_keys(work).items():
        into = owner.get(key)
        if into is None or (rules.different and rules.apart(names(work), names(kept[into]))):
            continue
        first = kept[into]
        if suspect(key, work, first) or (key.startswith("title:") and not share_an_author(work, first)):
            continue  # a DOI or abstract under another title, or one title by other people: two works
        if key.startswith("title:"):
            if other_version(work, first):
                continue  # a preprint and its published paper: versions, linked, not folded
            reason += " and year" if work.year and work.year == first.year else ""
        return into, reason
    return None


def _relinked(work: Work, renamed: Mapping[str, str]) -> Work:
    """``related`` keys of folded entries name the page they are shown on (a link must still resolve)."""
    if not renamed or not any(name == "related" for name, _ in work.extra):
        return work
    extra = tuple((name, _renamed(value, renamed) if name == "related" else value) for name, value in work.extra)
    return replace(work, extra=extra)


def _renamed(value: str, renamed: Mapping[str, str]) -> str:
    keys = (k.strip() for k in value.split(","))
    return ",".join(dict.fromkeys(renamed.get(k.lower(), k) for k in keys if k))
