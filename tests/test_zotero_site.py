"""A synced Zotero library as a site: its pages build with zero warnings, and a paper's note and
highlights show under "From Zotero", sanitised.

The items are served by the local server in the Web API's shape (tests/zotero_kit.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from conftest import build_site, find, soup, words
from readinglist.cli import main
from readinglist.fetch import zotero_state
from readinglist.project import init
from zotero_kit import FakeZotero, item, note, notes_and_highlights, served

KEY = "k3y"
SAID = "Highlighted claim {n} <b>x</b>"  # a highlight is plain text: its "<b>" is shown, not obeyed
VOCABULARY = sorted(
    {
        *"sparse pipeline cache graph kernel compiler scheduler memory vision speech parser robot protein".split(),
        *"quantum market climate lattice tensor sensor query index network routing storage shader audio".split(),
        *"language proof theorem circuit battery genome traffic weather image video text code search".split(),
        *"privacy fairness energy latency contract ledger drone satellite river forest ocean cell neuron".split(),
    }
)


def article(n: int) -> dict[str, Any]:
    """A distinct paper: its title and abstract drawn from a vocabulary by a generator seeded with ``n``."""
    pick = random.Random(n).sample(VOCABULARY, 14)
    venue = {"publicationTitle": "Journal of Examples"} if n % 3 else {"proceedingsTitle": "Journal of Examples"}
    return item(
        n,
        itemType="journalArticle" if n % 3 else "conferencePaper",
        title=f"{pick[0].capitalize()} {pick[1]} for {pick[2]} {pick[3]}",
        creators=[{"creatorType": "author", "firstName": "Ann", "lastName": f"Author{n % 97}"},
                  {"creatorType": "author", "name": "Example Consortium"}],
        abstractNote=f"We propose {' '.join(pick[4:9])} for {' '.join(pick[9:])}, {n % 9 + 2}x faster.",
        **{"publicationTitle": "", **venue},
        date=f"{1990 + n % 35}", DOI="", collections=[],
        tags=[{"tag": pick[0]}],
        extra=f"Citation Key: author{n}study" if n % 2 else "",
    )  # fmt: skip


def library_of(objects: list[dict[str, Any]]) -> FakeZotero:
    library = FakeZotero(KEY)
    for data in objects:
        library.put(data)
    return library


def synced(root: Path, library: FakeZotero, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sync of ``library`` into ``root`` (a new list first, where there is none)."""
    if not root.exists():
        init(root)
        (root / "conf" / "zotero.toml").write_text('[highlights]\nyellow = "Key result"\n', encoding="utf-8")
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    with served(library) as url:
        assert main(["--root", str(root), "sync", "zotero", "--user", "1", "--api-url", url]) == 0


def test_a_note_and_three_highlights_show_under_from_zotero_or_in_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    synced(root, library_of([article(n) for n in range(6)] + notes_and_highlights("ITEM0001", SAID)), monkeypatch)
    key = zotero_state.load_state(root).keys["ITEM0001"]
    out = build_site(root, "--no-search")
    page = soup(out / "papers" / f"{key}.html")
    section = find(page, "section", id="from-zotero")
    said = words(section)
    assert "Compare with this and that, carefully." in said and "{attention}`x` first" in said
    assert find(section, "a", href="https://example.org/x").get_text() == "that"
    marks = [words(li) for li in section.find_all("li") if "Highlighted claim" in words(li)]
    assert marks == [  # a highlight is plain text: its "<b>" is shown, not obeyed
        "Red highlight (p. 5): “Highlighted claim 1 <b>x</b>” — comment 1",
        "Green highlight (p. iv): “Highlighted claim 2 <b>x</b>” — comment 2",
    ]
    summary = find(page, "section", id="summary")  # yellow stands for "Key result" (conf/zotero.toml)
    assert [words(li) for li in summary.find_all("li") if "Highlighted" in words(li)] == [
        "“Highlighted claim 0 <b>x</b>” (highlighted on p. 3)"
    ]
    for shown in (section, summary):
        html = str(shown)
        assert shown.find("b") is None and "javascript" not in html and "<script" not in html and "alert" not in html
    other = soup(out / "papers" / f"{zotero_state.load_state(root).keys['ITEM0002']}.html")
    assert other.find("section", id="from-zotero") is None  # an item without notes shows no section


@pytest.mark.slow  # three minutes on a shared machine: nox -s tests_slow
def test_a_thousand_items_sync_into_a_new_list_that_builds_with_zero_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    synced(root, library_of([article(n) for n in range(1000)] + notes_and_highlights("ITEM0001", SAID)), monkeypatch)
    assert len(zotero_state.load_state(root).keys) == 1000
    out = build_site(root, "--no-search")  # -n -W --keep-going: any warning fails the build
    assert len(list((out / "papers").glob("*.html"))) == 1000


def test_a_note_changed_upstream_reaches_the_built_page_on_the_next_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    library = library_of([article(n) for n in range(3)] + notes_and_highlights("ITEM0001", SAID))
    synced(root, library, monkeypatch)
    out = build_site(root, "--no-search")
    page = out / "papers" / f"{zotero_state.load_state(root).keys['ITEM0001']}.html"
    assert "Compare with" in words(find(soup(page), "section", id="from-zotero"))
    library.put(note("NOTE0001", "ITEM0001", "<p>Rewritten.</p>"))
    synced(root, library, monkeypatch)  # incremental: only the note is fetched
    build_site(root, "--no-search")
    said = words(find(soup(page), "section", id="from-zotero"))
    assert "Rewritten." in said and "Compare with" not in said
