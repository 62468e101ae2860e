"""records.json: the machine-readable list of works, as the pages show them (years, links and
source files through ``render/accessors.py``, the policy every output follows)."""

from __future__ import annotations

import json
from typing import Any

from ..chars import strip_unsafe
from ..enrich.credit import page_authors, work_credit
from ..model import Library, Work
from ..render.accessors import public_file, safe_links, year_of
from ..render.links import PAPERS, display_title
from ..render.venue import keywords_of, kind, venue


def records(library: Library) -> list[dict[str, Any]]:
    return [
        {
            # First, so the extension finds a page's line without parsing the others (sphinx_ext/records.py).
            "url": f"{PAPERS}/{p.slug}.html",
            "key": p.key,
            "title": display_title(p),
            "title_inferred": p.work.title_inferred,
            "authors": list(page_authors(p.work)),
            # Only the authors the source lists, in its order: what a citation may claim.
            "listed_authors": list(work_credit(p.work).listed),
            "et_al": p.work.et_al,
            "year": year_of(p.work),
            "categories": list(p.categories),
            "categories_inferred": p.categories_inferred,
            "category_evidence": p.category_evidence,
            "topics": list(p.topics),
            "subtopics": list(p.subtopics),  # "<topic>/<sub>": the pages under topics/
            "tldr": p.tldr,
            "problem": p.brief.problem,
            "approach": p.brief.approach,
            "result": p.brief.result,
            "key_results": list(p.key_results),
            "related": [{"key": link.key, "reason": link.reason} for link in p.related],
            "versions": list(p.versions),
            "system": p.system,
            "title_source": "inferred from the abstract" if p.work.title_inferred else "source",
            # A file by its place in the project, else its name: never where it is on someone's machine.
            "sources": [
                {"file": public_file(s.file), "line": s.line, "owner": s.owner, "kind": s.kind} for s in p.work.sources
            ],
            "entry_type": p.work.entry_type,
            "type": kind(p.work),
            "venue": venue(p.work),
            "keywords": list(keywords_of(p.work)),
            **_links(p.work),
        }
        for p in library.papers
    ]


def _links(work: Work) -> dict[str, str]:
    """The addresses the page links to: the same safe ones, empty when the page shows no link."""
    safe = safe_links(work)
    return {"eprint": safe["eprint"], "doi": safe["doi"], "link": safe["url"]}


def records_json(library: Library) -> str:
    """A JSON list with one record per line: readable and diffable, and written by json's C
    encoder (``indent`` falls back to the pure-Python one: 2 s of generate at 10,000 papers).
    Record text passes the character policy here too (``chars``): it is data for other tools."""
    lines = [strip_unsafe(json.dumps(record, ensure_ascii=False)) for record in records(library)]
    return "[\n" + ",\n".join(lines) + "\n]\n"
