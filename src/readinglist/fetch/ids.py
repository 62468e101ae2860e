"""What ``readinglist add`` accepts: an arXiv id or a DOI, as people paste them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from ..errors import Code, ReadingListError

# New-style ids (0704.0001 onwards) and old-style ones (hep-th/9901001), each with an optional version.
_ARXIV = re.compile(r"^(?P<id>(?:\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$")
_ARXIV_PREFIX = re.compile(r"^(?:arxiv:|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
# arXiv's own DOIs are DataCite's, not Crossref's: ask the arXiv API for them instead.
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(?P<id>.+)$", re.IGNORECASE)
_VERSION = re.compile(r"v\d+$")


@dataclass(frozen=True)
class Identifier:
    kind: str  # "arxiv" or "crossref", as SourceRef.kind names them
    value: str  # 2101.00001v2, or 10.1145/3458817.3476209

    @property
    def label(self) -> str:
        """How reports, errors and provenance name it: ``arXiv:2101.00001`` or ``doi:10.1145/...``."""
        return f"arXiv:{self.value}" if self.kind == "arxiv" else f"doi:{self.value}"

    @property
    def source_file(self) -> str:
        """The label as a record's source: refs.bib's provenance field separates sources with ";"."""
        return self.label.replace(";", "%3B")

    @property
    def base(self) -> str:
        """The id without its version (arXiv) or case (DOIs are case-insensitive): one work, one base."""
        return _VERSION.sub("", self.value) if self.kind == "arxiv" else self.value.lower()


def parse_identifier(text: str) -> Identifier:
    raw = text.strip()
    arxiv = _arxiv(_ARXIV_PREFIX.sub("", raw).removesuffix(".pdf"))
    if arxiv and (_ARXIV_PREFIX.match(raw) or not _DOI_PREFIX.match(raw)):
        return arxiv
    doi = _DOI_PREFIX.sub("", raw)
    doi = unquote(doi) if raw.lower().startswith("http") else doi  # a link's %3C is "<"; a DOI's own % stays
    if _DOI.match(doi):
        from_arxiv = _ARXIV_DOI.match(doi)
        return (from_arxiv and _arxiv(from_arxiv["id"])) or Identifier("crossref", doi)
    raise ReadingListError(
        "not an arXiv id (arXiv:2101.00001) or a DOI (10.1145/3458817.3476209)", raw or '""', code=Code.BAD_ARGUMENT
    )


def _arxiv(text: str) -> Identifier | None:
    match = _ARXIV.match(text)
    return Identifier("arxiv", match["id"]) if match else None
