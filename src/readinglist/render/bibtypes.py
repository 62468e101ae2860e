"""Entry types: BibTeX's and BibLaTeX's, in words for a page, and as pybtex's plain style knows them.

``REQUIRED`` is what each plain-style template formats without ``optional[...]`` (pybtex
``style/formatting/unsrt.py``): a missing one is a warning, and ``-W`` a failed build.
``a|b`` means either. The property test in tests/test_render_library.py formats entries of
every type with every combination of these fields in pybtex's strict mode, so a row that is
too lax fails there.
"""

from __future__ import annotations

_SAME = "article book booklet inbook incollection inproceedings manual mastersthesis misc phdthesis proceedings"
PLAIN_TYPE = {name: name for name in _SAME.split()} | {
    "techreport": "techreport",
    "unpublished": "misc",  # the plain style wants a note, which the copy does not carry
    "conference": "inproceedings",
    "report": "techreport",
    "thesis": "phdthesis",  # with its own ``type`` (below), so a master's thesis says so
    "mvbook": "book",
    "bookinbook": "inbook",
    "suppbook": "inbook",
    "collection": "book",
    "mvcollection": "book",
    "reference": "book",
    "mvreference": "book",
    "incollection": "incollection",
    "inreference": "incollection",
    "suppcollection": "incollection",
    "mvproceedings": "proceedings",
    "suppperiodical": "article",
}  # every other type (online, software, dataset, patent, ...) is @misc

# The ``type`` a thesis shows: BibLaTeX's keys in words, and a default for one without any.
THESIS_DEFAULT = {"thesis": "Thesis", "mastersthesis": "Master's thesis", "phdthesis": "PhD thesis"}
THESIS_KEYS = {"phdthesis": "PhD thesis", "mathesis": "Master's thesis", "candthesis": "Candidate thesis"}


def thesis_type(entry_type: str, given: str) -> str:
    """What kind of thesis: the entry's own ``type`` (a BibLaTeX key in words), else its type's."""
    return THESIS_KEYS.get(given.strip().lower(), given.strip()) or THESIS_DEFAULT.get(entry_type, "")


REQUIRED = {
    "article": ("author", "title", "journal", "year"),
    "book": ("author|editor", "title", "publisher", "year"),
    "booklet": ("author", "title", "year"),
    "inbook": ("author|editor", "title", "publisher", "year"),
    "incollection": ("author", "title", "booktitle", "year"),
    "inproceedings": ("author", "title", "booktitle", "year"),
    "manual": ("title",),
    "mastersthesis": ("author", "title", "school", "year"),
    "misc": (),
    "phdthesis": ("author", "title", "school", "year"),
    "proceedings": ("title", "year"),
    "techreport": ("author", "title", "institution", "year"),
}

# How a page names an entry's type.
WORDS = {
    "article": "Journal article",
    "suppperiodical": "Journal article",
    "periodical": "Journal issue",
    "inproceedings": "Conference paper",
    "conference": "Conference paper",
    "proceedings": "Conference proceedings",
    "mvproceedings": "Conference proceedings",
    "book": "Book",
    "mvbook": "Book",
    "booklet": "Booklet",
    "collection": "Edited book",
    "mvcollection": "Edited book",
    "inbook": "Book chapter",
    "bookinbook": "Book chapter",
    "suppbook": "Book chapter",
    "incollection": "Book chapter",
    "suppcollection": "Book chapter",
    "reference": "Reference work",
    "mvreference": "Reference work",
    "inreference": "Reference entry",
    "phdthesis": "PhD thesis",
    "mastersthesis": "Master's thesis",
    "thesis": "Thesis",
    "techreport": "Technical report",
    "report": "Report",
    "manual": "Manual",
    "unpublished": "Unpublished",
    "online": "Web page",
    "electronic": "Web page",
    "www": "Web page",
    "software": "Software",
    "softwareversion": "Software",
    "codefragment": "Software",
    "dataset": "Dataset",
    "patent": "Patent",
    "standard": "Standard",
    "video": "Video",
    "audio": "Audio",
    "misc": "",
}


def missing_fields(kind: str, present: set[str]) -> list[str]:
    """The fields (``a or b`` for alternatives) that the plain style's ``kind`` needs and lacks."""
    return [need.replace("|", " or ") for need in REQUIRED.get(kind, ()) if not set(need.split("|")) & present]


def type_words(entry_type: str, preprint: bool) -> str:
    """ "Journal article", "Software", ...; a typeless record with an arXiv id is a preprint."""
    words = WORDS.get(entry_type.lower(), "")
    return words or ("Preprint" if preprint and entry_type.lower() in ("misc", "") else words)
