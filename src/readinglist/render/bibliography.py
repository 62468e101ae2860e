"""The bibliography Sphinx reads: a sanitized copy of refs.bib, keyed by page slug.

sphinxcontrib-bibtex turns ``\\url{...}`` in any field into a link and renders url,
doi and eprint fields as links, whatever their scheme. The copy holds only the fields
a citation shows, as plain text without LaTeX, and only links that are plainly safe.
Titles are braced whole, so pybtex keeps their capitals.

It never fails the site: pybtex's plain style warns about a missing required field, and
``-W`` makes that fatal. So every type maps to one the plain style formats (``bibtypes``),
BibLaTeX's names are read (``journaltitle``, ``date``, ``location``), a ``crossref``
parent lends its fields, and an entry that still lacks what its type needs is written
as ``@misc`` (venue as ``howpublished``). That change is reported by ``generate``, once,
against the entry's line in refs.bib: never a warning to the reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pybtex.bibtex.utils import split_name_list
from pybtex.database import Person

from ..enrich.credit import is_et_al, work_credit
from ..latex import to_text
from ..model import Library, Work
from .accessors import safe_links, year_of, year_text
from .bibsets import ALL, STYLE, bib_set, csl_path, download_link
from .bibtypes import PLAIN_TYPE, THESIS_DEFAULT, missing_fields, thesis_type
from .environment import render
from .escape import Md, clean
from .links import UNTITLED

BIBFILE = "bibliography.bib"
TEXT_FIELDS = (
    "year month journal booktitle publisher school institution organization "
    "edition volume number series pages chapter howpublished address type"
).split()
ALIASES = {"journaltitle": "journal", "location": "address", "eventtitle": "booktitle"}
# What a crossref parent lends a child that lacks it (its title becomes the child's booktitle).
INHERITED = "booktitle publisher address year month editor series volume organization".split()
VENUES = ("journal", "booktitle", "publisher", "school", "institution", "organization")
_DATE = re.compile(r"^\s*([0-9]{4})(?:-([0-9]{1,2}))?")  # ASCII digits, as years.py
MONTHS = "January February March April May June July August September October November December".split()


@dataclass
class Derived:
    """One entry of the copy: its plain-style type, fields and people, and why its type changed."""

    kind: str
    fields: dict[str, str] = field(default_factory=dict)
    persons: dict[str, list[str]] = field(default_factory=dict)
    problem: str = ""


_LATEX_SYNTAX = re.compile(r"[\\{}]")


def bib_text(latex: str) -> str:
    """Plain text that pybtex's LaTeX reader leaves as it is (it reads a bare % as a comment)."""
    return _LATEX_SYNTAX.sub("", clean(to_text(latex))).replace("%", "\\%")


def sanitized_bib(library: Library) -> str:
    works = {p.key: p.work for p in library.papers}
    return "".join(entry_text(paper.slug, paper.work, works) for paper in library.papers)


def entry_text(slug: str, work: Work, works: dict[str, Work]) -> str:
    """One entry of the copy, keyed by ``slug``; ``works`` by key are the crossref parents it may use."""
    return _format(slug, derive(work, works))


def derive(work: Work, works: dict[str, Work]) -> Derived:
    """The entry as the plain style can format it without a warning, whatever fields it has."""
    raw = _raw_fields(work, works)
    out = Derived(PLAIN_TYPE.get(work.entry_type.lower(), "misc"))
    credit = work_credit(work)  # as the page states it: no author order the source never gave
    out.persons = _persons(credit.listed, credit.et_al, raw.get("editor", ""))
    out.fields = {"title": "{" + (bib_text(work.title) or UNTITLED) + "}"}
    out.fields |= {"note": bib_text(credit.note)} if credit.note else {}
    out.fields |= {name: text for name in TEXT_FIELDS if raw.get(name) and (text := bib_text(raw[name]))}
    if work.entry_type.lower() in THESIS_DEFAULT:
        out.fields["type"] = bib_text(thesis_type(work.entry_type.lower(), raw.get("type", "")))
    out.fields |= _links(work)
    missing = missing_fields(out.kind, set(out.fields) | set(out.persons))
    if missing:
        out.problem = f"@{work.entry_type} has no {' or '.join(missing)}: the bibliography lists it as @misc"
        venue = next((out.fields[v] for v in VENUES if v in out.fields), "")
        out.kind = "misc"
        if venue and "howpublished" not in out.fields:
            out.fields["howpublished"] = venue
    return out


def crossref_key(work: Work) -> str:
    """The key of the entry ``work`` inherits fields from (its ``crossref``), "" if none."""
    return next((v.strip() for k, v in reversed(work.extra) if k.lower() == "crossref"), "")


