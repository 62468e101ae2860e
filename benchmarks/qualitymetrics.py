"""The quality benchmark's figures over a list of works (benchmarks/quality.py reads them in).

Each figure is a count over what the site shows (records.json, docs/related/*.json) against
what the records carry (their venue, DBLP key, DOI prefix or arXiv id), never against the
tool's own guesses. Shares are ``{"n": …, "of": …}`` so a report can show both.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundtruth import group

if TYPE_CHECKING:
    from quality import Item

# The fields the "ML, robotics and PL/logic" library is made of.
CS_FIELDS = frozenset("cs.LG stat.ML cs.AI cs.NE cs.CV cs.CL cs.RO cs.PL cs.LO".split())
AUTHOR_LINKS = 3  # shared-author links a page may list (issue 25)
SUMMARY_FIELDS = ("tldr", "problem", "approach", "result")
# A verb inflected twice by hand: "Examineds", "Introduceds"; not the words that end so ("needs",
# "speeds", "hundreds", "embeds").
EDS = re.compile(r"\b[A-Za-z]+eds\b")
REAL_EDS = frozenset("hundreds shreds embeds imbeds beds sheds reds".split())
CUT = ("…", "...")
THIS = r"this (?:\w+ )?(?:paper|work|study|article|thesis|report|note|chapter|research|letter|survey|review)"
CUE = re.compile(rf"\b(?:we|our|us|{THIS}|here|the authors)\b", re.I)
TERMS = re.compile(r"shared terms: ([^)]*)\)")
TOKEN = re.compile(r"[^\W_]+")


def share(n: int, of: int) -> dict[str, int]:
    return {"n": n, "of": of}


def general_topic(topics_toml: Path) -> str:
    """The topic unclaimed works land in: the one named General, else the first (conf/topics.toml)."""
    topics = tomllib.loads(topics_toml.read_text(encoding="utf-8")).get("topic", [])
    named = [t["id"] for t in topics if t.get("id") == "general" or t.get("title") == "General"]
    return named[0] if named else topics[0]["id"] if topics else "general"


def figures(items: list[Item], top_k: int, general: str) -> dict[str, Any]:
    return {
        "works": len(items),
        "categories": categories(items),
        "topics": topics(items, general),
        "related": related(items, top_k),
        "summaries": summaries(items),
    }


def categories(items: list[Item]) -> dict[str, Any]:
    shown = [i for i in items if i.record.get("categories")]
    known = [i for i in items if i.truth]
    judged = [i for i in known if i.record.get("categories")]
    wrong = [i for i in judged if not agrees(i)]
    subset = [i for i in items if CS_FIELDS & {*(i.truth.categories if i.truth else ()), *i.declared}]
    outside = [i for i in subset if any(c.split(".")[0] not in ("cs", "stat") for c in i.record.get("categories", []))]
    return {
        "categorized": share(len(shown), len(items)),
        "inferred": share(sum(bool(i.record.get("categories_inferred")) for i in shown), len(shown)),
        "with_truth": share(len(known), len(items)),
        "truth_signals": dict(Counter(i.truth.signal for i in known)),  # type: ignore[union-attr]
        "abstained_with_truth": share(len(known) - len(judged), len(known)),
        "contradicts_venue": share(len(wrong), len(known)),
        "ml_robotics_pl_outside_cs_stat": share(len(outside), len(subset)),
        # An ML library cites Mathematical Programming: math.OC there is its venue's field, not a guess.
        "outside_their_venues_field": share(sum(bool(i.truth) and agrees(i) for i in outside), len(outside)),
        "outside_cs_stat_by_file": by_file(items),
        "examples": [example(i) for i in wrong[:10]],
        "outside_examples": [example(i) for i in outside[:20]],
    }


def agrees(item: Item) -> bool:
    """Whether a shown category shares the field (computing, physics, math, …) of the record's venue."""
    truth = {group(c) for c in item.truth.categories} if item.truth else set()
    return bool(truth & {group(c) for c in item.record.get("categories", [])})


