"""The reading workflow (issue 12, item 1): validated front matter, status badges on cards and paper
pages, per-topic progress, tag pages, the reading queue and "Recently added or annotated"."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import SEEDS, copy_seeds
from readinglist.config import load_config
from readinglist.errors import Code, ReadingListError
from readinglist.model import Library, Note
from readinglist.render.cards import cards
from readinglist.render.frontmatter import STATUSES, status_of
from readinglist.render.notes import load_notes, read_note
from readinglist.render.pages import site_pages
from readinglist.render.reading import queue_page, reading_pages, tag_slug
from readinglist.render.workflow import badge, progress, progress_block, recent
from readinglist.site.assemble import build_library
from readinglist.site.sphinx_ext.facets import facet_values

LINKS = re.compile(r"```\{readinglist-links\}\n(.*?)\n```", re.S)
FUSION = {"lin2018fusionstitching", "lin2019fusionstitching", "zhengfusionstitching"}


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, dict[str, Note]]:
    library, _, notes = build_library(load_config(copy_seeds(tmp_path_factory.mktemp("workflow") / "seeds")))
    return library, notes


def _meta(notes: dict[str, Note]) -> dict[str, dict[str, object]]:
    return {slug: note.meta for slug, note in notes.items()}


def _docs(page: str) -> list[str]:
    """Every paper a page's link lists name: each item's page and its other versions' pages."""
    items = [json.loads(line) for block in LINKS.findall(page) for line in block.splitlines()]
    return [d.removeprefix("papers/") for i in items for d in [i["doc"], *(v["doc"] for v in i.get("versions", []))]]


def _note(tmp_path: Path, front: str) -> Path:
    path = tmp_path / "x.md"
    path.write_text(f"---\n{front}\n---\nBody.\n", encoding="utf-8")
    return path


# --- front matter ----------------------------------------------------------------------------------


def test_skimmed_is_still_accepted_and_counts_as_read(tmp_path: Path) -> None:
    assert read_note(_note(tmp_path, "status: skimmed")).meta == {"status": "skimmed"}
    assert status_of("skimmed") == "read" and STATUSES == ("to-read", "reading", "read", "skipped")


