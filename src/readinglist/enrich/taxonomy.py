"""The user's topic taxonomy (``conf/topics.toml``), validated on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import ReadingListError


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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReadingListError("topic taxonomy not found", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise ReadingListError(f"invalid TOML: {exc}", path) from None
    topics = tuple(_topic(raw, path, i) for i, raw in enumerate(data.get("topic", []), 1))
    if not topics:
        raise ReadingListError("the taxonomy defines no [[topic]]", path)
    ids = [t.id for t in topics]
    if len(set(ids)) != len(ids):
        raise ReadingListError(f"duplicate topic id in {ids}", path)
    return topics


def _topic(raw: dict[str, object], path: Path, index: int) -> Topic:
    try:
        topic = Topic(
            id=str(raw["id"]),
            title=str(raw["title"]),
            description=str(raw.get("description", "")),
            categories=tuple(str(c) for c in raw.get("categories", []) or []),  # type: ignore[attr-defined]
            keywords=tuple(str(k).lower() for k in raw.get("keywords", []) or []),  # type: ignore[attr-defined]
        )
    except KeyError as exc:
        raise ReadingListError(f"topic #{index} lacks the {exc.args[0]!r} field", path) from None
    if not topic.id.replace("-", "").isalnum() or not topic.id.islower():
        raise ReadingListError(f"topic id {topic.id!r} must be lowercase letters, digits and hyphens", path)
    return topic
