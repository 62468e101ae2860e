"""Formatted bibliography entries, kept from one build to the next.

sphinxcontrib-bibtex formats every entry of the bibliography on every build, even when no
entry changed (``BibtexDomain.env_updated``): at 1,000 papers that was a second of each
rebuild, at 10,000 ten. The caching style below formats an entry once and then serves the
result as long as the entry, its label and the style are the same. No Sphinx imports here.

pybtex finds styles by name in its own registry, for the whole process; each build registers
its caching styles there bound to the ``Cache`` that build keeps on its app (``state.py``).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pybtex.plugin
from pybtex.database import Entry
from pybtex.style import FormattedEntry
from pybtex.style.formatting import BaseStyle

GROUP = "pybtex.style.formatting"
FILE = "readinglist-bibtex.pickle"
Key = tuple[Any, ...]


class Cache:
    def __init__(self) -> None:
        self.entries: dict[Key, FormattedEntry] = {}
        self.used: set[Key] = set()
        self.changed = False

    def load(self, folder: Path) -> None:
        try:
            with open(folder / FILE, "rb") as f:
                self.entries = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            self.entries = {}  # no cache yet, or one from another version: format again

    def save(self, folder: Path) -> None:
        """Keep only the entries this build used, so removed entries do not pile up."""
        if self.changed or set(self.entries) != self.used:
            kept = {k: v for k, v in self.entries.items() if k in self.used}
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / FILE, "wb") as f:
                pickle.dump(kept, f, protocol=pickle.HIGHEST_PROTOCOL)
        self.used, self.changed = set(), False


def entry_key(style: str, label: str, entry: Entry) -> Key:
    persons = tuple((role, tuple(str(p) for p in people)) for role, people in entry.persons.items())
    return (style, label, entry.key, entry.type, tuple(entry.fields.items()), persons)


def caching(base: type[BaseStyle], cache: Cache) -> type[BaseStyle]:
    """``base`` with ``format_entry`` served from ``cache`` when the entry is unchanged."""
    base = getattr(base, "uncached", base)  # a caching style of an earlier build: cache its own base
    name = f"{base.__module__}.{base.__qualname__}"

    def format_entry(self: BaseStyle, label: str, entry: Entry, bib_data: Any = None) -> FormattedEntry:
        key = entry_key(name, label, entry)
        cache.used.add(key)
        if key not in cache.entries:
            cache.entries[key] = base.format_entry(self, label, entry, bib_data)
            cache.changed = True
        return cache.entries[key]

    namespace = {"format_entry": format_entry, "uncached": base, "__module__": __name__}
    return type(base.__name__, (base,), namespace)


def install(style: str, cache: Cache) -> None:
    """Make the pybtex style ``style`` (as sphinxcontrib-bibtex finds it) a caching one, for ``cache``."""
    pybtex.plugin.register_plugin(GROUP, style, caching(pybtex.plugin.find_plugin(GROUP, style), cache), force=True)
