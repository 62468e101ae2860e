"""Record text is data: whole Sphinx builds of hostile records inject nothing.

Records go through the real pipeline (importer's record -> BibTeX conversion, refs.bib,
generator, Sphinx with ``-n -W``). The built pages must show each title, abstract and
author name as the deliberate LaTeX conversion projects it (``latex_to_md(...).plain``),
and hold no element or attribute beyond the allow-list of what that conversion makes.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from bs4 import Tag
from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st

from conftest import find, soup
from hostile_kit import FRAGMENTS, dump_record, records_project, sphinx_build
from readinglist.chars import strip_unsafe
from readinglist.latex import dump_to_latex, protect_title, to_text
from readinglist.model import RawRecord
from readinglist.render.cite import FORMATS
from readinglist.render.escape import clean
from readinglist.render.latexmd import latex_to_md
from readinglist.render.mathml import ELEMENTS as MATHML
from readinglist.store.identity import identity_keys
from readinglist.store.records import bib_name, to_work

GENERATED_DOWNLOAD = re.compile(r"(reading-list|(topic|tag)-[a-z0-9-]+)\.(bib|json)")  # render/downloads.py

HAZARDS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(2)">',
    "[click](javascript:alert(3))",
    "![img](data:text/html;base64,PHNjcmlwdD4=)",
    "{download}`/etc/passwd`",
    "{include}`/etc/passwd`",
    "```{raw} html\n<script>alert(4)</script>\n```",
    ":::{include} /etc/passwd\n:::",
    "{eval-rst}`.. raw:: html`",
    "$x$ and $$y$$ and costs $5 or $10",
    "# heading\n> quote\n- item\n+ plus\n1. one\n| a | b |\n(label)=\n---\n{{ substitution }}",
    "back\\slash \\input{/etc/passwd} NUL\x00 ESC\x1b bidi\u202etxt\u202c",
    "&lt;b&gt; &amp; &#60;script&#62;",
    "\\url{javascript:alert(5)} \\href{javascript:alert(6)}{x} $\\href{javascript:alert(7)}{y}$",
]
# What the deliberate conversion may add inside a title, abstract or author line.
ALLOWED = {"em": set(), "strong": set(), "sup": set(), "sub": set(), "span": {"class"}, "p": set()}
ALLOWED |= {tag: {"display", "xmlns", "alttext", "stretchy", "fence", "form", "width", "mathvariant"} for tag in MATHML}
LINK_ATTRS = {"class", "href", "id", "role"}
URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "srcset", "data", "poster"}


def _check_fragment(node: Tag) -> None:
    """Every element inside ``node`` is one the deliberate conversion makes, with safe attributes."""
    for element in node.find_all(True):
        if element.name == "a" and element.get("class") == ["headerlink"]:
            continue  # Sphinx's own pilcrow link
        if element.name == "code" and element.get("class") == ["math-source"]:
            assert element.find(True) is None, element  # math latex2mathml cannot read, as its source
            continue  # (render/mathml.fallback: "$10_$" once failed here, found by the property below)
        if element.name == "a":
            assert set(element.attrs) <= LINK_ATTRS, element
            href = element.get("href", "")
            assert isinstance(href, str) and href.startswith(("http://", "https://", "#", "../")), element
        else:
            assert element.name in ALLOWED, element
            assert set(element.attrs) <= ALLOWED[element.name], element
        for attr, value in element.attrs.items():
            if attr in URL_ATTRS:
                assert not str(value).strip().lower().startswith(("javascript:", "data:", "vbscript:")), element


def _visible(node: Tag) -> str:
    """Text as a reader sees it, with a formula standing for its LaTeX source."""
    for math in node.find_all("math"):
        math.replace_with(str(math.get("alttext", "")))
    for ref in node.find_all("a", class_="footnote-reference"):
        ref.decompose()
    for anchor in node.find_all("a", class_="headerlink"):
        anchor.decompose()
    return clean(node.get_text())


def _section(page: Tag, heading: str) -> Tag:
    h2 = next(h for h in page.find_all("h2") if h.get_text().startswith(heading))
    section = h2.find_parent("section")
    assert section is not None
    return section


def _assert_page_shows(html_dir: Path, key: str, record: RawRecord) -> None:
    page = soup(html_dir / "papers" / f"{key}.html")
    title = find(page, "h1")
    expected_title = latex_to_md(protect_title(dump_to_latex(record.title))).plain or "Untitled record"
    _check_fragment(title)
    assert _visible(title) == expected_title
    abstract = _section(page, "Abstract").find("p")
    assert abstract is not None
    expected = latex_to_md(dump_to_latex(record.abstract)).plain or "The source gives no abstract."
    _check_fragment(abstract)
    assert _visible(abstract) == expected
    _assert_cite_menu(page)
    authors = next(p for p in page.find_all("p") if p.get_text().startswith("Authors:"))
    names = [a.get_text() for a in authors.find_all("a")]
    assert names[0] == (clean(to_text(bib_name(record.authors[0]))) or record.source.owner)


def _assert_no_injection(html_dir: Path) -> None:
    for page in html_dir.rglob("*.html"):
        parsed = soup(page)
        article = parsed.find("article") or parsed
        assert not article.find_all(["script", "style", "form", "textarea"]), page
        assert all(_is_tab_input(i) for i in article.find_all("input")), page  # the Cite menu's tabs only
        # The "About this record" marker and the generator's related-work graph only.
        assert all(_is_chevron(svg) or _is_graph(svg) for svg in article.find_all("svg")), page
        for element in parsed.find_all(True):
            for attr, value in element.attrs.items():
                text = " ".join(value) if isinstance(value, list) else str(value)
                if attr in URL_ATTRS:
                    assert not text.strip().lower().startswith(("javascript:", "data:", "vbscript:")), (page, element)
                assert not attr.startswith("on"), (page, element)
            if element.name in {"iframe", "object", "embed", "img", "base"} and not _is_chart(element):
                raise AssertionError((page, element))
            if element.name == "form":  # the theme's search box
                assert re.fullmatch(r"(\.\./)*search\.html|#", str(element.get("action"))), (page, element)
            if element.name == "meta":
                assert "http-equiv" not in element.attrs, (page, element)
            if element.name in {"script", "style"}:  # the theme's own, never with record text
                src = str(element.get("src", ""))
                assert src == "" or "_static/" in src or src == "pagefind/pagefind-ui.js", (page, element)
                assert "alert(" not in element.get_text() and "passwd" not in element.get_text(), (page, element)
    # The only downloads are the generator's (.bib and CSL-JSON): a record's {download} payload is text.
    names = [p.name for p in (html_dir / "_downloads").rglob("*") if p.is_file()]
    assert "reading-list.bib" in names and all(GENERATED_DOWNLOAD.fullmatch(name) for name in names), names
    assert "root:" not in "".join(p.read_text(errors="replace") for p in html_dir.rglob("*.html"))


def _is_tab_input(element: Tag) -> bool:
    """The radio button of one tab of the Cite menu (sphinx_ext/citetabs.py), with nothing of a record in it."""
    allowed = {"type": "radio", "id": r"readinglist-cite-\d+", "name": r"readinglist-cite", "checked": "checked"}
    return element.get("type") == "radio" and all(
        attr in allowed and re.fullmatch(allowed[attr], str(value)) for attr, value in element.attrs.items()
    )


def _is_chart(element: Tag) -> bool:
    """The generator's papers-per-year chart (render/charts.py): its own SVG, copied by Sphinx to _images/."""
    themes = (["only-light", "readinglist-chart"], ["only-dark", "readinglist-chart"])
    return (
        element.name == "img"
        and element.get("class") in themes
        and re.fullmatch(r"(\.\./)*_images/[a-z0-9-]+(\.dark)?\d*\.svg", str(element.get("src"))) is not None
        and str(element.get("alt", "")).startswith("Bar chart: papers per year")
    )


