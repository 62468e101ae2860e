"""Links between generated pages, and small text helpers shared by the page renderers."""

from __future__ import annotations

import json

from ..latex import to_text
from ..model import Paper
from .escape import Md, clean, md_text

PAPERS, TOPICS, AUTHORS = "papers", "topics", "authors"
UNTITLED = "Untitled record"


def paper_link(paper: Paper, here: str) -> Md:
    """A link to a paper page from the page at ``here`` (a docs-relative path)."""
    up = "../" * here.count("/")  # generated pages sit at most one folder deep
    return Md(f"[{md_text(display_title(paper))}]({up}{PAPERS}/{paper.slug}.md)")


def display_title(paper: Paper) -> str:
    """The title as text; a title with no visible character would leave a page without a name."""
    return clean(to_text(paper.work.title)) or UNTITLED


def one_line(text: str, words: int = 30) -> str:
    parts = clean(text).split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def json_string(value: str) -> Md:
    """A YAML-safe scalar (JSON strings are YAML) for front matter."""
    return Md(json.dumps(clean(value), ensure_ascii=False))


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
