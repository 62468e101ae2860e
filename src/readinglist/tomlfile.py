"""TOML files, the user's (``conf/*.toml``) and the package's (``data/*.toml``), read one way.

Below every stage: the settings, the store's identity rules, the topics, arXiv's categories
and the field words all read TOML. Whatever is wrong with a file, a person or a broken
install gets one line, ``file:line: problem [readinglist.<code>]``, never a traceback.
"""

from __future__ import annotations

import re
import tomllib
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from .errors import Code, ReadingListError, not_utf8


def read_toml(path: Path) -> dict[str, Any]:
    """A ``conf/*.toml`` file (a missing one is an error too: the callers check first)."""
    return _loaded(path, str(path))


def package_toml(name: str) -> dict[str, Any]:
    """``readinglist/data/<name>`` as shipped."""
    resource = files("readinglist").joinpath(f"data/{name}")
    return _loaded(resource, str(resource))


def _loaded(source: Path | Traversable, label: str) -> dict[str, Any]:
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, label) from None
    except OSError as exc:
        raise ReadingListError(f"cannot read file: {exc.strerror}", label, code=Code.UNREADABLE) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, label, text) from None


def _toml_error(exc: tomllib.TOMLDecodeError, label: str, text: str) -> ReadingListError:
    # Python < 3.14 puts the position only in the message: "Invalid value (at line 3, column 5)".
    match = re.search(r"\(at (?:line (\d+), column \d+|end of document)\)$", str(exc))
    message = str(exc)[: match.start()].strip() if match else str(exc)
    line = (int(match.group(1)) if match.group(1) else len(text.splitlines()) or 1) if match else None
    return ReadingListError(f"invalid TOML: {message}", label, line, code=Code.BAD_TOML)
