"""The parser-free path of ``to_text`` gives exactly what pylatexenc gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.latex import _converter, to_text
from readinglist.render.latexmd import latex_to_md

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