GRAPH_TAGS = {"svg", "g", "a", "title", "line", "path", "circle", "text"}


def _is_graph(element: Tag) -> bool:
    """The related-work graph (render/graphsvg.py): in its figure, made of shapes, links and text only."""
    figure = element.find_parent("figure")
    return (
        figure is not None
        and "rl-graph" in (figure.get("class") or [])
        and all(child.name in GRAPH_TAGS for child in element.find_all(True))
    )


def _is_chevron(element: Tag) -> bool:
    return element.find_parent("span", class_="sd-summary-state-marker") is not None


def _assert_cite_menu(page: Tag) -> None:
    """A tab per format, each one code block of text and highlighting: no record text became markup."""
    menu = find(page, "div", class_="readinglist-cite")
    assert [label.get_text(strip=True) for label in menu.find_all("label")] == [f.label for f in FORMATS]
    for content in menu.find_all("div", class_="sd-tab-content", recursive=False):
        assert len(content.find_all("pre")) == 1
        assert {e.name for e in content.find_all(True)} <= {"div", "pre", "span"}, content
    about = find(page, "details", class_="readinglist-about")
    assert find(about, "summary").get_text(strip=True) == "About this record"


def test_every_hazard_renders_as_literal_text(tmp_path: Path) -> None:
    records = [
        dump_record(n, f"Title {hazard}", f"Abstract {hazard} end.", f"Ann {hazard.splitlines()[0][:40]}")
        for n, hazard in enumerate(HAZARDS)
    ]
    status, warnings, html_dir = sphinx_build(records_project(tmp_path, records))
    assert status == 0, warnings
    assert warnings == ""
    _assert_no_injection(html_dir)
    for n, record in enumerate(records):
        _assert_page_shows(html_dir, f"hostile{n}", record)
    script_page = (html_dir / "papers" / "hostile0.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in script_page


texts = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(FRAGMENTS + HAZARDS)), min_size=1, max_size=6).map(
    "".join
)
names = st.lists(st.one_of(st.text(max_size=8), st.sampled_from(FRAGMENTS)), min_size=1, max_size=3).map("".join)


