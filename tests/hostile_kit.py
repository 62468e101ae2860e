"""Hostile input that several test modules share: markup fragments, MyST's own renderer, and
whole projects built from given records (test modules never import each other: see test_independent.py).
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
from pathlib import Path

from docutils import nodes
from docutils.core import publish_doctree
from myst_parser.parsers.docutils_ import Parser
from sphinx.cmd.build import build_main

from conftest import SEEDS
from readinglist.model import RawRecord, SourceRef
from readinglist.site.search import BUNDLE
from readinglist.site.shards import PAPER_BUNDLES
from readinglist.store import bibfile
from readinglist.store.bibfile import BibFile
from readinglist.store.records import to_work

# Markup that must stay text wherever a record's text lands (MyST, HTML, LaTeX and YAML syntax).
FRAGMENTS = [
    "<script>alert(1)</script>", "[x](javascript:alert(1))", "{raw}`<b>x</b>`", "{download}`x.txt`",
    "{ref}`a <b>`", "$x$", "$$", "$$\nx\n$$", "`", "``", "```", "~~~", "\n#", "\n# ", "#", "\n>", "> ",
    "\n-", "- ", "\n1.", "1. ", "\n|", "|a|b|\n|-|-|", "(label)=", "\n---", "---", "{{ sub }}", "\\", "\\\\",
    ":::", ":::{note}\nx\n:::", "*", "**", "_", "&amp;", "&#60;", "<", ">", "<https://x.org>", "http://x.org",
    "[^1]", "[x]: http://y", "![i](x.png)", "\t", "    ", "\r\n", "\n\n", "\x00", "\x1b[31m", "\u202e",
    "\u00a0", "\u2028", "%", "+", "=", "!", "```{eval-rst}\n.. raw:: html\n\n   <b>\n```", "<!-- c -->",
    ".. raw:: html", "{#id}", "++", "+++", "\\n",
]  # fmt: skip


# Years as people and reference managers type them (issue 26): only a plausible one is a year.
HOSTILE_YEARS = [
    "²⁰²⁰",
    "6",
    "99999",
    "2020a",
    "MMXX",
    "٢٠٢٠",
    "0",
    "1399",
    "20201",
    " 2021 ",
    "n.d.",
    "forthcoming",
    "",
]


def render(markdown: str) -> tuple[nodes.document, str]:
    warnings = io.StringIO()
    doc = publish_doctree(
        markdown,
        parser=Parser(),
        settings_overrides={"myst_enable_extensions": ["colon_fence", "dollarmath"], "warning_stream": warnings},
    )
    return doc, warnings.getvalue()


def records_project(tmp: Path, records: list[RawRecord]) -> Path:
    """A reading-list project whose refs.bib holds ``records`` as `readinglist import` stores them."""
    (tmp / "conf").mkdir(parents=True)
    shutil.copy(SEEDS / "conf" / "topics.toml", tmp / "conf" / "topics.toml")
    (tmp / "conf" / "readinglist.toml").write_text('[site]\ntitle = "Hostile"\n', encoding="utf-8")
    (tmp / "docs").mkdir()
    shutil.copy(SEEDS / "docs" / "conf.py", tmp / "docs" / "conf.py")
    for page in ("guide.md",):
        shutil.copy(SEEDS / "docs" / page, tmp / "docs" / page)
    shutil.copytree(SEEDS / "docs" / "develop", tmp / "docs" / "develop")
    entries = []
    for n, record in enumerate(records):
        work = to_work(record)
        entries.append((f"hostile{n}", bibfile.work_to_entry(work)))
    (tmp / "refs.bib").write_text(BibFile(tmp / "refs.bib").to_bibtex({}, entries), encoding="utf-8")
    return tmp


def sphinx_build(root: Path) -> tuple[int, str, Path]:
    """``sphinx-build -n -W --keep-going`` of ``root``/docs: (exit status, warnings, HTML folder)."""
    out = root / "html"
    warnings = root / "warnings.txt"
    status = build_main(
        ["-b", "html", "-n", "-W", "--keep-going", "-q", "-w", str(warnings), str(root / "docs"), str(out)]
    )
    return status, warnings.read_text(encoding="utf-8"), out


def dump_record(n: int, title: str, abstract: str, author: str) -> RawRecord:
    """The ``n``-th record of a profile dump, as a reader returns it."""
    # A year of its own: entries with one title and year are one work, shown on one page (site/pasted.py).
    source = SourceRef("conf/sources/hostile.txt", n + 1, "Owner")
    return RawRecord(source, title, (author,), True, 2000 + n, abstract, ())


def retitle(root: Path, n: int, title: str) -> None:
    """A hand edit of refs.bib: the title of "Paper ``n`` …" becomes ``title``."""
    bib = root / "refs.bib"
    text = bib.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("  title = {") and f"Paper {n} " in line)
    bib.write_text(text.replace(old, f"  title = {{{title}}},"), encoding="utf-8")


def indexed_titles(out: Path) -> set[str]:
    """The page titles in Pagefind's index, every shard (each fragment is gzipped JSON after a signature)."""
    titles = set()
    for fragment in [*(out / BUNDLE).glob("fragment/*.pf_fragment"), *(out / PAPER_BUNDLES).glob("*/fragment/*")]:
        data = gzip.decompress(fragment.read_bytes())
        titles.add(json.loads(data[data.index(b"{") :])["meta"]["title"])
    return titles
