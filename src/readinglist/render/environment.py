"""The Jinja2 environment: every printed value is escaped unless it is ``Md``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2

from .escape import Md, md_text


def _finalize(value: Any) -> Any:
    if isinstance(value, Md):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return md_text("" if value is None else str(value))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("readinglist.render", "templates"),
        autoescape=False,  # Markdown, not HTML: _finalize escapes instead
        finalize=_finalize,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render(template: str, **context: Any) -> str:
    text = environment().get_template(template).render(**context)
    return "\n".join(line.rstrip() for line in text.strip().splitlines()) + "\n"
