"""Links and summaries picked at random from the held-out third, to judge by hand (issue 25):
``python benchmarks/bench.py --quality --sample FILE`` writes them as a Markdown checklist."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from qualitymetrics import summary_lines

if TYPE_CHECKING:
    from quality import Item

SEED = 25  # the number: the same corpus gives the same picks, run after run


def sample(items: list[Item], links: int = 30, summaries: int = 20, seed: int = SEED) -> str:
    """``links`` related links and ``summaries`` works' summary lines, each with what a judge needs."""
    rng = random.Random(seed)
    pairs = sorted(
        (str(item.record.get("title") or item.record["key"]), str(link.get("title") or link.get("doc")), link["reason"])
        for item in items
        for link in item.related
    )  # a page's related data names each link by its page and title (docs/related/<slug>.json)
    summarized = sorted((i for i in items if summary_lines(i)), key=lambda i: str(i.record["key"]))
    out = [f"# Held-out sample (seed {seed})", "", f"## {min(links, len(pairs))} related links", ""]
    for title, other, reason in rng.sample(pairs, min(links, len(pairs))):
        out.append(f"- [ ] good / weak / wrong: {title} → {other} ({reason})")
    out += ["", f"## {min(summaries, len(summarized))} summaries", ""]
    for item in rng.sample(summarized, min(summaries, len(summarized))):
        out += [
            f"### {item.record.get('title', item.record['key'])}",
            "",
            f"Abstract: {item.fields.get('abstract', '')}",
            "",
        ]
        out += [f"- [ ] right / background / wrong / garbled: **{name}**: {text}" for name, text in summary_lines(item)]
        out.append("")
    return "\n".join(out)
