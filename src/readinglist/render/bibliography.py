"""The bibliography Sphinx reads: a sanitized copy of refs.bib, keyed by page slug.

sphinxcontrib-bibtex turns ``\\url{...}`` in any field into a link and renders url,
doi and eprint fields as links, whatever their scheme. The copy holds only the fields
a citation shows, as plain text without LaTeX, and only links that are plainly safe.
Titles are braced whole, so pybtex keeps their capitals.
"""

from __future__ import annotations

import re

from pybtex.database import Person

from ..enrich.pipeline import Library
from ..latex import to_text
from ..model import Work
from .escape import clean

BIBFILE = "bibliography.bib"
TEXT_FIELDS = (
    "year month journal booktitle publisher school institution organization "
    "edition volume number series pages howpublished address"
).split()
SAFE_LINKS = {
    "url": re.compile(r"^https?://[A-Za-z0-9.\-]+(?::\d+)?(?:/[A-Za-z0-9._~%!$&'()*+,;=:@/?#\-]*)?$"),
    "doi": re.compile(r"^10\.\d{4,9}/[A-Za-z0-9._;()/:\-]+$"),
    "eprint": re.compile(r"^(?:\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)$"),
}
ENTRY_TYPES = {"article", "book", "inproceedings", "incollection", "phdthesis", "mastersthesis", "techreport"}


def bib_text(latex: str) -> str:
    """Plain text that pybtex's LaTeX reader leaves as it is (it reads a bare % as a comment)."""
    return re.sub(r"[\\{}]", "", clean(to_text(latex))).replace("%", "\\%")


def sanitized_bib(library: Library) -> str:
    return "".join(_entry(paper.slug, paper.work) for paper in library.papers)


def _entry(slug: str, work: Work) -> str:
    fields = {"title": "{" + bib_text(work.title) + "}"}
    people = [_person(name) for name in work.authors] + (["others"] if work.et_al else [])
    if people:
        fields["author"] = " and ".join(people)
    if work.year:
        fields["year"] = str(work.year)
    lowered = {k.lower(): v for k, v in work.extra}
    for name in TEXT_FIELDS:
        if lowered.get(name) and name != "year":
            fields[name] = bib_text(lowered[name])
    for name, pattern in SAFE_LINKS.items():
        value = (work.eprint if name == "eprint" else lowered.get(name, "")).strip()
        if value and pattern.match(value):
            fields[name] = value
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items())
    kind = work.entry_type if work.entry_type in ENTRY_TYPES else "misc"
    return f"@{kind}{{{slug},\n{body}}}\n\n"


def _person(name: str) -> str:
    """``Last, First`` with every part braced, so no part can split or reorder the list."""
    person = Person(bib_text(name).replace(",", " "))
    first = " ".join(person.first_names + person.middle_names)
    last = " ".join(person.prelast_names + person.last_names)
    return f"{{{last}}}, {{{first}}}" if first else f"{{{last}}}"
