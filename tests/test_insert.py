"""A record inserted above others in a dump (listings are newest first) is added, not lost."""

from __future__ import annotations

from pathlib import Path

from readinglist.store import bibfile, importer

HEADER = "arXiv subjects\n\nAda Owner\n\nPublications and source records attributed to Ada Owner.\n\n"
ABSTRACT = "We propose {name}, a system for {topic} that improves throughput by {n}x on many large clusters today."


def _block(year: int, name: str, topic: str, n: int) -> str:
    abstract = ABSTRACT.format(name=name, topic=topic, n=n)
    return f"arXiv{year}\n\n{name}: A System for {topic.title()}\n\n{abstract}\n\ncs.DC↗\n\n"


def test_inserted_record_is_added_and_the_others_stay(tmp_path: Path) -> None:
    dump, bib = tmp_path / "owner.txt", tmp_path / "refs.bib"
    old = [_block(2020, "Alpha", "graph storage", 2), _block(2019, "Beta", "pipeline training", 3)]
    dump.write_text(HEADER + "".join(old), encoding="utf-8")
    importer.run([dump], bib, tmp_path)
    dump.write_text(HEADER + _block(2021, "Gamma", "kernel fusion", 5) + "".join(old), encoding="utf-8")
    report = importer.run([dump], bib, tmp_path)
    assert (report.added, report.merged, report.unchanged) == (1, 0, 2)
    titles = sorted(w.title for w in bibfile.load(bib).works())
    assert titles == ["Alpha: A System for Graph Storage", "Beta: A System for Pipeline Training",
                      "Gamma: A System for Kernel Fusion"]  # fmt: skip
    lines = sorted(s.line for w in bibfile.load(bib).works() for s in w.sources)
    assert lines == [7, 15, 23]  # header on lines 1-6, then 8 lines a record: provenance follows the moves
