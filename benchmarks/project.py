"""The benchmark's project folder: dumps, this repository's conf/ and docs/ skeleton, notes."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from synthetic import Corpus, extra_listing_record, slug, write_dumps

REPO = Path(__file__).resolve().parent.parent
# Hand-written pages copied from this repository, so the site has its real shape.
# The guide and the develop/ pages link one another and show images from docs/_static/.
COPIED = ("conf/topics.toml", "docs/conf.py", "docs/guide.md", "docs/develop", "docs/_static")
SETTINGS = """[site]
title = "Synthetic reading list ({n} works)"
description = "A generated reading list for benchmarking readinglist."
sources = ["conf/sources/*.txt"]
"""
NOTE = """---
status: read
tags: [benchmark, synthetic]
---
A note on this paper, written by hand. It has a list:

- what the paper does well;
- what to try next.
"""


def write_project(root: Path, corpus: Corpus, settings: Sequence[str] = ()) -> list[Path]:
    """Lay out a project at ``root`` (dumps, settings and ``settings`` lines, copied pages); return the dumps."""
    for rel in COPIED:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        if (REPO / rel).is_dir():
            shutil.copytree(REPO / rel, root / rel, dirs_exist_ok=True)
        elif (REPO / rel).exists():  # docs/_static/ only once there is something to show
            shutil.copyfile(REPO / rel, root / rel)
    text = SETTINGS.format(n=len(corpus.works)) + "".join(f"{line}\n" for line in settings)
    (root / "conf" / "readinglist.toml").write_text(text, encoding="utf-8")
    return write_dumps(corpus, root / "conf" / "sources")


def write_notes(root: Path, count: int = 5) -> list[Path]:
    """Notes for ``count`` papers spread over the list (needs refs.bib: notes are named by key)."""
    from readinglist.slugs import slugs
    from readinglist.store import bibfile

    keys = sorted(bibfile.load(root / "refs.bib").entries)
    names = slugs(keys)
    folder = root / "docs" / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{names[keys[i * len(keys) // count]]}.md" for i in range(count)]
    for path in paths:
        path.write_text(NOTE, encoding="utf-8")
    return paths


def edit_note(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write("\nA second thought, added later: compare with the previous version.\n")


def change_status(path: Path) -> None:
    """A front-matter edit: the note's status moves from read to reading (the queue, tag and topic lists show it)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("status: read\n", "status: reading\n", 1), encoding="utf-8")


def new_note(root: Path, taken: Sequence[Path]) -> Path:
    """A note for a paper that had none: to read, with a tag (the queue and a tag page list it)."""
    path = new_note_path(root, taken)
    path.write_text(NEW_NOTE, encoding="utf-8")
    return path


NEW_NOTE = NOTE.replace("status: read", "status: to-read").replace("benchmark, ", "")


def new_note_path(root: Path, taken: Sequence[Path]) -> Path:
    """Where :func:`new_note` writes: a paper a third into the list with no note in ``taken``."""
    from readinglist.slugs import slugs
    from readinglist.store import bibfile

    names = slugs(sorted(bibfile.load(root / "refs.bib").entries))
    used = {p.stem for p in taken}
    name = next(n for _, n in sorted(names.items())[len(names) // 3 :] if n not in used)
    return root / "docs" / "notes" / f"{name}.md"


def add_paper(root: Path, corpus: Corpus) -> Path:
    """Append one record to the first profile's listing (at the end, so no other line moves)."""
    dump = root / "conf" / "sources" / f"{slug(corpus.owners[0])}-arxiv.txt"
    with open(dump, "a", encoding="utf-8") as f:
        f.write(extra_listing_record(corpus))
    return dump
