"""A view of the papers by key that notes which keys were read: what a paper page depends on.

A paper page shows other papers (related links, versions, the crossref parent, the neighbours
its category was inferred from), each looked up by key. ``memo.page`` hands it a ``Recorder``
instead of the library's dict, and keeps the keys read, found or not, with the page: a paper
that later appears under one of them changes the page too.

It is a ``dict`` for the renderers' signatures, holding nothing itself: every way of reading
by key is overridden, and reading it whole (iterating, its length) sets ``all``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar, overload

from ..model import Paper

T = TypeVar("T")


class Recorder(dict[str, Paper]):
    def __init__(self, papers: dict[str, Paper]) -> None:
        super().__init__()
        self.papers = papers
        self.read: set[str] = set()
        self.all = False

    def __getitem__(self, key: str) -> Paper:
        self.read.add(key)
        return self.papers[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self.papers

    @overload
    def get(self, key: str, default: None = None, /) -> Paper | None: ...
    @overload
    def get(self, key: str, default: Paper, /) -> Paper: ...
    @overload
    def get(self, key: str, default: T, /) -> Paper | T: ...
    def get(self, key: str, default: Any = None, /) -> Any:
        self.read.add(key)
        return self.papers.get(key, default)

    def _whole(self) -> dict[str, Paper]:
        self.all = True
        return self.papers

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def keys(self) -> Any:
        return self._whole().keys()

    def values(self) -> Any:
        return self._whole().values()

    def items(self) -> Any:
        return self._whole().items()
