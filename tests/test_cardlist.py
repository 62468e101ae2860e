"""The ``{readinglist-cards}`` node (sphinx_ext/cardlist.py): sphinx-design's card markup, record text escaped."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import Tag

from conftest import attr, soup

HOSTILE = "<img src=x onerror=alert(1)> {bdg-danger}`x` **bold**"
CARDS = [
    {"doc": "papers/a", "title": HOSTILE, "meta": "2024 · Ann <Lee>", "summary": [["Problem", HOSTILE]],
     "status": "read", "versions": []},
    {"doc": "papers/b", "title": "System B", "meta": "2023 · Bo", "summary": [["", "A TL;DR."]], "status": "",
     "versions": [{"doc": "papers/a", "label": "2019"}]},
]  # fmt: skip


@pytest.fixture
def html(make_app: Callable[..., Any], tmp_path: Path) -> Tag:
    """The built page of a hand-written topic page with two cards: one linked whole, one with versions."""
    source = tmp_path / "src"
    (source / "papers").mkdir(parents=True)
    (source / "conf.py").write_text('extensions = ["readinglist.site.sphinx_ext"]\nreadinglist_root = "."\n')
    (source / "bibliography.bib").write_text("")
    for name in ("a", "b"):
        (source / "papers" / f"{name}.md").write_text(f"---\norphan: true\n---\n# Paper {name}\n")
    body = "\n".join(json.dumps(card) for card in CARDS)
    (source / "index.md").write_text(f"# Topic\n\n## Papers\n\n```{{readinglist-cards}}\n{body}\n```\n")
    app = make_app("html", srcdir=source, confoverrides={"readinglist_generate": False, "readinglist_search": False})
    app.build()
    assert app.statuscode == 0 and app.warning.getvalue() == ""
    return soup(Path(app.outdir) / "index.html")


def test_a_card_is_linked_whole_and_its_title_is_a_heading_below_the_section(html: Tag) -> None:
    first, _ = html.find_all("div", class_="sd-card")
    [link] = first.find_all("a", class_="sd-stretched-link")
    assert attr(link, "href") == "papers/a.html"
    heading = first.find("p", role="heading")
    assert heading is not None and heading.get("aria-level") == "3"  # under the h2 "Papers"
    assert "sd-card-hover" in (first.get("class") or [])


def test_a_card_with_versions_links_its_title_and_each_version_instead(html: Tag) -> None:
    card = html.find_all("div", class_="sd-card")[1]
    assert not card.find_all("a", class_="sd-stretched-link")
    assert [attr(a, "href") for a in card.find_all("a")] == ["papers/b.html", "papers/a.html"]
    assert "Other versions: 2019" in card.get_text()


def test_record_text_is_text_and_the_status_a_badge(html: Tag) -> None:
    card = html.find_all("div", class_="sd-card")[0]
    assert not card.find_all("img") and not card.find_all("strong", string="bold")
    assert card.get_text().count(HOSTILE) == 3  # the title, the Problem line and the link's hidden text
    assert "Ann <Lee>" in card.get_text()
    [badge] = card.find_all("span", class_="sd-badge")
    assert badge.get_text() == "Read" and "sd-bg-secondary" in (badge.get("class") or [])


def test_a_broken_progress_line_is_a_coded_warning_and_the_rest_counts(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    """A hand-broken ``{readinglist-progress}`` line is skipped with ``bad-progress-line``; the
    groups around it still count, with the statuses the notes give now (liststatus.py)."""
    source = tmp_path / "src"
    (source / "papers").mkdir(parents=True)
    (source / "notes").mkdir()
    (source / "conf.py").write_text('extensions = ["readinglist.site.sphinx_ext"]\nreadinglist_root = "."\n')
    (source / "bibliography.bib").write_text("")
    (source / "papers" / "a.md").write_text("---\norphan: true\n---\n# Paper a\n")
    (source / "notes" / "a.md").write_text("---\nstatus: read\n---\n")
    block = '{"docs": ["papers/a"]}\n{"docs": "papers/a"}\nnot json\n{"docs": ["papers/b"]}'
    (source / "index.md").write_text(f"# Topic\n\n```{{readinglist-progress}}\n{block}\n```\n")
    app = make_app("html", srcdir=source, confoverrides={"readinglist_generate": False, "readinglist_search": False})
    app.build()
    assert app.warning.getvalue().count("readinglist.bad-progress-line") == 2
    assert "<p>Progress: 1 read.</p>" in (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
