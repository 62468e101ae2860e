"""Per-work enrichment results kept from one generate to the next.

Adding one paper to refs.bib enriches the whole list again: the similarities, versions,
related links, categories and authors are corpus-wide and must be. But a working title, a
text's TF-IDF terms (before they are weighed), the key results, the TL;DR, the brief and a
paper's topics are functions of that one work's text
(and categories, and conf/topics.toml): recomputing them for the 999 unchanged works was a
second of the generate. ``Recall`` serves each such call from the last generate's results,
by the function's name and a digest of its arguments' repr; the caller keeps them (site/assemble.py) under
a key of the code and conf/topics.toml, the only other inputs they read, so the taxonomy is
left out of the arguments' repr. Only the results this generate asked for are kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")
Results = dict[tuple[str, str], Any]  # (function, digest of its arguments' repr) -> its result


class Recall:
    def __init__(self, previous: Results | None = None) -> None:
        self.previous = previous or {}
        self.used: Results = {}

    def __call__(self, name: str, function: Callable[..., T], *args: Any, also: tuple[Any, ...] = ()) -> T:
        """``function(*args, *also)``; ``also`` (the taxonomy) is no part of the key."""
        key = (name, hashlib.sha256(repr(args).encode("utf-8", "surrogatepass")).hexdigest())  # not 1.5 kB abstracts
        if key not in self.used:
            self.used[key] = self.previous[key] if key in self.previous else function(*args, *also)
        return cast(T, self.used[key])
