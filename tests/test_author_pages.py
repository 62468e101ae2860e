"""Author pages: one per initial, or one per first two letters where an initial has many authors.

A page of a thousand author sections is slow to scroll and to write, and a note's status change
writes again the page of each author of its paper. The tests lower ``SPLIT`` so that a handful
of authors splits an initial, and check that every link the generator writes to an author
(paper pages, the index, the feeds' index) lands on the page that holds the author's anchor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from readinglist.cli import main
from readinglist.render import authors

NAMES = ("Ann Baker", "Cy Barnes", "Bob Bell", "Di Beck", "Ed B'Lo", "Fay Zed")
LINK = re.compile(r"\(rl:authors/([\w-]+)#(author-[\w-]+)\)")


def _generate(root: Path) -> Path:
    assert main(["init", str(root)]) == 0
    entries = [
        f"@article{{p{i},\n  title = {{Paper number {i}}},\n  author = {{{' and '.join(NAMES)}}},\n"
        f"  journal = {{Journal}},\n  year = {{{2015 + i}}},\n}}\n"
        for i in range(3)  # three papers each: every author gets a feed (author_feed_min is 3)
    ]
    (root / "refs.bib").write_text("\n".join(entries), encoding="utf-8")
    assert main(["--root", str(root), "generate"]) == 0
    return root / "docs"


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five B authors, more than a lowered SPLIT of 3: the B pages are split."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(authors, "SPLIT", 3)
        return _generate(tmp_path_factory.mktemp("split") / "list")


def _anchors(docs: Path) -> dict[str, set[str]]:
    return {
        p.stem: set(re.findall(r"`(author-[\w-]+)`", p.read_text("utf-8"))) for p in (docs / "authors").glob("*.md")
    }


def test_a_crowded_initial_has_a_page_per_two_letters(split: Path) -> None:
    anchors = _anchors(split)
    assert anchors["ba"] == {"author-ann-baker", "author-cy-barnes"}
    assert anchors["be"] == {"author-bob-bell", "author-di-beck"}
    assert anchors["b"] == {"author-ed-b-lo"}  # no second letter a-z: the initial's own page
    assert anchors["z"] == {"author-fay-zed"}  # one author: a page per initial, as before
    assert "# Authors\\: Ba" in (split / "authors" / "ba.md").read_text("utf-8")


def test_every_link_to_an_author_lands_on_their_page(split: Path) -> None:
    anchors = _anchors(split)
    pages = [*(split / "papers").glob("*.md"), split / "authors" / "index.md"]
    links = [link for page in pages for link in LINK.findall(page.read_text("utf-8"))]
    assert {anchor for _, anchor in links} >= {a for found in anchors.values() for a in found}
    assert all(anchor in anchors[page] for page, anchor in links), links


def test_the_index_names_each_page(split: Path) -> None:
    index = (split / "authors" / "index.md").read_text("utf-8")
    for label, page in (("Ba", "ba"), ("Be", "be"), ("B", "b"), ("Z", "z")):
        assert f"[{label}](rl:authors/{page}) (" in index


def test_an_author_feed_follows_the_page_that_lists_the_author(split: Path) -> None:
    index = json.loads((split / "feeds" / "index.json").read_text("utf-8"))
    assert "author-ann-baker.xml" in [name for _, name in index["authors/ba"]]
    assert "author-ed-b-lo.xml" in [name for _, name in index["authors/b"]]


def test_an_initial_of_few_authors_keeps_one_page(tmp_path: Path) -> None:
    assert sorted(_anchors(_generate(tmp_path / "list"))) == ["b", "index", "z"]