@pytest.mark.parametrize(
    ("front", "line", "problem"),
    [
        ("status: done", 2, "front matter 'status': must be one of to-read, reading, read, skipped, not 'done'"),
        ("tags: [a]\npriority: someday", 3, "front matter 'priority': must be a whole number (1 first) or one of"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_note_and_line(tmp_path: Path, front: str, line: int, problem: str) -> None:
    path = _note(tmp_path, front)
    with pytest.raises(ReadingListError) as info:
        read_note(path)
    assert str(info.value).startswith(f"{path}:{line}: {problem}")  # names the allowed values
    assert "\n" not in str(info.value) and info.value.code == Code.BAD_FRONT_MATTER


# --- badges and counts -----------------------------------------------------------------------------


def test_badges_say_the_status_in_words_as_one_role() -> None:
    assert [badge(s) for s in STATUSES] == [
        "{bdg-warning}`To read`", "{bdg-primary}`Reading`", "{bdg-secondary}`Read`", "{bdg-light}`Skipped`"
    ]  # fmt: skip
    assert badge(None) == ""


def test_a_system_counts_once_with_its_furthest_status(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, _ = seeds
    fusion = [p for p in library.papers if p.key in FUSION]
    notes = {"lin2018fusionstitching": {"status": "read"}, "lin2019fusionstitching": {"status": "to-read"}}
    assert progress(fusion, notes) == "1 read"
    notes["zhoudasgd"] = {"status": "skimmed"}
    notes["lin2019dl2"] = {"status": "to-read"}
    others = [p for p in library.papers if p.key in {"zhoudasgd", "lin2019dl2"}]
    assert progress([*fusion, *others], notes) == "2 read · 1 to read"
    assert progress(fusion, {}) == ""


def test_cards_and_progress_leave_the_statuses_to_the_sphinx_extension(seeds: tuple[Library, dict[str, Note]]) -> None:
    """A card's badge and a topic's progress are filled in as Sphinx writes the page
    (sphinx_ext/liststatus.py; test_rebuild.py shows them on the built page): a status change
    leaves the topic pages' Markdown as it was. The progress block lists the version groups."""
    library, _ = seeds
    assert all("status" not in card for card in cards(library.papers))
    fusion = [p for p in library.papers if p.key in FUSION]
    block = progress_block(fusion)
    assert block.startswith("```{readinglist-progress}") and block.count('{"docs": [') == 1  # one system
    assert sorted(json.loads(block.splitlines()[1])["docs"]) == sorted(f"papers/{p.slug}" for p in fusion)
    assert progress_block([]) == ""


def test_the_site_shows_badges_counts_and_the_reading_line(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, notes = seeds
    pages = site_pages(library, notes, {}, {"title": "T", "description": "D"}, [])
    assert "{readinglist-progress}" in pages["topics/language-search.md"]  # filled in by Sphinx
    assert "1 to read" in pages["topics/index.md"] and "*4 papers · 1 to read*" in pages["index.md"]
    paper = pages["papers/zhoudasgd.md"]
    assert (
        "{bdg-warning}`To read` · **Tags:** [distributed training](rl:tags/distributed-training), "
        "[asynchronous SGD](rl:tags/asynchronous-sgd) · **Priority:** 2 · **Added:** 2024-05-01"
    ) in paper
    assert {"tags/index.md", "queue.md", "tags/kernel-fusion.md"} <= set(pages)


# --- the queue, tags and recent additions ----------------------------------------------------------


def test_the_queue_lists_exactly_the_papers_to_read(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, notes = seeds
    meta = _meta(notes)
    page = queue_page(library, meta)
    to_read = {p.slug for p in library.papers if meta.get(p.slug, {}).get("status") == "to-read"}
    assert (
        set(_docs(page))
        == to_read
        == {"zhoudasgd", "lin2019fusionstitching", "lin2018fusionstitching", "lin2018transfer"}
    )
    assert "3 papers to read" in page  # FusionStitching's two versions are one system
    # Priority first: "medium" (2) and 2 tie, then the newer paper.
    assert _docs(page)[:3] == ["lin2019fusionstitching", "lin2018fusionstitching", "zhoudasgd"]


def test_a_system_read_in_one_version_is_not_queued_for_another(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, notes = seeds
    meta = _meta(notes) | {"zhengfusionstitching": {"status": "read"}}
    assert not FUSION & set(_docs(queue_page(library, meta)))
    assert "No paper is marked to read yet\\." in queue_page(library, {})


def test_a_tag_page_lists_its_papers(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, notes = seeds
    pages = reading_pages(library, _meta(notes))
    assert sorted(_docs(pages["tags/distributed-training.md"])) == ["lin2020dapple", "zhoudasgd"]
    assert _docs(pages["tags/kernel-fusion.md"]) == ["lin2019fusionstitching", "lin2018fusionstitching"]
    assert "[kernel fusion](rl:tags/kernel-fusion) (1 paper)" in pages["tags/index.md"]


def test_tags_that_would_share_a_file_share_a_page(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, _ = seeds
    notes = {"zhoudasgd": {"tags": ["GPU"]}, "lin2019dl2": {"tags": ["gpu", "index", "日本"]}}
    pages = reading_pages(library, notes)
    assert sorted(_docs(pages["tags/gpu.md"])) == ["lin2019dl2", "zhoudasgd"]
    assert tag_slug("index").startswith("tag-") and tag_slug("日本").startswith("tag-")
    assert len(pages) == 5  # gpu, index, 日本, the index and the queue


@given(st.lists(st.text(min_size=1, max_size=20), max_size=5))
def test_every_tag_gets_a_safe_file_name(tags: list[str]) -> None:
    for tag in tags:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", tag_slug(tag)) and tag_slug(tag) != "index"


def test_recent_follows_added_dates_never_a_clock(seeds: tuple[Library, dict[str, Note]]) -> None:
    library, notes = seeds
    got = recent(library.papers, _meta(notes), {slug: n.has_body for slug, n in notes.items()})
    assert [(p.slug, why) for p, why in got] == [
        ("zhoudasgd", "added 2024-05-01 · to read"),
        ("lin2019dl2", "added 2024-04-20 · reading"),
        ("lin2019fusionstitching", "added 2024-04-10 · to read"),
        ("lin2018transfer", "added 2024-02-11 · to read"),
    ]
    dated: dict[str, dict[str, object]] = {
        "lin2018fusionstitching": {"added": datetime.date(2025, 1, 1)},
        "lin2019fusionstitching": {"added": "2025-01-02"},
    }
    assert [p.slug for p, _ in recent(library.papers, dated, {})] == ["lin2019fusionstitching"]  # one per system


def test_the_seed_notes_use_every_status_and_the_alias() -> None:
    used = {note.meta.get("status") for note in load_notes(SEEDS / "docs" / "notes").values()}
    assert {*STATUSES, "skimmed"} <= used


def test_author_pages_leave_each_papers_status_to_the_sphinx_extension(seeds: tuple[Library, dict[str, Note]]) -> None:
    """The statuses are filled in when the page is written (sphinx_ext/liststatus.py; test_rebuild.py
    shows them on the built page): a status change leaves the author pages' Markdown as it was."""
    library, notes = seeds
    pages = site_pages(library, notes, {}, {"title": "T", "description": "D"}, [])
    items = [
        item
        for path, page in pages.items()
        if path.startswith("authors/")
        for block in LINKS.findall(page)
        for item in map(json.loads, block.splitlines())
    ]
    said = [item for item in items if item.get("status") is True]
    assert said and not [item for item in said if "reason" in item]
    assert {item["doc"] for item in said} >= {"papers/zhoudasgd", "papers/lin2019aligraph", "papers/lin2020swaptext"}
    # The rest are a namesake's papers, whose reason is the evidence (not a status).
    assert all(item["reason"] for item in items if item not in said)
    other = site_pages(library, {}, {}, {"title": "T", "description": "D"}, [])
    assert {p: t for p, t in pages.items() if p.startswith("authors/")} == {
        p: t for p, t in other.items() if p.startswith("authors/")
    }


def test_the_search_filters_skimmed_as_read() -> None:
    assert facet_values({}, {"status": "skimmed"}, {})["status"] == ["read"]
