"""LaTeX record text -> inline MyST (render.latexmd): the only markup it can make is what it means to.

Titles and abstracts go through ``latex_to_md``, which turns a few LaTeX constructs into MyST on
purpose (emphasis, strong, super/subscript, math, http(s) links, footnotes) and escapes the rest
with ``md_text``. Whatever the record says, the rendered result has no other node types, no
link that is not http(s), and no raw output.
"""

from __future__ import annotations

import io

from docutils import nodes
from docutils.core import publish_doctree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from myst_parser.parsers.docutils_ import Parser

from readinglist.latex import dump_to_latex, to_text
from readinglist.render.latexmd import latex_to_md

PIECES = [
    "\\emph{", "\\textbf{", "\\textit{", "}", "{", "$", "^", "_", "\\url{", "javascript:alert(1)",
    "https://example.org/a", "\\footnote{", "`", "``", "<script>alert(1)</script>", "[x](javascript:y)",
    "\\", "\\href{", "\\text{", "{raw}`", "$x^2$", "$\\alpha$", "*", "#", "\n", ":::", "{{ s }}", "$$",
    "\\(", "\\)", "\\[", "\\]", "\\TeX ", "\\LaTeX{}", "\\mbox{", "\\textsc{", "$\\aleph$",
]  # fmt: skip
texts = st.lists(st.one_of(st.text(max_size=6), st.sampled_from(PIECES)), max_size=14).map("".join)
ALLOWED = (
    nodes.Text, nodes.emphasis, nodes.strong, nodes.superscript, nodes.subscript, nodes.math,
    nodes.footnote_reference, nodes.reference,
)  # fmt: skip


def render(markdown: str) -> nodes.document:
    return publish_doctree(
        markdown,
        parser=Parser(),
        settings_overrides={"myst_enable_extensions": ["colon_fence", "dollarmath"], "warning_stream": io.StringIO()},
    )


def paragraph_of(latex: str) -> tuple[nodes.paragraph | None, str]:
    converted = latex_to_md(latex)
    assert "\n" not in converted.md
    definitions = "".join(f"\n\n[^{label}]: {text}" for label, text in converted.footnotes)
    doc = render(converted.md + definitions)
    if not converted.md.strip():
        return None, converted.md
    first = doc.children[0]
    assert isinstance(first, nodes.paragraph), doc.pformat()
    return first, converted.md


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.booleans())
def test_only_intended_markup(text: str, stored: bool) -> None:
    paragraph, markdown = paragraph_of(dump_to_latex(text) if stored else text)
    if paragraph is None:
        return
    for node in paragraph.findall(include_self=False):
        assert isinstance(node, ALLOWED), (markdown, paragraph.pformat())
        if isinstance(node, nodes.reference):
            assert node.get("refid") or node.get("refuri", "").startswith(("http://", "https://")), markdown


def test_intended_markup_is_made() -> None:
    paragraph, _ = paragraph_of("\\emph{Fusion} at $x^2$ and C$^{3}$F, see \\url{https://example.org/a}")
    assert paragraph is not None
    kinds = {type(n) for n in paragraph.findall(include_self=False)}
    assert {nodes.emphasis, nodes.math, nodes.superscript, nodes.reference} <= kinds


def test_javascript_url_is_text() -> None:
    paragraph, _ = paragraph_of("\\url{javascript:alert(1)}")
    assert paragraph is not None
    assert not list(paragraph.findall(nodes.reference))
    assert "javascript:alert(1)" in paragraph.astext()


TITLES = [
    (
        r"Literate {\TeX} and \LaTeX{} for \mbox{GPT-3}: Stochastic \(\lambda\)-calculi and the $\aleph$ project",
        "Literate TeX and LaTeX for GPT-3: Stochastic λ-calculi and the ℵ project",
    ),
    (r"\LaTeX and \BibTeX\ in \textsc{Sc} \texttt{tt} at \[x+y\]", "LaTeX and BibTeX in Sc tt at x+y"),
    (r"M\"{u}ller {\'e}t\'e \emph{big} \url{https://example.org/a}", "Müller été big https://example.org/a"),
]


def test_logos_boxes_and_bracketed_math_read_as_text_on_the_page_as_in_plain_text() -> None:
    """The page (formulas read as MathML shows them) and ``to_text`` (search, bibliography) agree."""
    for latex, expected in TITLES:
        assert to_text(latex) == expected
        paragraph, _ = paragraph_of(latex)
        assert paragraph is not None
        for math in list(paragraph.findall(nodes.math)):
            math.replace_self(nodes.Text(to_text(f"${math.astext()}$")))
        assert " ".join(paragraph.astext().split()) == expected
    paragraph, _ = paragraph_of(r"a \(\lambda\) b")
    assert paragraph is not None and [m.astext() for m in paragraph.findall(nodes.math)] == ["\\lambda"]
