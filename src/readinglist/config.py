"""Site settings: one validated dataclass, read from ``conf/readinglist.toml``."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .errors import Code, ReadingListError
from .tomlfile import read_toml

CONFIG_FILE = Path("conf") / "readinglist.toml"
AT_LEAST_ONE = ("author_chart_min", "author_feed_min")  # papers an author needs for a chart, a feed


@dataclass(frozen=True)
class Config:
    root: Path
    title: str = "Reading list"
    description: str = "An annotated reading list of research papers."
    author: str = ""
    bib: str = "refs.bib"
    sources: tuple[str, ...] = ("conf/sources/*",)  # dumps, .bib and CSL-JSON files alike
    docs: str = "docs"
    taxonomy: str = "conf/topics.toml"
    identity: str = "conf/identity.toml"
    related_top_k: int = 5
    related_min_score: float = 0.1
    base_url: str = ""
    graph: bool = True  # related-work graphs on paper and topic pages (render/graph.py)
    charts: bool = True  # papers-per-year charts (render/charts.py); off saves drawing them
    author_chart_min: int = 10  # an author with fewer papers gets no chart
    author_feed_min: int = 3  # an author with fewer papers gets no Atom feed
    # guess a category from a record's text when its arXiv id, venue and keywords give none
    # (enrich/categories.py); off, such a paper is shown uncategorized
    infer_categories: bool = True

    @property
    def bib_path(self) -> Path:
        return self.root / self.bib

    @property
    def docs_path(self) -> Path:
        return self.root / self.docs

    @property
    def notes_path(self) -> Path:
        return self.docs_path / "notes"

    @property
    def identity_path(self) -> Path:
        return self.root / self.identity

    @property
    def taxonomy_path(self) -> Path:
        return self.root / self.taxonomy

    def source_paths(self) -> list[Path]:
        """Regular files only: reading a FIFO or a device would block or never end.

        Hidden files and editor backups (``.DS_Store``, ``mine.bib~``) are no sources.
        """
        found = {p for pattern in self.sources for p in self.root.glob(pattern) if p.is_file()}
        return sorted(p for p in found if not p.name.startswith(".") and not p.name.endswith("~"))


def load_config(root: Path) -> Config:
    path = root / CONFIG_FILE
    if not path.exists():
        return Config(root=root)
    site = read_toml(path).get("site", {})
    if not isinstance(site, dict):
        raise ReadingListError("site must be a table ([site] with key = value lines)", path, code=Code.BAD_CONFIG)
    return Config(root=root, **_validated(site, path))


def _validated(data: dict[str, Any], path: Path) -> dict[str, Any]:
    known = {f.name: f for f in fields(Config) if f.name != "root"}
    out: dict[str, Any] = {}
    for name, value in data.items():
        if name not in known:
            message = f"unknown setting [site].{name}; known: {', '.join(sorted(known))}"
            raise ReadingListError(message, path, code=Code.UNKNOWN_FIELD)
        default = getattr(Config, name)
        if isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ReadingListError(f"[site].{name} must be a list of strings", path, code=Code.BAD_CONFIG)
            value = tuple(value)
        elif isinstance(default, float) and isinstance(value, int):
            value = float(value)
        elif not isinstance(value, type(default)) or isinstance(value, bool) != isinstance(default, bool):
            raise ReadingListError(f"[site].{name} must be a {type(default).__name__}", path, code=Code.BAD_CONFIG)
        if name in AT_LEAST_ONE and value < 1:
            raise ReadingListError(f"[site].{name} must be 1 or more, not {value}", path, code=Code.BAD_CONFIG)
        out[name] = value
    return out