def _raw_fields(work: Work, works: dict[str, Work]) -> dict[str, str]:
    """The entry's other fields by BibTeX name: BibLaTeX's aliases, its date, its crossref parent's."""
    raw = {k.lower(): v for k, v in work.extra}
    for alias, name in ALIASES.items():
        if raw.get(alias) and not raw.get(name):
            raw[name] = raw[alias]
    # The year as any output may print it (accessors.py): a number that is no plausible year is none.
    year = year_of(work)
    raw["year"] = str(year) if year else year_text(raw.get("year", ""))
    date = _DATE.match(raw.get("date", ""))
    if date and not raw.get("year"):
        raw["year"] = year_text(date.group(1))
        if raw["year"] and date.group(2) and 1 <= int(date.group(2)) <= 12 and not raw.get("month"):
            raw["month"] = MONTHS[int(date.group(2)) - 1]
    parent = works.get(crossref_key(work))
    if parent is not None and parent is not work:
        lent = _raw_fields(parent, {}) | {"booktitle": parent.title}
        raw |= {name: lent[name] for name in INHERITED if lent.get(name) and not raw.get(name)}
    return raw


def _persons(names: tuple[str, ...], et_al: bool, editors: str) -> dict[str, list[str]]:
    authors = [_person(name) for name in names] + (["others"] if et_al else [])
    people = {"author": authors, "editor": [_person(name, True) for name in split_name_list(editors)]}
    return {role: names for role, names in ((r, _people(n)) for r, n in people.items()) if names}


def _people(names: list[str]) -> list[str]:
    """The people of a list, with "others" (et al.) once and last, where BibTeX reads it; none if only that."""
    people = [name for name in names if name and name != "others"]
    return [*people, "others"] if people and "others" in names else people


def _links(work: Work) -> dict[str, str]:
    safe = safe_links(work)
    return {name: safe[name] for name in ("url", "doi", "eprint") if safe[name]}


def _format(slug: str, entry: Derived) -> str:
    fields = dict(entry.fields)
    for role in ("author", "editor"):
        if role in entry.persons:
            fields[role] = " and ".join(entry.persons[role])
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items())
    return f"@{entry.kind}{{{slug},\n{body}}}\n\n"


@lru_cache(maxsize=1 << 16)  # names recur across papers, and pybtex's name parser is slow
def _person(name: str, bibtex_form: bool = False) -> str:
    """``Last, First`` with every part braced, so no part can split or reorder the list.

    A work's authors are display names ("Frank Hutter"); an editor field is BibTeX's own
    ("Hutter, Frank"), whose commas are kept while pybtex can read them (at most two).
    """
    text = bib_text(name)
    if is_et_al(text):
        return "others"
    person = Person(text if bibtex_form and text.count(",") <= 2 else text.replace(",", " "))
    first = " ".join(person.first_names + person.middle_names)
    last = " ".join(person.prelast_names + person.last_names + person.lineage_names)
    if not last:
        return ""
    return f"{{{last}}}, {{{first}}}" if first else f"{{{last}}}"


_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*(\w+)[ \t]*[{(][ \t]*([^,\s]+)[ \t]*,", re.M)


def problems(library: Library, bib: Path) -> list[str]:
    """``refs.bib:LINE: key: what the bibliography changed``, for the entries it had to change."""
    works = {p.key: p.work for p in library.papers}
    found = [(p.key, derive(p.work, works).problem) for p in library.papers]
    found = [(key, problem) for key, problem in found if problem]
    if not found:
        return []
    try:
        text = bib.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    lines = {m.group(2): text.count("\n", 0, m.start()) + 1 for m in _ENTRY_START.finditer(text)}
    return [
        f"{bib.name}:{lines[key]}: {key}: {problem}" if key in lines else f"{bib.name}: {key}: {problem}"
        for key, problem in found
    ]


def bibliography_files(library: Library, bibtex: dict[str, str]) -> dict[str, str]:
    """The bibliography page, the copy it lists (``BIBFILE``) and the whole list as a download.

    ``bibtex`` holds each paper's public BibTeX block by key: the download is what the pages show.
    """
    path, text = bib_set(ALL, library.papers, bibtex)
    csl = download_link(csl_path(ALL), "CSL-JSON")
    download = Md(f"{download_link(path, 'Download all entries as BibTeX')} (or as {csl})")
    page = render("bibliography.md.j2", count=len(library.papers), style=STYLE, download=download)
    return {"bibliography.md": page, BIBFILE: sanitized_bib(library), path: text}
