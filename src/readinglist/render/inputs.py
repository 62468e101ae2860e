"""What every page renderer is given: one value, so a new kind of page adds no parameter anywhere.

``registry.KINDS`` names, per kind, the function that renders it (``Kind.render``); each such
function takes an :class:`Inputs` and returns ``{path under docs/: text}``. The library it holds
has passed the one input policy of every output (``accessors.normalised``: every year plausible
or unknown), so a new kind of page cannot show a year 6 or draw a chart from year 0.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import Library, Note
from .accessors import normalised

if TYPE_CHECKING:
    from .zotero import Annotations


@dataclass(frozen=True)
class Inputs:
    """``about``: the hand-written pages (docnames) the landing page's "About" menu lists;
    ``graph``: related-work graphs on paper and topic pages ([site] graph); ``only``: the slugs
    of the paper pages to render (all if None): a paper page shows no other paper's note, so
    after a note edit the generator renders that note's page and every listing (site/pagestate.py);
    ``fixed``: the pages no note shows on (``pages.library_pages``), if the caller has them;
    ``zotero``: each synced Zotero item's notes and highlights, by item key (``zotero.load``):
    untrusted text, which only ``render/zotero.py`` turns into MyST."""

    library: Library
    notes: dict[str, Note]
    bibtex: dict[str, str]
    site: dict[str, str]
    about: list[str]
    graph: bool = True
    only: Collection[str] | None = None
    fixed: dict[str, str] | None = None
    zotero: Mapping[str, Annotations] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "library", normalised(self.library))  # frozen: set once, here

    def meta(self) -> dict[str, dict[str, Any]]:
        """Each note's front matter, by page slug: what listings read of the notes."""
        return {slug: note.meta for slug, note in self.notes.items()}


Renderer = Callable[[Inputs], dict[str, str]]