def example(item: Item) -> dict[str, Any]:
    r, truth = item.record, item.truth
    return {
        "key": r["key"], "title": r.get("title", ""), "categories": r.get("categories"),
        "evidence": r.get("category_evidence", ""), "truth": list(truth.categories) if truth else [],
        "signal": truth.signal if truth else "",
    }  # fmt: skip


def by_file(items: list[Item]) -> dict[str, dict[str, int]]:
    """Per source file (of each work's first source): works shown a category outside cs and stat."""
    counts: dict[str, dict[str, int]] = {}
    for item in items:
        entry = counts.setdefault(item.source.rsplit(":", 1)[0], share(0, 0))
        entry["of"] += 1
        entry["n"] += any(c.split(".")[0] not in ("cs", "stat") for c in item.record.get("categories", []))
    return counts


def topics(items: list[Item], general: str) -> dict[str, Any]:
    counts = Counter(t for i in items for t in set(i.record.get("topics", [])))
    largest, size = counts.most_common(1)[0] if counts else ("", 0)
    return {
        "largest": largest,
        "largest_share": share(size, len(items)),
        "general": general,
        "general_share": share(counts.get(general, 0), len(items)),
        "sizes": dict(counts.most_common()),
    }


def link_kind(reason: str) -> str:
    """version, author (shared authors, whatever else), content (similar content only), or other."""
    if reason.startswith("another version"):
        return "version"
    return "author" if "shared author" in reason else "content" if "similar content" in reason else "other"


def shared_words(reason: str) -> set[str]:
    """The distinct words of a content link's shared terms ("pipeline, pipeline parallelism": two;
    "lattice, lattices": one, a plural being its word)."""
    found = TERMS.search(reason)
    words = TOKEN.findall(found.group(1).lower()) if found else []
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def one_phrase(reason: str) -> bool:
    """Whether a content link's shared terms are one phrase and its words ("computer, computer
    vision, vision"): two words, but one thing shared."""
    found = TERMS.search(reason)
    terms = [shared_words(f"shared terms: {t})") for t in found.group(1).split(", ")] if found else []
    return any(term == shared_words(reason) for term in terms)


def related(items: list[Item], top_k: int) -> dict[str, Any]:
    kinds = [[link_kind(link.get("reason", "")) for link in i.related] for i in items]
    links = [link for i in items for link in i.related]
    reasons = [link["reason"] for link in links]
    one = [link for link in links if link_kind(link["reason"]) == "content" and len(shared_words(link["reason"])) <= 1]
    content, author = [k.count("content") for k in kinds], [k.count("author") for k in kinds]
    return {
        "links": len(links),
        "one_word": share(len(one), len(links)),
        "one_word_examples": [link["reason"] for link in one[:5]],
        "one_phrase": share(sum(link_kind(r) == "content" and one_phrase(r) for r in reasons), len(links)),
        "max_content": max(content, default=0),
        "max_author": max(author, default=0),
        "pages_over_top_k": share(sum(c > top_k for c in content), len(items)),
        "pages_over_author_cap": share(sum(a > AUTHOR_LINKS for a in author), len(items)),
        "top_k": top_k,
    }


def summary_lines(item: Item) -> list[tuple[str, str]]:
    r = item.record
    lines = [(name, str(r.get(name) or "")) for name in SUMMARY_FIELDS]
    lines += [("key_result", str(line)) for line in r.get("key_results") or []]
    return [(name, text.strip()) for name, text in lines if text.strip()]


def summaries(items: list[Item]) -> dict[str, Any]:
    lines = [(item, name, text) for item in items for name, text in summary_lines(item)]
    garbled = [text for _, _, text in lines if is_garbled(text)]
    cut = [text for _, _, text in lines if text.endswith(CUT)]
    approach = [(item, text) for item, name, text in lines if name == "approach"]
    uncued = [text for item, text in approach if not cued(text, item.fields.get("abstract", ""))]
    return {
        "with_abstract": share(sum(bool(i.fields.get("abstract")) for i in items), len(items)),
        "lines": len(lines),
        "garbled": share(len(garbled), len(lines)),
        "cut": share(len(cut), len(lines)),
        "approach_without_cue": share(len(uncued), len(approach)),
        "examples": {"garbled": garbled[:5], "cut": cut[:5], "approach_without_cue": uncued[:5]},
    }