@settings(
    max_examples=12,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink would rebuild the site hundreds of times
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(batch=st.lists(st.tuples(texts, texts, names), min_size=3, max_size=5))
@example(batch=[("Costs", "It costs $5 or $10_$x$ and more.", "Ann Lee")])  # math shown as its LaTeX source
def test_arbitrary_records_render_exactly_and_inject_nothing(
    tmp_path_factory: pytest.TempPathFactory, batch: list[tuple[str, str, str]]
) -> None:
    records = [dump_record(n, title, abstract, author) for n, (title, abstract, author) in enumerate(batch)]
    records = [r for r in records if clean(r.title) and clean(r.authors[0]) and ", " not in r.authors[0]]
    records = _one_per_abstract(records)
    if not records:
        return
    status, warnings, html_dir = sphinx_build(records_project(tmp_path_factory.mktemp("prop"), records))
    assert status == 0, warnings
    assert warnings == "", warnings
    _assert_no_injection(html_dir)
    for n, record in enumerate(records):
        _assert_page_shows(html_dir, f"hostile{n}", record)


def _one_per_abstract(records: list[RawRecord]) -> list[RawRecord]:
    """Records with one abstract are one work, shown on one page (site/pasted.py): keep the first."""
    seen: set[str] = set()
    kept = []
    for record in records:
        keys = {k for k in identity_keys(to_work(record)) if k.startswith("abstract:")}
        if not keys & seen:
            kept.append(record)
        seen |= keys
    return kept


LATEX_ACTIVE = "\\{}$~^"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters=LATEX_ACTIVE, blacklist_categories=["Cs"])))
def test_text_without_latex_is_shown_exactly(text: str) -> None:
    """With no LaTeX-active character, the projection the pages are checked against is the text itself."""
    shown = strip_unsafe(text)  # a dropped character may join two backticks into a quote ligature
    assume("--" not in shown and "``" not in shown and "''" not in shown and "?`" not in shown and "!`" not in shown)
    expected = clean(unicodedata.normalize("NFC", text))
    assert latex_to_md(dump_to_latex(text)).plain == expected


def test_markup_without_latex_is_shown_exactly() -> None:
    text = "Plain <b>bold</b> [x](javascript:y) :raw:`z` # | > 1. (l)= * _ & % 50% a_b #tag @user! &amp;"
    assert latex_to_md(dump_to_latex(text)).plain == text
