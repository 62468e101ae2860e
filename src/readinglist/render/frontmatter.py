"""A note's YAML front matter: parsed without aliases, checked against a small schema.

Notes are written by people, so the front matter is untrusted input like any record:

- Anchors and aliases are refused. A few hundred bytes of nested aliases ("billion
  laughs") expand to gigabytes once constructed, and notes never need them.
- Keys must be strings (``1: one`` or ``null: x`` are mistakes, and the fingerprint
  sorts keys). Values are text, numbers, booleans, dates or lists of them.
- The keys the site reads have types: ``status`` one of ``STATUSES`` (or ``skimmed``, an
  older word kept as an alias of ``read``), ``tags`` a list of strings, ``title`` a string,
  ``rating`` an integer from 1 to 5, ``priority`` a rank ``priority_rank`` understands (a
  whole number, or ``top``, ``high``, ``medium``, ``low``…), ``added`` a date (``2024-05-01``
  or any ISO date or date-time).
  Other keys are the writer's own and are kept.

Every problem is one line naming the note and the line of the offending key.
"""

from __future__ import annotations

import datetime
import reprlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode

from ..enrich.starthere import PRIORITY_WORDS, priority_rank
from ..errors import Code, ReadingListError

STATUSES = ("to-read", "reading", "read", "skipped")
# Words accepted for a status, and the status each counts as. ``skimmed`` was a fifth status
# before the reading workflow: notes that use it stay valid, and count as read.
STATUS_ALIASES = {"skimmed": "read"}
SCALARS = (str, int, float, bool, datetime.date, type(None))
STRING_TAG = "tag:yaml.org,2002:str"
_SHORT = reprlib.Repr()  # keyword arguments only from Python 3.12
_SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 60, 40, 60


class NoAliasLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing anchors and aliases before anything is constructed."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent) or (
            isinstance(event, ScalarEvent | CollectionStartEvent) and event.anchor is not None
        ):
            problem = "anchors and aliases (& and *) are not allowed in front matter"
            raise ComposerError(None, None, problem, event.start_mark)  # type: ignore[arg-type]
        return super().compose_node(parent, index)


def parse(text: str, path: Path, first_line: int) -> dict[str, Any]:
    """The mapping in ``text``, the front matter that starts at line ``first_line`` of ``path``."""
    try:
        loader = NoAliasLoader(text)  # the reader checks every character here
        node = loader.get_single_node()
        if node is None:
            return {}
        if not isinstance(node, MappingNode):
            raise ReadingListError(
                "front matter must be a mapping (key: value lines)", path, first_line, code=Code.BAD_FRONT_MATTER
            )
        return dict(_pairs(loader, node, path, first_line))
    except yaml.YAMLError as exc:
        raise ReadingListError(
            f"invalid front matter: {_one_line(exc)}", path, _line(exc, text, first_line), code=Code.BAD_FRONT_MATTER
        ) from None
    except RecursionError:
        raise ReadingListError(
            "invalid front matter: nested too deeply", path, first_line, code=Code.BAD_FRONT_MATTER
        ) from None


def _pairs(loader: NoAliasLoader, node: MappingNode, path: Path, first_line: int) -> list[tuple[str, Any]]:
    pairs = []
    seen: set[str] = set()
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + first_line
        if not isinstance(key_node, ScalarNode) or key_node.tag != STRING_TAG:
            shown = key_node.value if isinstance(key_node, ScalarNode) else "a collection"
            raise ReadingListError(
                f"front matter key {shown!r} must be a string (quote it)", path, line, code=Code.BAD_FRONT_MATTER
            )
        key = str(key_node.value)
        if key in seen:
            raise ReadingListError(f"front matter key {key!r} appears twice", path, line, code=Code.BAD_FRONT_MATTER)
        seen.add(key)
        value = _value(loader, key, value_node, path, line)
        problem = check(key, value)
        if problem:
            raise ReadingListError(f"front matter {key!r}: {problem}", path, line, code=Code.BAD_FRONT_MATTER)
        pairs.append((key, value))
    return pairs


