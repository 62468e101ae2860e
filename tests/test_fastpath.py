"""The parser-free path of ``to_text`` gives exactly what pylatexenc gives."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pybtex.database import Person

from readinglist.latex import _converter, to_text
from readinglist.render.latexmd import latex_to_md
from readinglist.sources.biblatex import split_top_level
from readinglist.sources.bibtex import fold_spaces
from readinglist.store.bibfile import name_as_stored

PIECES = ["\\%", "\\&", "\\#", "\\_", "\\$", "---", "--", "-", "~", "``", "''", "?`", "!`", "`", "'", " ", "x"]
PIECES += ["{x}", "{}", "{--}"]  # groups: braces that only protect case
# Stored text never holds control characters (dump_to_latex drops them), and bare & # _ ^ are
# shown as they are on purpose where pylatexenc would drop or mangle them.
plain = st.text(
    alphabet=st.characters(blacklist_characters="\\{}$~%`'-?!&#_^", blacklist_categories=("Cs", "Cc")), max_size=8
)
simple_latex = st.lists(st.one_of(plain, st.sampled_from(PIECES)), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(simple_latex)
def test_fast_path_matches_pylatexenc(latex: str) -> None:
    slow = " ".join(_converter().latex_to_text(latex).split())
    assert to_text(latex) == slow


@settings(max_examples=200, deadline=None)
@given(simple_latex)
def test_fast_markdown_path_matches_the_walker(latex: str) -> None:
    fast = latex_to_md(latex)
    slow = latex_to_md(latex + "{}")  # an empty group forces the LaTeX walker
    assert fast.plain == slow.plain


# The import's shortcuts (issue 10's speed target) must give exactly what the general code gives.
NAME_WORDS = st.text(alphabet=st.sampled_from("AaBbZz.-'éÉ{}\\ ,~"), min_size=1, max_size=6)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(NAME_WORDS, min_size=1, max_size=4).map(" ".join)
    | st.tuples(NAME_WORDS, NAME_WORDS).map(", ".join)  # "Family, Given", as readers store names
)
def test_a_name_is_stored_as_pybtex_writes_it(name: str) -> None:
    assume(name.strip() and name == " ".join(name.split()))
    try:
        expected = str(Person(name))
    except Exception:  # a name pybtex refuses takes the general path, which raises the same
        return
    assert name_as_stored(name) == expected


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n\xa0\u2003\u3000\x1c\x85\u200bab{},"), max_size=12) | st.text())
def test_folding_spaces_is_split_and_join(value: str) -> None:
    assert fold_spaces(value) == " ".join(value.split())


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab ,{}"), max_size=12))
def test_splitting_at_top_level_commas(text: str) -> None:
    assert split_top_level(text, ",") == _split_slowly(text)


def _split_slowly(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0 and ch not in "{}":
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]
