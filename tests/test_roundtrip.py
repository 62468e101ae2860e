"""Issue 31: a hostile title survives import -> refs.bib -> parse through every reader.

For each format (BibTeX, BibLaTeX, CSL-JSON, the arXiv listing, author/abstract pairs) a title (an
abstract for the pairs, which have no title) with ``<``, ``>``, ``&``, ``%``, ``#``, ``_``, braces
and tags is written into a source file beside a plain record, imported, and refs.bib read back:

- refs.bib parses, and both records are there;
- what refs.bib gives back is what the store made of the reader's record (``to_work``), exactly;
- no character of the visible text is lost: for CSL-JSON, the text outside its paired rich-text
  tags; for a dump, the text but its braces (a dump's braces are LaTeX grouping, ``dump_to_latex``).

Backslashes, ``~``, ``^`` and ``$`` are left out: the formats read them as LaTeX (a command, a tie,
a superscript, math) on purpose.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from readinglist.latex import to_text
from readinglist.model import RawRecord, Work
from readinglist.sources import read_source
from readinglist.sources.arxiv_listing import CATEGORY_LINE, YEAR_LINE
from readinglist.sources.author_pairs import is_author_line
from readinglist.store import bibfile, importer
from readinglist.store.records import to_work

TAGS = ["<i>", "</i>", "<b>", "</b>", "<sup>", "</sup>", "<sub>", "</sub>", '<span class="nocase">', "</span>",
        "<sc>", "</sc>", "<script>", "<", ">", " < ", " > ", "&", "&amp;", "%", "#", "_", "{", "}", "{x}"]  # fmt: skip
WORDS = st.text(st.sampled_from("abcXYZ019 ,.:;-'`\"()!?~é"), min_size=1, max_size=6)
HOSTILE = st.lists(st.one_of(WORDS, st.sampled_from(TAGS)), min_size=1, max_size=12).map("".join)
RUN = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PAIRED_TAG = re.compile(r"<(/?)(i|b|sup|sub|sc|span)( class=\"nocase\")?>")


def _fold(text: str) -> str:
    return " ".join(text.split())


def _imported(name: str, text: str) -> tuple[list[RawRecord], dict[int, Work]]:
    """(the reader's records, {a record's line: its work as refs.bib gives it back}) for a source file."""
    with TemporaryDirectory() as folder:
        root = Path(folder)
        source, bib = root / name, root / "refs.bib"
        source.write_text(text, encoding="utf-8")
        records = list(read_source(source, name).records)
        importer.run([source], bib, root)
        works = bibfile.load(bib).works()
    assert len(works) == len(records) == 2
    return records, {w.sources[0].line: w for w in works}


def _same_as_stored(records: list[RawRecord], stored: dict[int, Work]) -> None:
    for record in records:
        work, again = to_work(record), stored[record.source.line]
        assert (again.title, again.abstract) == (work.title, work.abstract)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


# A hostile entry and a plain one: BibTeX's fields, and BibLaTeX's (@online, date, urldate).
BIB_ENTRIES = {
    "bibtex": "@article{{hostile,\n  title = {{{title}}},\n  year = {{2020}},\n}}\n\n"
    "@article{{plain,\n  title = {{Plain}},\n  year = {{2021}},\n}}\n",
    "biblatex": "@online{{hostile,\n  title = {{{title}}},\n  date = {{2020-05-01}},\n"
    "  urldate = {{2021-01-01}},\n}}\n\n"
    "@online{{plain,\n  title = {{Plain}},\n  date = {{2021}},\n}}\n",
}


@RUN
@given(title=HOSTILE, dialect=st.sampled_from(sorted(BIB_ENTRIES)))
def test_bibtex_and_biblatex_titles_round_trip(title: str, dialect: str) -> None:
    assume(_balanced(title) and _fold(title))
    records, stored = _imported("x.bib", BIB_ENTRIES[dialect].format(title=title))
    _same_as_stored(records, stored)
    assert stored[1].title == _fold(title)


def _visible(csl: str) -> str:
    """CSL rich text as a reader sees it: the tags that pair up removed (as ``cslmap`` pairs them)."""
    opened: list[re.Match[str]] = []
    drop: list[re.Match[str]] = []
    for match in PAIRED_TAG.finditer(csl):
        closing, name, nocase = match.groups()
        if closing and opened and opened[-1].group(2) == name:
            drop += [opened.pop(), match]
        elif not closing and bool(nocase) == (name == "span"):
            opened.append(match)
    for match in sorted(drop, key=lambda m: m.start(), reverse=True):
        csl = csl[: match.start()] + csl[match.end() :]
    return _fold(csl)


@RUN
@given(title=HOSTILE)
def test_csl_json_title_round_trips_and_keeps_its_visible_text(title: str) -> None:
    assume(_fold(title))
    items = [{"id": "hostile", "type": "article", "title": title}, {"id": "plain", "type": "article", "title": "P"}]
    text = "[\n" + ",\n".join(json.dumps(item) for item in items) + "\n]\n"
    records, stored = _imported("x.json", text)
    _same_as_stored(records, stored)
    assert to_text(stored[2].title) == _visible(title)


def _dump_line(text: str) -> bool:
    """A line a dump can hold as a title or an abstract: no other line's shape, and no LaTeX ligature
    ("--", "''", "!`", a tie "~": a dump's text is "mostly plain, sometimes LaTeX", ``dump_to_latex``)."""
    if any(ligature in text for ligature in ("--", "''", "``", "!`", "?`", "~")):
        return False
    return bool(_fold(text)) and not YEAR_LINE.match(text.strip()) and not CATEGORY_LINE.match(text.strip())


@RUN
@given(title=HOSTILE)
def test_arxiv_listing_title_round_trips(title: str) -> None:
    assume(_dump_line(title) and "\n" not in title)
    text = f"Ada Owner\narXiv2020\n{title}\nAn abstract.\ncs.DC↗\narXiv2021\nPlain title\ncs.LG↗\n"
    records, stored = _imported("x.txt", text)
    _same_as_stored(records, stored)
    shown = to_text(stored[2].title)
    assert shown.replace("{", "").replace("}", "") == _fold(title).replace("{", "").replace("}", "")


@RUN
@given(abstract=HOSTILE)
def test_author_pairs_abstract_round_trips(abstract: str) -> None:
    assume(_dump_line(abstract) and not is_author_line(abstract.strip()))
    text = f"Ada Owner\nA. Author, B. Author\n{abstract}\nC. Author\nA plain abstract.\n"
    records, stored = _imported("x.txt", text)
    _same_as_stored(records, stored)
    shown = to_text(stored[2].abstract)
    assert shown.replace("{", "").replace("}", "") == _fold(abstract).replace("{", "").replace("}", "")
