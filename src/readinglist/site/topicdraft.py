"""``readinglist topics --suggest``: a draft of conf/topics.toml made from the library's own works.

The draft is the user's to edit: it goes to ``conf/topics.suggested.toml`` (or stdout), never
over conf/topics.toml, and an earlier draft is kept unless ``force`` (it may hold their edits).
It has the schema enrich/taxonomy.py loads, so copying it over conf/topics.toml is all it takes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from ..config import Config
from ..enrich.suggest import Suggestion, suggest
from ..errors import Code, ReadingListError
from ..model import Topic, Work
from ..store import bibfile
from ..writer import write_if_changed

DRAFT = "conf/topics.suggested.toml"
HEADER = """\
# Topics suggested by `readinglist topics --suggest` from the {n} works of refs.bib.
# A draft: edit the titles, descriptions and keywords, then copy it over conf/topics.toml.
# A paper joins the topic whose keywords its title, abstract or keywords name most (a keyword
# in its title or keywords places it even beside a category); one no keyword places joins the
# first topic, General. Add `categories = ["cs.LG"]` to a topic to place papers by category too.
"""


@dataclass(frozen=True)
class Drafted:
    text: str
    path: Path | None  # None: printed
    suggestion: Suggestion

    def lines(self) -> list[str]:
        if self.path is None:
            return [self.text.rstrip("\n")]
        sizes = ", ".join(
            f"{t.id} ({n})" for t, n in zip(self.suggestion.topics[1:], self.suggestion.cluster_sizes, strict=True)
        )
        return [f"wrote {self.path}: {len(self.suggestion.topics) - 1} topics and General: {sizes}",
                "edit it, then copy it over conf/topics.toml and run readinglist generate"]  # fmt: skip


def hint(config: Config) -> str | None:
    """A line for ``import`` to print while conf/topics.toml is still the one ``init`` wrote:
    its topics were not made for the works just imported."""
    default = files("readinglist").joinpath("scaffold/conf/topics.toml.tmpl").read_text(encoding="utf-8")
    path = config.taxonomy_path
    if not path.is_file() or path.read_text(encoding="utf-8", errors="replace") != default:
        return None
    return "next: readinglist topics --suggest drafts topics that fit these works (conf/topics.toml is init's)"


def run(config: Config, to_stdout: bool = False, force: bool = False) -> Drafted:
    """Suggest topics for refs.bib's works and write (or return, to print) the draft."""
    target = config.root / DRAFT
    if not to_stdout and target.exists() and not force:
        raise ReadingListError(
            "a draft is already there (it may hold your edits): use --force to replace it, or --print",
            target,
            code=Code.NOT_OWNED,
        )
    works = _works(config)
    suggestion = suggest(works)
    text = draft_text(suggestion.topics, len(works))
    if to_stdout:
        return Drafted(text, None, suggestion)
    write_if_changed(target, text)
    return Drafted(text, target, suggestion)


def _works(config: Config) -> list[Work]:
    if not config.bib_path.exists():
        raise ReadingListError("no store to suggest topics from: import first", config.bib_path, code=Code.MISSING_FILE)
    works = bibfile.load(config.bib_path, tolerant=True).works()
    if not works:
        raise ReadingListError(
            "the store holds no works to suggest topics from", config.bib_path, code=Code.EMPTY_STORE
        )
    return works


def draft_text(topics: tuple[Topic, ...], n: int) -> str:
    return HEADER.format(n=n) + "".join(_table(t) for t in topics)


def _table(topic: Topic) -> str:
    lines = ["", "[[topic]]", f"id = {_string(topic.id)}", f"title = {_string(topic.title)}"]
    lines.append(f"description = {_string(topic.description)}")
    if topic.keywords:
        lines.append(f"keywords = [{', '.join(map(_string, topic.keywords))}]")
    return "\n".join(lines) + "\n"


def _string(value: str) -> str:
    """A TOML basic string: JSON's escapes (\\", \\\\, \\n, \\uXXXX) are TOML's too."""
    return json.dumps(value, ensure_ascii=False)
