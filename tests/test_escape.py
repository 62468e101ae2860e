"""``md_text``: any text becomes inline MyST that renders as exactly ``clean(text)``, as plain text.

Rendered with MyST-Parser's docutils parser and the site's MyST extensions (colon_fence, dollarmath).
"""

from __future__ import annotations

from docutils import nodes
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from hostile_kit import FRAGMENTS, render
from readinglist.render.escape import clean, md_text

texts = st.lists(st.one_of(st.text(max_size=16), st.sampled_from(FRAGMENTS)), max_size=10).map("".join)
CONFIG = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def only_text_below(node: nodes.Element) -> bool:
    return all(isinstance(child, nodes.Text) for child in node.findall(include_self=False))


def test_renderer_is_live() -> None:
    """The harness itself must see markup: unescaped input does produce other nodes."""
    doc, _ = render("a $x$ [y](https://example.org) `z` <b>")
    assert not only_text_below(doc[0])
    doc, _ = render(":::{note}\nx\n:::")
    assert isinstance(doc[0], nodes.note)


@CONFIG
@given(texts)
@example("<script>alert(1)</script>")
@example("[x](javascript:alert(1))")
@example("{raw}`html` <b>x</b>")
@example("$x$ and $$y$$")
@example("# heading\n> quote\n- item\n1. item\n| a | b |\n(label)=\n---\n{{ sub }}")
@example("trailing backslash \\")
@example("```\ncode\n```")
@example("")
@example(" \n\t ")
def test_md_text_renders_as_one_plain_paragraph(text: str) -> None:
    expected = clean(text)
    markdown = md_text(text)
    assert "\n" not in markdown
    doc, warnings = render(markdown)
    assert warnings == ""
    if not expected:
        assert len(doc.children) == 0
        return
    assert len(doc.children) == 1, doc.pformat()
    paragraph = doc[0]
    assert isinstance(paragraph, nodes.paragraph), doc.pformat()
    assert only_text_below(paragraph), doc.pformat()
    assert paragraph.astext() == expected


@settings(max_examples=100, deadline=None)
@given(texts)
def test_md_text_is_plain_inside_a_heading_and_a_link(text: str) -> None:
    expected = clean(text)
    assume(expected)
    doc, warnings = render(f"# {md_text(text)}\n\nbody\n")
    assert warnings == ""
    [title] = list(doc.findall(nodes.title))
    assert only_text_below(title) and title.astext() == expected

    doc, warnings = render(f"see [{md_text(text)}](https://example.org/page) here")
    assert warnings == ""
    [paragraph] = doc.children
    [link] = list(paragraph.findall(nodes.reference))
    assert link["refuri"] == "https://example.org/page"
    assert only_text_below(link) and link.astext() == expected


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_clean_collapses_whitespace_and_drops_controls(text: str) -> None:
    out = clean(text)
    assert clean(out) == out
    assert out == out.strip() and "  " not in out
    assert not any(c in out for c in "\x00\x07\x1b\x7f\u202e\u2066\ufeff\n\r\t")
    assert out == " ".join(out.split())  # every whitespace run is now one plain space
    assert "".join(out.split()) == "".join(c for c in text if not c.isspace() and c in out)
