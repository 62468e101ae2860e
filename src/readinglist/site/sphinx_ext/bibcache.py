"""Formatted bibliography entries, kept from one build to the next.

sphinxcontrib-bibtex formats every entry of the bibliography on every build, even when no
entry changed (``BibtexDomain.env_updated``), a second of each rebuild at 1,000 papers. The
caching style below formats an entry once and then serves the result as long as the entry, its
label and the style are the same. The entries are kept in Sphinx's doctree folder by
:class:`readinglist.cache.Store`, in a file of their own. No Sphinx imports here.

pybtex finds styles by name in its own registry, for the whole process; each build registers
its caching styles there bound to the ``Cache`` that build keeps on its app (``state.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pybtex
import pybtex.plugin
from pybtex.database import Entry
from pybtex.style import FormattedEntry
from pybtex.style.formatting import BaseStyle

from ... import cache
from ...compat import register_pybtex_plugin, text_ignores_label

GROUP = "pybtex.style.formatting"
FILE = cache.FILE  # in Sphinx's doctree folder: the generator's cache format, a file of its own
KIND = "bibliography"
OLD_FILE = "readinglist-bibtex.pickle"  # its file in a format of its own, before: removed when saving
Key = tuple[Any, ...]


class Cache:
    def __init__(self) -> None:
        self.entries: dict[Key, FormattedEntry] = {}
        self.used: set[Key] = set()
        self.changed = False

    def load(self, folder: Path) -> None:
        """The last build's entries, kept by :class:`readinglist.cache.Store` (unpickled with the
        collector paused; ``readinglist build`` loads them before it freezes what Sphinx loaded:
        bibliography.py). None under another key (another version of readinglist or pybtex):
        every entry is formatted again."""
        self.entries = cache.Store.open(folder).get(KIND, _key(), dict) or {}

    def save(self, folder: Path) -> None:
        """Keep only the entries this build used, so removed entries do not pile up. Written
        whole (a temporary file, renamed): a build may load it while another saves it."""
        if self.changed or set(self.entries) != self.used:
            store = cache.Store(folder / FILE, {})  # the file holds this kind alone: nothing to read back
            store.put(KIND, _key(), {k: v for k, v in self.entries.items() if k in self.used})
            store.save()
            (folder / OLD_FILE).unlink(missing_ok=True)
        self.used, self.changed = set(), False


def _key() -> str:
    """The formatted entries depend on the styles' code (readinglist's, pybtex's), besides each
    entry's own fields (:func:`entry_key`)."""
    return cache.key_of(KIND, pybtex.__version__)


def entry_key(style: str, label: str | None, entry: Entry) -> Key:
    persons = tuple((role, tuple(str(p) for p in people)) for role, people in entry.persons.items())
    return (style, label, entry.key, entry.type, tuple(entry.fields.items()), persons)


def caching(base: type[BaseStyle], cache: Cache) -> type[BaseStyle]:
    """``base`` with ``format_entry`` served from ``cache`` when the entry is unchanged.

    pybtex's own ``format_entry`` only hands the label on: the text is the same under any label.
    The labels are numbers ("plain"), so adding one paper renumbers every entry after it, and a
    cache keyed by label would format the whole bibliography again. For such
    a style the label is left out of the key and put on the served entry; a style that formats
    entries its own way may print the label, and keeps it in the key."""
    base = getattr(base, "uncached", base)  # a caching style of an earlier build: cache its own base
    name = f"{base.__module__}.{base.__qualname__}"
    ignores_label = text_ignores_label(base)

    def format_entry(self: BaseStyle, label: str, entry: Entry, bib_data: Any = None) -> FormattedEntry:
        key = entry_key(name, None if ignores_label else label, entry)
        cache.used.add(key)
        if key not in cache.entries:
            cache.entries[key] = base.format_entry(self, label, entry, bib_data)
            cache.changed = True
        found = cache.entries[key]
        return found if found.label == label else FormattedEntry(found.key, found.text, label)

    namespace = {"format_entry": format_entry, "uncached": base, "__module__": __name__}
    return type(base.__name__, (base,), namespace)


def install(style: str, cache: Cache) -> None:
    """Make the pybtex style ``style`` (as sphinxcontrib-bibtex finds it) a caching one, for ``cache``."""
    register_pybtex_plugin(GROUP, style, caching(pybtex.plugin.find_plugin(GROUP, style), cache))