def is_garbled(text: str) -> bool:
    words = (w.lower() for w in EDS.findall(text))
    return any(not w.endswith("eeds") and w not in REAL_EDS for w in words)


def cued(line: str, abstract: str) -> bool:
    """Whether an Approach line, or the abstract's sentence it was taken from, says "we", "this paper", …

    The line drops the sentence's subject ("We propose X" shows "X", or once "Proposes X"): the
    sentence is found by the line's first words (or the words after its first), and its
    beginning, back to the previous full stop, is read too."""
    if CUE.search(line):
        return True
    said, text = line.rstrip("….").split(), " ".join(abstract.split())
    for start in (" ".join(said[:6]).lower(), " ".join(said[1:7]).lower()):
        at = text.lower().find(start) if start else -1
        if at >= 0:
            begin = max(text.rfind(". ", 0, at), text.rfind("? ", 0, at), text.rfind("! ", 0, at))
            return bool(CUE.search(text[begin + 1 : at]))
    return False


ROWS = (
    ("works", ("works",)),
    ("categorized (shown any category)", ("categories", "categorized")),
    ("  of them inferred", ("categories", "inferred")),
    ("works whose record names a field", ("categories", "with_truth")),
    ("  left uncategorized (abstained)", ("categories", "abstained_with_truth")),
    ("  category contradicts the venue's field", ("categories", "contradicts_venue")),
    ("ML/robotics/PL works (venue or fields.toml) outside cs/stat", ("categories", "ml_robotics_pl_outside_cs_stat")),
    ("  of them, in their own venue's field", ("categories", "outside_their_venues_field")),
    ("largest topic", ("topics", "largest_share")),
    ('"General"', ("topics", "general_share")),
    ("largest topic, suggested topics", ("topics_suggested", "largest_share")),
    ('"General", suggested topics', ("topics_suggested", "general_share")),
    ("related links", ("related", "links")),
    ("  on one shared word", ("related", "one_word")),
    ("  on one shared phrase and its words", ("related", "one_phrase")),
    ("max content links a page", ("related", "max_content")),
    ("max shared-author links a page", ("related", "max_author")),
    ("pages over related_top_k content links", ("related", "pages_over_top_k")),
    ("pages over 3 shared-author links", ("related", "pages_over_author_cap")),
    ("works with an abstract", ("summaries", "with_abstract")),
    ("summary lines", ("summaries", "lines")),
    ("  garbled inflection", ("summaries", "garbled")),
    ('  cut with "…"', ("summaries", "cut")),
    ("Approach lines without a this-paper cue", ("summaries", "approach_without_cue")),
)


def cell(value: Any) -> str:
    if isinstance(value, dict):
        n, of = value["n"], value["of"]
        return f"{100 * n / of:.1f}% ({n:,}/{of:,})" if of else "– (0/0)"
    return f"{value:,}"


def figure(results: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = results
    for step in path:
        node = node.get(step) if isinstance(node, dict) else None
    return node


def report(header: dict[str, Any], results: dict[str, dict[str, Any]]) -> str:
    """The header, then one markdown row a figure: tuning part, held-out third, all works."""
    lines = [f"{name}: {value}" for name, value in header.items() if value not in ([], "")]
    lines += ["", "| figure | tuning | held-out third | all |", "| --- | ---: | ---: | ---: |"]
    for label, path in ROWS:
        values = [figure(results[part], path) for part in ("tuning", "held_out", "all")]
        if values[-1] is not None:  # the suggested topics: only when readinglist could suggest them
            lines.append(f"| {label} | " + " | ".join(map(cell, values)) + " |")
    largest = results["all"]["topics"]["largest"]
    lines.append(f"\nlargest topic (all works): {largest}; general topic: {results['all']['topics']['general']}")
    files = results["all"]["categories"]["outside_cs_stat_by_file"].items()
    lines += ["works shown a category outside cs and stat, by file (files of 10 works or more):"]
    lines += [f"  {name}: {cell(count)}" for name, count in sorted(files) if count["of"] >= 10]
    return "\n".join(lines)
