"""The user's topic taxonomy (``conf/topics.toml``), validated on load.

A topic id names a generated page, ``docs/topics/<id>.md``, and its label ``topic-<id>``: it
must be a slug (lowercase ASCII letters and digits in hyphen-separated words) that names no
other page the generator writes in ``topics/`` (``render/pages.py``), and unique.

A topic may have subtopics, ``[[topic.sub]]`` tables under its ``[[topic]]``, with the same
fields. Each names a page ``docs/topics/<topic>/<sub>.md``, so its id is a slug unique within
its topic; subtopics do not nest. A subtopic places only its topic's papers, and only those
its categories or keywords select (a paper may be in none: the topic page lists it apart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import Code, ReadingListError
from ..model import Topic
from ..tomlfile import read_toml

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID = 64
# Pages render/pages.py writes into topics/ besides one per topic: an id equal to one would overwrite it.
RESERVED_IDS = frozenset({"index"})
FIELDS = ("id", "title", "description", "categories", "keywords")
SUB = "sub"  # the key of a topic's subtopics: [[topic.sub]]
_HEADER = re.compile(r"^\s*\[\[\s*topic\s*\]\]")
_SUB_HEADER = re.compile(rf"^\s*\[\[\s*topic\s*\.\s*{SUB}\s*\]\]")
_ID_LINE = re.compile(r"^\s*id\s*=")


@dataclass
class _Lines:
    """Where one ``[[topic]]`` is: its ``id =`` line (else its header's), and each subtopic's."""

    line: int
    subs: list[int]


def load_taxonomy(path: Path) -> tuple[Topic, ...]:
    if not path.exists():
        raise ReadingListError("topic taxonomy not found", path, code=Code.MISSING_FILE)
    data = read_toml(path)
    raw_topics = data.get("topic", [])
    if not isinstance(raw_topics, list) or not raw_topics:
        raise ReadingListError("the taxonomy defines no [[topic]]", path, code=Code.BAD_TOPICS)
    lines = _lines(path.read_text(encoding="utf-8"), raw_topics)
    topics = tuple(_topic(raw, path, i, lines[i - 1]) for i, raw in enumerate(raw_topics, 1))
    _unique([(t.id, where.line if where else None) for t, where in zip(topics, lines, strict=True)], "topic", path)
    return topics


def _lines(text: str, raw_topics: list[object]) -> list[_Lines | None]:
    """The lines of each topic and subtopic; all None when the file does not have the usual shape
    (an inline array of tables, say), since a wrong line would mislead more than none."""
    found: list[_Lines] = []
    in_sub = False
    for number, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            found.append(_Lines(number, []))
            in_sub = False
        elif _SUB_HEADER.match(line) and found:
            found[-1].subs.append(number)
            in_sub = True
        elif found and _ID_LINE.match(line):
            if in_sub:
                found[-1].subs[-1] = number
            else:
                found[-1].line = number
    counts = [
        len(raw.get(SUB, ())) if isinstance(raw, dict) and isinstance(raw.get(SUB), list) else 0 for raw in raw_topics
    ]
    if len(found) != len(raw_topics) or [len(f.subs) for f in found] != counts:
        return [None] * len(raw_topics)
    return list(found)


def _topic(raw: object, path: Path, index: int, where: _Lines | None) -> Topic:
    line = where.line if where else None
    topic = _fields(raw, f"topic #{index}", (*FIELDS, SUB), path, line)
    _check_reserved(topic.id, path, line)
    raw_subs = raw.get(SUB, []) if isinstance(raw, dict) else []
    if not isinstance(raw_subs, list):
        raise ReadingListError(
            f"topic {topic.id!r}: {SUB!r} must be [[topic.{SUB}]] tables", path, line, code=Code.BAD_TOPICS
        )
    subs = []
    for i, raw_sub in enumerate(raw_subs, 1):
        sub_line = where.subs[i - 1] if where else line
        sub = _fields(raw_sub, f"subtopic #{i} of {topic.id!r}", FIELDS, path, sub_line)
        if not sub.categories and not sub.keywords:
            raise ReadingListError(
                f"subtopic {sub.id!r} of {topic.id!r} selects no paper: give it keywords or categories",
                path,
                sub_line,
                code=Code.BAD_TOPICS,
            )
        subs.append((sub, sub_line))
    _unique([(s.id, n) for s, n in subs], "subtopic", path)
    children = tuple(Topic(f"{topic.id}/{s.id}", s.title, s.description, s.categories, s.keywords) for s, _ in subs)
    return Topic(topic.id, topic.title, topic.description, topic.categories, topic.keywords, children)


def _fields(raw: object, name: str, known: tuple[str, ...], path: Path, line: int | None) -> Topic:
    """One ``[[topic]]`` or ``[[topic.sub]]`` table's own fields, checked (``name`` says which)."""
    if not isinstance(raw, dict):
        header = "[[topic]]" if SUB in known else f"[[topic.{SUB}]]"
        raise ReadingListError(
            f"{name} must be a table ({header} with key = value lines)", path, line, code=Code.BAD_TOPICS
        )
    for field in ("id", "title"):
        if field not in raw:
            raise ReadingListError(f"{name} lacks the {field!r} field", path, line, code=Code.BAD_TOPICS)
    unknown = [key for key in raw if key not in known]
    if unknown:
        nested = " (subtopics do not nest)" if SUB in unknown else ""
        raise ReadingListError(
            f"{name} has an unknown field {unknown[0]!r}{nested}; the fields are {', '.join(known)}",
            path,
            line,
            code=Code.UNKNOWN_FIELD,
        )
    topic = Topic(
        id=_string(raw, "id", path, line),
        title=_string(raw, "title", path, line),
        description=_string(raw, "description", path, line),
        categories=_strings(raw, "categories", path, line),
        keywords=tuple(k.lower() for k in _strings(raw, "keywords", path, line)),
    )
    _check_id(topic.id, path, line)
    return topic


def _unique(ids: list[tuple[str, int | None]], what: str, path: Path) -> None:
    first: dict[str, int | None] = {}
    for topic_id, line in ids:
        if topic_id in first:
            where = f" (first at line {first[topic_id]})" if first[topic_id] else ""
            raise ReadingListError(f"duplicate {what} id {topic_id!r}{where}", path, line, code=Code.BAD_TOPIC_ID)
        first[topic_id] = line


def _string(raw: dict[str, object], name: str, path: Path, line: int | None) -> str:
    value = raw.get(name, "")
    if not isinstance(value, str):
        raise ReadingListError(
            f"topic field {name!r} must be a string, not {type(value).__name__}", path, line, code=Code.BAD_TOPICS
        )
    return value


def _strings(raw: dict[str, object], name: str, path: Path, line: int | None) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ReadingListError(f"topic field {name!r} must be a list of strings", path, line, code=Code.BAD_TOPICS)
    return tuple(value)


def _check_id(topic_id: str, path: Path, line: int | None) -> None:
    if not ID.match(topic_id) or len(topic_id) > MAX_ID:
        raise ReadingListError(
            f"topic id {topic_id!r} must be lowercase ASCII letters and digits in words joined by single "
            f"hyphens, at most {MAX_ID} characters",
            path,
            line,
            code=Code.BAD_TOPIC_ID,
        )


def _check_reserved(topic_id: str, path: Path, line: int | None) -> None:
    if topic_id in RESERVED_IDS:
        raise ReadingListError(
            f"topic id {topic_id!r} is reserved: the generator writes topics/{topic_id}.md",
            path,
            line,
            code=Code.BAD_TOPIC_ID,
        )
