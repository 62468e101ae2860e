"""The user's topic taxonomy (``conf/topics.toml``), validated on load.

A topic id names a generated page, ``docs/topics/<id>.md``, and its label ``topic-<id>``: it
must be a slug (lowercase ASCII letters and digits in hyphen-separated words) that names no
other page the generator writes in ``topics/`` (``render/pages.py``), and unique.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config import read_toml
from ..errors import ReadingListError

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID = 64
# Pages render/pages.py writes into topics/ besides one per topic: an id equal to one would overwrite it.
RESERVED_IDS = frozenset({"index"})
_HEADER = re.compile(r"^\s*\[\[\s*topic\s*\]\]")
_ID_LINE = re.compile(r"^\s*id\s*=")


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    description: str
    categories: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def matches_category(self, category: str) -> bool:
        return any(
            category == pattern or (pattern.endswith(".*") and category.startswith(pattern[:-1]))
            for pattern in self.categories
        )


def load_taxonomy(path: Path) -> tuple[Topic, ...]:
    if not path.exists():
        raise ReadingListError("topic taxonomy not found", path)
    data = read_toml(path)
    raw_topics = data.get("topic", [])
    if not isinstance(raw_topics, list) or not raw_topics:
        raise ReadingListError("the taxonomy defines no [[topic]]", path)
    lines = _id_lines(path.read_text(encoding="utf-8"), len(raw_topics))
    topics = tuple(_topic(raw, path, i, lines[i - 1]) for i, raw in enumerate(raw_topics, 1))
    first: dict[str, int | None] = {}
    for topic, line in zip(topics, lines, strict=True):
        if topic.id in first:
            where = f" (first at line {first[topic.id]})" if first[topic.id] else ""
            raise ReadingListError(f"duplicate topic id {topic.id!r}{where}", path, line)
        first[topic.id] = line
    return topics


def _id_lines(text: str, count: int) -> list[int | None]:
    """The line of each ``[[topic]]``'s ``id =`` (its header's when it has none); None when not found."""
    found: list[int | None] = []
    for number, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            found.append(number)
        elif found and _ID_LINE.match(line):
            found[-1] = number
    return found if len(found) == count else [None] * count  # an inline array of tables, say


def _topic(raw: object, path: Path, index: int, line: int | None) -> Topic:
    if not isinstance(raw, dict):
        raise ReadingListError(f"topic #{index} must be a table ([[topic]] with key = value lines)", path, line)
    for name in ("id", "title"):
        if name not in raw:
            raise ReadingListError(f"topic #{index} lacks the {name!r} field", path, line)
    topic = Topic(
        id=_string(raw, "id", path, line),
        title=_string(raw, "title", path, line),
        description=_string(raw, "description", path, line),
        categories=_strings(raw, "categories", path, line),
        keywords=tuple(k.lower() for k in _strings(raw, "keywords", path, line)),
    )
    _check_id(topic.id, path, line)
    return topic


def _string(raw: dict[str, object], name: str, path: Path, line: int | None) -> str:
    value = raw.get(name, "")
    if not isinstance(value, str):
        raise ReadingListError(f"topic field {name!r} must be a string, not {type(value).__name__}", path, line)
    return value


def _strings(raw: dict[str, object], name: str, path: Path, line: int | None) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ReadingListError(f"topic field {name!r} must be a list of strings", path, line)
    return tuple(value)


def _check_id(topic_id: str, path: Path, line: int | None) -> None:
    if not ID.match(topic_id) or len(topic_id) > MAX_ID:
        raise ReadingListError(
            f"topic id {topic_id!r} must be lowercase ASCII letters and digits in words joined by single "
            f"hyphens, at most {MAX_ID} characters",
            path,
            line,
        )
    if topic_id in RESERVED_IDS:
        raise ReadingListError(
            f"topic id {topic_id!r} is reserved: the generator writes topics/{topic_id}.md", path, line
        )
