"""Storage conversion: dump text becomes a BibTeX-safe field and displays as the text it was."""

from __future__ import annotations

import unicodedata

import pybtex.errors
from hypothesis import given, settings
from hypothesis import strategies as st
from pybtex.database import Entry
from pybtex.database.input.bibtex import Parser

from readinglist.chars import strip_unsafe
from readinglist.latex import dump_to_latex, to_text
from readinglist.store.bibfile import format_entry

# Text characters only: no surrogates or control characters (dump_to_latex drops controls).
CHARS = st.characters(blacklist_categories=("Cs", "Cc"))
# Plain prose: without the characters that mean something in LaTeX on purpose
# (groups, macros, math, superscripts, ties, quote and dash ligatures).
PROSE = st.characters(blacklist_characters="\\{}$^~`'-", blacklist_categories=("Cs", "Cc"))


@settings(max_examples=200, deadline=None)
@given(st.text(CHARS))
def test_dump_text_is_storable_in_a_bibtex_field(text: str) -> None:
    value = dump_to_latex(text)
    saved = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)
    try:
        parsed = Parser().parse_string(format_entry("k", Entry("misc", fields={"title": "T", "abstract": value})))
    finally:
        pybtex.errors.set_strict_mode(saved)
    assert " ".join(parsed.entries["k"].fields["abstract"].split()) == " ".join(value.split())


@settings(max_examples=200, deadline=None)
@given(st.text(PROSE))
def test_plain_prose_displays_unchanged(text: str) -> None:
    assert to_text(dump_to_latex(text)) == " ".join(unicodedata.normalize("NFC", strip_unsafe(text)).split())


def test_latex_specials_in_prose() -> None:
    text = "50% of a_b & c #1 costs $5"
    stored = dump_to_latex(text)
    assert stored == "50\\% of a\\_b \\& c \\#1 costs \\$5"
    assert to_text(stored) == text