def _value(loader: NoAliasLoader, key: str, node: Node, path: Path, line: int) -> Any:
    """The value built from ``node``. PyYAML's timestamp constructor raises ``ValueError`` for an
    impossible date or offset (``2024-02-30``, ``+99:00``), and ``int()`` for more than 4,300
    digits: the user's mistake, named with the key's line, not a traceback."""
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, OverflowError) as exc:
        problem = f"{_shown(_culprit(loader, node))} cannot be read ({_why(exc)})"
        raise ReadingListError(f"front matter {key!r}: {problem}", path, line, code=Code.BAD_FRONT_MATTER) from None


def _culprit(loader: NoAliasLoader, node: Node) -> str:
    """The text of the first scalar under ``node`` that cannot be built (only asked after one failed)."""
    if isinstance(node, ScalarNode):
        return str(node.value)
    children = [n for pair in node.value for n in pair] if isinstance(node, MappingNode) else node.value
    for child in children:
        # The failed build left its bookkeeping half done ("recursive node"): start afresh.
        loader.constructed_objects, loader.recursive_objects, loader.state_generators = {}, {}, []
        try:
            loader.construct_object(child, deep=True)
        except (ValueError, OverflowError):
            return _culprit(loader, child)
    return ""


def _why(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if "digits" in text:  # "Exceeds the limit (4300 digits) for integer string conversion…"
        return "a number of more than 4,300 digits"
    if "offset" in text:  # "offset must be a timedelta strictly between -timedelta(hours=24) and…"
        return "a time-zone offset must be less than 24 hours"
    return text.split(";")[0][:80] or type(exc).__name__


def _shown(value: Any) -> str:
    """``value`` as a message shows it: a 5,000-digit number or a long text is shortened."""
    return _SHORT.repr(value)


def check(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for ``key``, or None."""
    rule = RULES.get(key, _any_value)
    return rule(value)


def status_of(value: Any) -> str | None:
    """The status ``value`` counts as (``skimmed`` is ``read``), or None for no valid status."""
    if not isinstance(value, str):
        return None
    return value if value in STATUSES else STATUS_ALIASES.get(value)


def _status(value: Any) -> str | None:
    return None if status_of(value) else f"must be one of {', '.join(STATUSES)}, not {_shown(value)}"


def _tags(value: Any) -> str | None:
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return None
    return "must be a list of strings, such as [pipelines, training] (quote numbers and dates)"


def _title(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string (quote it)"


def _rating(value: Any) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5
    return None if ok else f"must be a whole number from 1 to 5, not {_shown(value)}"


def _priority(value: Any) -> str | None:
    if priority_rank(value) is not None:
        return None
    words = ", ".join(dict.fromkeys(PRIORITY_WORDS))
    return f"must be a whole number (1 first) or one of {words}, not {_shown(value)}"


def _added(value: Any) -> str | None:
    if isinstance(value, datetime.date):
        return None
    if isinstance(value, str):
        try:
            datetime.datetime.fromisoformat(value)
            return None
        except ValueError:
            pass
    return f"must be a date such as 2024-05-01, not {_shown(value)}"


def _any_value(value: Any) -> str | None:
    if isinstance(value, SCALARS) or (isinstance(value, list) and all(isinstance(v, SCALARS) for v in value)):
        return None
    return "must be text, a number, a date or a list of them"


RULES: dict[str, Callable[[Any], str | None]] = {
    "status": _status,
    "tags": _tags,
    "title": _title,
    "rating": _rating,
    "priority": _priority,
    "added": _added,
}


def _one_line(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError):
        return f"character U+{exc.character:04X} is not allowed in YAML"
    if isinstance(exc, yaml.MarkedYAMLError):
        parts = [exc.problem or "", f"({exc.context})" if exc.context else ""]
        return " ".join(" ".join(part.split()) for part in parts if part)
    return " ".join(str(exc).split())


def _line(exc: yaml.YAMLError, text: str, first_line: int) -> int:
    if isinstance(exc, yaml.reader.ReaderError):
        return text[: exc.position].count("\n") + first_line
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + first_line if mark else first_line
