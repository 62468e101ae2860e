"""``readinglist add``: records fetched by identifier from the arXiv API and Crossref.

Every identifier is checked before anything is asked, and every record is fetched before any
is imported: one that cannot be fetched stops the command with a one-line error naming it, and
refs.bib is left as it was. Answers are cached (``cache.py``), so adding again needs no network.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..errors import Code, ReadingListError
from ..model import RawRecord
from . import arxiv, crossref, web
from .cache import Cache
from .ids import Identifier, parse_identifier

__all__ = ["Identifier", "fetch_all", "parse_identifier"]


def fetch_all(texts: Iterable[str], cache_folder: Path, refresh: bool = False) -> list[RawRecord]:
    """One record per identifier, in the order given (a repeated identifier counts once)."""
    idents = list(dict.fromkeys(parse_identifier(text) for text in texts))
    cache = Cache(cache_folder, refresh)
    found = _arxiv_records([i for i in idents if i.kind == "arxiv"], cache)
    found |= {i: _crossref_record(i, cache) for i in idents if i.kind == "crossref"}
    return [found[i] for i in idents]


def _arxiv_records(idents: list[Identifier], cache: Cache) -> dict[Identifier, RawRecord]:
    found = {}
    for ident in idents:
        record = _kept_arxiv(ident, cache)
        if record:
            found[ident] = record
    missing = [i for i in idents if i not in found]
    for start in range(0, len(missing), arxiv.BATCH):
        batch = missing[start : start + arxiv.BATCH]
        who = ", ".join(i.label for i in batch)
        text = web.get(arxiv.query_url(web.base_url("arxiv"), batch), "arxiv", who)
        records = arxiv.parse(text, who, tuple(batch))
        for ident in batch:
            record = arxiv.record_for(ident, records)
            if record is None:
                raise ReadingListError("not found by the arXiv API", ident.label, code=Code.NOT_FOUND)
            cache.put(ident, text)  # the whole answer: parsing picks this id's entry out of it
            found[ident] = record
    return found


def _kept_arxiv(ident: Identifier, cache: Cache) -> RawRecord | None:
    kept = cache.get(ident)
    try:
        return arxiv.record_for(ident, arxiv.parse(kept, ident.label)) if kept else None
    except ReadingListError:
        return None  # a kept answer this version cannot read: ask again


def _crossref_record(ident: Identifier, cache: Cache) -> RawRecord:
    kept = cache.get(ident)
    if kept is not None:
        try:
            return crossref.parse(kept, ident)
        except ReadingListError:
            pass  # a kept answer this version cannot read: ask again
    text = web.get(crossref.work_url(web.base_url("crossref"), ident), "crossref", ident.label)
    record = crossref.parse(text, ident)
    cache.put(ident, text)
    return record
