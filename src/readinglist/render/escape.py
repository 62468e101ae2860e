"""Escaping record text for MyST: every value is inline text, never markup.

CommonMark lets a backslash escape any ASCII punctuation, which disables every
construct that starts with one: HTML, links, roles, directives, math, fences,
substitutions and line-leading block markers. Newlines become spaces, so no value
can start a block of its own; control, noncharacter and bidi characters are dropped
(``readinglist.chars`` states the policy).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from ..chars import strip_unsafe

_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SAFE_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.\-]{0,39}$")


class Md(str):
    """Markdown the tool wrote itself: templates print it as is."""


def drop_invisible(text: str) -> str:
    """Without control, zero-width and bidi-override characters (a Trojan Source defence)."""
    return strip_unsafe(text)  # the policy's two-pass form: 5x faster than one class on long text


def clean(text: str) -> str:
    """Text as it will be shown: no control characters, whitespace collapsed to single spaces."""
    return " ".join(strip_unsafe(text).split())


def md_text(text: str) -> Md:
    """Inline MyST that renders exactly as ``clean(text)``."""
    return Md("".join("\\" + c if c in _PUNCTUATION else c for c in clean(text)))


def safe_token(text: str) -> bool:
    """True for short identifiers (categories, keys) that may sit inside a role's backticks."""
    return bool(_SAFE_TOKEN.match(text))


def fence(text: str, info: str = "") -> Md:
    """A fenced code block holding ``text`` literally, whatever backticks it contains."""
    text = strip_unsafe(text).rstrip()  # first: a dropped character may join two runs of backticks
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return Md(f"{ticks}{info}\n{text}\n{ticks}")


def data_block(name: str, items: Sequence[Mapping[str, object]]) -> Md:
    """A ``{name}`` block of one JSON object per line (``site/sphinx_ext/jsonlines.py`` reads it);
    empty when there are no items. Data, not Markdown: the extension makes one node of it, and
    ASCII-only JSON keeps every line break and separator of a text escaped, so no record text
    can end the block. Callers clean the text first (``clean``, ``strip_unsafe``): once in
    JSON escapes, an unsafe character is out of the fence's sight."""
    return fence("\n".join(json.dumps(item) for item in items), f"{{{name}}}") if items else Md("")


def data_ref(name: str, key: str) -> Md:
    """A ``{name}`` block whose data is the page's data file's ``key`` (site/sphinx_ext/pagedata.py)."""
    return Md(f"```{{{name}}}\n:data: {key}\n```")


def data_file(data: Mapping[str, object]) -> str:
    """A page's data file: what its ``data_ref`` blocks show, as ASCII JSON. Callers clean the
    text first, as for ``data_block``; unsafe characters are dropped from the whole file too."""
    return strip_unsafe(json.dumps(data, separators=(",", ":"))) + "\n"


def directive(name: str, argument: str, body: str, options: str = "") -> Md:
    """A MyST directive around ``body`` (Markdown the tool wrote, code blocks included).

    Its backtick fence is longer than any run of backticks inside, so no line of the body (a
    code block's fence, or a run of backticks in a code block's text) can close it early.
    ``name``, ``argument`` and ``options`` are the tool's own words, never record text.
    """
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    ticks = "`" * max(3, longest + 1)
    head = f"{ticks}{{{name}}} {argument}".rstrip()
    return Md(f"{head}\n" + (f"{options}\n\n" if options else "") + f"{body}\n{ticks}")
