"""What a reader needs to find a paper: its venue, type, links out, true source and tags.

Links are made only from addresses that are plainly safe (http(s) URLs, bare DOIs, arXiv
ids: ``accessors.py``, the one input policy of every output): anything else is dropped, never
turned into a link. Until the store fills ``Work.doi``, ``url`` and ``keywords``, the same
BibTeX fields in ``Work.extra`` are read.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..latex import to_text
from ..model import SourceRef, Work
from ..sources import kind_name
from .accessors import SAFE_DOI as SAFE_DOI
from .accessors import SAFE_EPRINT as SAFE_EPRINT
from .accessors import SAFE_URL as SAFE_URL
from .accessors import doi_of as doi_of
from .accessors import extra_of as extra_of
from .accessors import public_file
from .accessors import url_of as url_of
from .bibtypes import type_words
from .escape import Md, clean, md_text

# Where the venue is, by BibTeX (and BibLaTeX) name, most specific first.
VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "eventtitle", "school", "institution", "organization")
PDF_FIELDS = ("pdf", "pdfurl", "file")


def keywords_of(work: Work) -> tuple[str, ...]:
    """The user's keywords (tags); a store that still keeps them in ``extra`` is read too."""
    if work.keywords:
        return work.keywords
    words = re.split(r"[,;]", to_text(extra_of(work, "keywords")))
    return tuple(dict.fromkeys(w.strip() for w in words if w.strip()))


def venue(work: Work) -> str:
    """ "Journal of X", "Proc. of Y · Springer": the venue and the publisher, as plain text."""
    place = next((to_text(extra_of(work, name)) for name in VENUE_FIELDS if extra_of(work, name)), "")
    publisher = to_text(extra_of(work, "publisher"))
    parts = [clean(p) for p in (place, publisher) if clean(p)]
    return " · ".join(dict.fromkeys(parts))


def kind(work: Work) -> str:
    return type_words(work.entry_type, bool(work.eprint))


def links(work: Work) -> Md:
    """Links out (arXiv, DOI, URL, PDF): only plainly safe addresses become links."""
    out = []
    eprint = work.eprint.strip()
    if SAFE_EPRINT.match(eprint):
        out.append(_link(f"arXiv:{eprint}", f"https://arxiv.org/abs/{eprint}"))
    doi = doi_of(work)
    if SAFE_DOI.match(doi):
        out.append(_link(f"DOI {doi}", f"https://doi.org/{doi}"))
    url = url_of(work)
    if SAFE_URL.match(url):
        out.append(_link("Web page", url))
    pdf = next((value for name in PDF_FIELDS if SAFE_URL.match(value := extra_of(work, name))), "")
    if pdf:
        out.append(_link("PDF", pdf))
    return Md(" · ".join(out))


def _link(text: str, target: str) -> str:
    # An angle-bracketed destination: SAFE_URL allows no "<", ">", space or newline to end it.
    return f"[{md_text(text)}](<{target}>)"


def source(work: Work) -> Md:
    """Each record the work came from: "BibTeX: mine.bib:120", "arXiv API", "author profile (...)"."""
    parts = [_one_source(s) for s in work.sources]
    return Md("; ".join(dict.fromkeys(parts)) if parts else "refs.bib")


def _one_source(ref: SourceRef) -> str:
    label = kind_name(ref.kind)  # the import formats' table, then model.SOURCE_KINDS
    where = f"{PurePosixPath(public_file(ref.file)).name}:{ref.line}"
    if ref.kind == "profile":
        text = f"{label} of {ref.owner} ({where})" if ref.owner else f"{label} ({where})"
    elif ref.kind in ("arxiv", "crossref"):
        text = label
    else:
        text = f"{label}: {where}"
    return md_text(text) + (f" ({md_text('merged: ' + ref.why)})" if ref.why else "")
