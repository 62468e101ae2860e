"""Per-work enrichment results kept between generates (enrich/recall.py): served only for the
same function and arguments, and the library made with them is the library made without."""

from __future__ import annotations

from pathlib import Path

from conftest import copy_seeds
from readinglist.config import load_config
from readinglist.enrich.recall import Recall
from readinglist.render.notes import load_notes
from readinglist.site import assemble, libcache


def test_a_result_is_served_for_the_same_call_only() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    first = Recall()
    assert first("upper", upper, "a") == "A" and first("upper", upper, "a") == "A"
    second = Recall(first.used)
    assert second("upper", upper, "a") == "A" and second("upper", upper, "b") == "B"
    assert second("other", upper, "a") == "A"  # another function's result is not this one's
    assert calls == ["a", "b", "a"]
    assert [name for name, _ in second.used] == ["upper", "upper", "other"]  # only what was asked


def test_the_taxonomy_is_no_part_of_the_key() -> None:
    recall = Recall()
    assert recall("join", lambda a, b: a + b, "x", also=("y",)) == "xy"
    assert recall("join", lambda a, b: a + b, "x", also=("z",)) == "xy"  # served: "z" is not looked at


def test_a_library_enriched_from_recalled_results_is_the_same(tmp_path: Path, seed_bib_text: str) -> None:
    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    config = load_config(root)
    notes = load_notes(config.notes_path)
    first = Recall()
    built = assemble.enrich_store(config, notes, first)
    assert {name for name, _ in first.used} == {"title", "topics", "subtopics", "results", "tldr", "brief"}
    served = Recall(first.used)
    assert assemble.enrich_store(config, notes, served).library == built.library
    assert served.used == first.used


def test_generate_keeps_them_under_the_taxonomy_and_the_code(tmp_path: Path, seed_bib_text: str) -> None:
    root = copy_seeds(tmp_path / "seeds", refs=False)
    (root / "refs.bib").write_text(seed_bib_text, encoding="utf-8")
    config = load_config(root)
    assemble.enrichment(config, load_notes(config.notes_path))
    assert libcache.load_recall(config)
    config.taxonomy_path.write_text(config.taxonomy_path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert libcache.load_recall(config) == {}
