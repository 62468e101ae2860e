"""The rendered units' memo (render/memo.py): a served unit is byte for byte what a render writes.

Each change below is rendered twice: from the memo the unchanged site left, and afresh with no
memo; the two must be the same files. A memo key that misses an input serves a stale file and
fails here. Then the units the change touches must have been rendered again, and most of the
others served. The last tests do the same through ``generate``: adding a paper to refs.bib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from conftest import copy_seeds
from readinglist.cache import FILE, Store, key_of
from readinglist.config import load_config
from readinglist.model import Library, Note, Paper
from readinglist.render import memo
from readinglist.render.notes import load_notes
from readinglist.render.pages import site_pages
from readinglist.render.recorder import Recorder
from readinglist.site import generate
from readinglist.site.assemble import LIBRARY, RENDER, Enriched, EnrichInputs, build_library, render_key

SITE = {"title": "T", "description": "D"}
DAPPLE = "lin2020dapple"  # a seed paper with a note (status: read, two tags)
Seeds = tuple[Library, dict[str, Note], dict[str, str]]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory, seed_bib_text: str) -> Seeds:
    root = copy_seeds(tmp_path_factory.mktemp("memo") / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    library, bibtex, notes = build_library(load_config(root))
    return library, notes, bibtex


def _render(
    seeds: Seeds, previous: dict[str, memo.Entry] | None, docs: Path | None = None
) -> tuple[dict[str, str], memo.Memo]:
    """The pages and the memo they leave, written to ``docs`` as ``generate`` would; ``previous``
    None: no memo at all."""
    library, notes, bibtex = seeds
    with memo.kept(previous or {}, docs, active=previous is not None) as made:
        pages = site_pages(library, notes, bibtex, SITE, [])
    for rel, text in pages.items():
        if docs is not None:
            (docs / rel).parent.mkdir(parents=True, exist_ok=True)
            (docs / rel).write_bytes(text.encode("utf-8"))
    return pages, made


def _paper(library: Library, key: str, **changes: Any) -> Library:
    papers = tuple(replace(p, **changes) if p.key == key else p for p in library.papers)
    return replace(library, papers=papers)


def _linked(library: Library) -> Paper:
    """A paper other papers link to: its title shows on their pages."""
    targets = {link.key for p in library.papers for link in p.related}
    return next(p for p in library.papers if p.key in targets)


def _meta(notes: dict[str, Note], **changes: Any) -> dict[str, Note]:
    note = notes[DAPPLE]
    return notes | {DAPPLE: replace(note, meta=note.meta | changes)}


def _status(s: Seeds) -> Seeds:
    return s[0], _meta(s[1], status="reading"), s[2]


def _tag(s: Seeds) -> Seeds:
    return s[0], _meta(s[1], tags=[*s[1][DAPPLE].meta["tags"], "a new tag"]), s[2]


def _added(s: Seeds) -> Seeds:
    return s[0], _meta(s[1], added="2031-01-02"), s[2]


def _title(s: Seeds) -> Seeds:
    target = _linked(s[0])
    return _paper(s[0], target.key, work=replace(target.work, title="A Retitled Paper")), s[1], s[2]


def _tldr(s: Seeds) -> Seeds:
    target = _linked(s[0])
    return _paper(s[0], target.key, tldr="Something else entirely."), s[1], s[2]


def _link(s: Seeds) -> Seeds:
    """One related link less: the graph of every page that draws both papers changes."""
    paper = next(p for p in s[0].papers if len(p.related) > 1)
    return _paper(s[0], paper.key, related=paper.related[1:]), s[1], s[2]


def _topic(s: Seeds) -> Seeds:
    topics = (replace(s[0].topics[0], title="A Renamed Topic"), *s[0].topics[1:])
    return replace(s[0], topics=topics), s[1], s[2]


def _bibtex(s: Seeds) -> Seeds:
    return s[0], s[1], s[2] | {DAPPLE: "@misc{lin2020dapple,\n  title = {Changed}\n}\n"}


CHANGES: dict[str, Callable[[Seeds], Seeds]] = {
    "status": _status,
    "tag": _tag,
    "added": _added,
    "linked paper's title": _title,
    "linked paper's TL;DR": _tldr,
    "a related link": _link,
    "topic title": _topic,
    "public BibTeX": _bibtex,
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_served_unit_is_what_a_render_writes(name: str, seeds: Seeds, tmp_path: Path) -> None:
    before, first = _render(seeds, {}, tmp_path)
    changed = CHANGES[name](seeds)
    served, second = _render(changed, first.made, tmp_path)
    fresh, _ = _render(changed, None)
    assert served == fresh
    assert served != before  # every change shows somewhere
    if name != "topic title":  # every page's key holds the topics (their titles are in every author chart)
        assert second.served > len(second.rendered)  # most units are served


def test_a_status_change_renders_only_the_units_that_show_the_paper(seeds: Seeds, tmp_path: Path) -> None:
    """Its paper page and feeds; no topic page, whose badges and progress Sphinx fills in (liststatus.py)."""
    _, first = _render(seeds, {}, tmp_path)
    _, second = _render(_status(seeds), first.made, tmp_path)
    papers = [name for name in second.rendered if name.startswith("papers/")]
    assert papers == [f"papers/{DAPPLE}.md"]
    assert [name for name in second.rendered if name.startswith("topics/")] == []
    assert "feeds/all.xml" in second.rendered


def test_a_rating_renders_the_topic_pages_of_the_paper_alone(seeds: Seeds, tmp_path: Path) -> None:
    """ "Start here" puts a highly rated paper first: the pages of its topics read the ratings."""
    _, first = _render(seeds, {}, tmp_path)
    _, second = _render((seeds[0], _meta(seeds[1], rating=5), seeds[2]), first.made, tmp_path)
    dapple = seeds[0].by_key()[DAPPLE]
    topics = {f"topics/{t}.md" for t in (*dapple.topics, *dapple.subtopics)}
    assert {name for name in second.rendered if name.startswith("topics/")} == topics
    unaffected = [p for p in seeds[0].papers if not set(p.topics) & set(dapple.topics)]
    assert unaffected and all(f"topics/{t}.md" not in second.rendered for p in unaffected for t in p.topics)


def test_an_unchanged_site_is_served_whole(seeds: Seeds, tmp_path: Path) -> None:
    before, first = _render(seeds, {}, tmp_path)
    again, second = _render(seeds, first.made, tmp_path)
    assert again == before and second.rendered == []


def test_a_file_edited_by_hand_or_gone_is_rendered_again(seeds: Seeds, tmp_path: Path) -> None:
    before, first = _render(seeds, {}, tmp_path)
    topic = next(rel for rel in before if rel.startswith("topics/") and rel != "topics/index.md")
    (tmp_path / topic).write_text("edited\n", encoding="utf-8")
    (tmp_path / f"papers/{DAPPLE}.md").unlink()
    again, second = _render(seeds, first.made, tmp_path)
    assert again == before and set(second.rendered) == {topic, f"papers/{DAPPLE}.md"}


def test_a_paper_page_that_read_every_paper_is_not_kept(seeds: Seeds) -> None:
    library = seeds[0]
    with memo.kept({}, None) as made:
        made.page("papers/x.md", "k", "x", library.by_key(), lambda by_key: {"papers/x.md": str(len(by_key))})
        made.page("papers/y.md", "k", "y", library.by_key(), lambda by_key: {"papers/y.md": str(by_key.get("nobody"))})
    assert set(made.made) == {"papers/y.md"}
    assert made.made["papers/y.md"].reads == (("nobody", "", ""), ("y", "", ""))


def test_the_recorder_notes_every_key_read() -> None:
    recorder = Recorder({})
    assert recorder.get("a") is None and "b" not in recorder
    with pytest.raises(KeyError):
        recorder["c"]
    assert recorder.read == {"a", "b", "c"} and not recorder.all
    list(recorder)
    assert recorder.all


NEW_ENTRY = """
@misc{zhang2031memo,
  title = {Memoised Rendering for Pipeline Parallel Training Lists},
  author = {Zhang, Ada and Lin, Wei},
  year = {2031},
  abstract = {We propose a pipeline parallel training framework that renders only what changed.},
}
"""


def _docs(root: Path) -> dict[str, bytes]:
    docs = root / "docs"
    # The state file's pickled results follow which results were served: compared unpickled below.
    files = [p for p in docs.rglob("*") if p.is_file() and p.name not in (".readinglist-build.lock", FILE)]
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in files}


def _project(folder: Path, bib: str) -> Path:
    root = copy_seeds(folder, refs=False)
    (root / "refs.bib").write_text(bib, encoding="utf-8")
    return root


def test_adding_a_paper_writes_what_a_clean_generate_writes(tmp_path: Path, seed_bib_text: str) -> None:
    root = _project(tmp_path / "incremental", seed_bib_text)
    generate.run(load_config(root))
    times = {rel: (root / "docs" / rel).stat().st_mtime_ns for rel in _docs(root)}
    with open(root / "refs.bib", "a", encoding="utf-8") as f:
        f.write(NEW_ENTRY)
    generate.run(load_config(root))
    after = _docs(root)
    assert "papers/zhang2031memo.md" in after
    clean = _project(tmp_path / "clean", seed_bib_text + NEW_ENTRY)
    generate.run(load_config(clean))
    assert after == _docs(clean)
    config = load_config(root)
    key = key_of(LIBRARY, EnrichInputs.of(config, load_notes(config.notes_path)))
    served = Store.open(root / "docs").get(LIBRARY, key, Enriched)
    assert served is not None and served == Store.open(clean / "docs").get(LIBRARY, key, Enriched)
    untouched = [
        rel for rel in times if rel.startswith("papers/") and times[rel] == (root / "docs" / rel).stat().st_mtime_ns
    ]
    assert untouched  # pages that show nothing of the new paper are not written


def test_a_damaged_memo_is_an_empty_one(tmp_path: Path, seed_bib_text: str) -> None:
    root = _project(tmp_path / "seeds", seed_bib_text)
    generate.run(load_config(root))
    path, key = root / "docs" / FILE, render_key(load_config(root))
    assert Store.open(root / "docs").get(RENDER, key, dict)
    data = bytearray(path.read_bytes())
    payload = Store.open(root / "docs").entries[RENDER][2]
    data[data.find(payload) + len(payload) // 2] ^= 0xFF  # a flipped bit in the memo's bytes
    path.write_bytes(bytes(data))
    assert Store.open(root / "docs").get(RENDER, key, dict) is None


def test_only_text_the_last_pass_would_leave_as_it_is_is_served_as_clean(tmp_path: Path) -> None:
    """site_pages skips the character policy's last pass (chars.strip_unsafe) for the texts the
    memo served: a unit whose render that pass changed differs from its file, so it is rendered
    again (and cleaned), never served."""
    from readinglist.chars import strip_unsafe

    units = {"dirty": {"dirty.md": "a bell\x07 rings"}, "clean": {"clean.md": "no bell"}}
    with memo.kept({}, tmp_path) as first:
        for name, files in units.items():
            for rel, text in first.unit(name, "k", partial(dict, files)).items():
                (tmp_path / rel).write_text(strip_unsafe(text), encoding="utf-8")  # as generate writes it
    with memo.kept(first.made, tmp_path) as second:
        served = {
            rel: text
            for name, files in units.items()
            for rel, text in second.unit(name, "k", partial(dict, files)).items()
        }
    assert second.rendered == ["dirty"]
    assert second.clean == {"clean.md": "no bell"}
    assert all(strip_unsafe(text) == text for text in second.clean.values())
    assert served["dirty.md"] == "a bell\x07 rings"  # rendered: site_pages' pass cleans it
