"""``citation_*`` meta tags on paper pages, which Google Scholar and Zotero read.

The values come from records.json, which holds what the page shows: only the authors the
source names (an ``et al.`` adds no one), the title only when the source gave it (a working
title inferred from the abstract is not the paper's), and only the DOI and arXiv id that
passed the site's link checks. Every value is HTML-escaped: record text is data.
"""

from __future__ import annotations

import html
from typing import Any

from sphinx.application import Sphinx

from .records import record as record_of


def tags(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The (name, content) pairs for one record, in the order Google Scholar documents them."""
    pairs = [] if record.get("title_inferred") else [("citation_title", str(record.get("title", "")))]
    # Not "authors": an owner standing in for an unknown list would become the first author.
    pairs += [("citation_author", str(name)) for name in record.get("listed_authors", [])]
    if record.get("year"):
        pairs.append(("citation_publication_date", str(record["year"])))
    if record.get("doi"):
        pairs.append(("citation_doi", str(record["doi"])))
    if record.get("eprint"):  # only arXiv ids pass the site's eprint check (render.venue.SAFE_EPRINT)
        pairs.append(("citation_arxiv_id", str(record["eprint"])))
        pairs.append(("citation_pdf_url", f"https://arxiv.org/pdf/{record['eprint']}"))
    return [(name, content) for name, content in pairs if content.strip()]


def meta_html(record: dict[str, Any]) -> str:
    return "".join(
        f'<meta name="{name}" content="{html.escape(content, quote=True)}" />\n' for name, content in tags(record)
    )


def add(app: Sphinx, pagename: str, context: dict[str, Any]) -> None:
    record = record_of(app, pagename)
    if record is not None:
        context["metatags"] = context.get("metatags", "") + meta_html(record)
