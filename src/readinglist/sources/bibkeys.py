"""Citation keys within one .bib file: a key two entries share is renamed, never dropped.

Mendeley gives every paper of Scales et al. (2015) the key ``Scales2015``; BibTeX would keep the
first and lose the rest. The second and later entries get ``Scales2015b``, ``Scales2015c``, ...
(free in the whole file), with a warning when the title differs. An entry with the same title is
the same paper given twice: renamed silently, the store then merges it into the first.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from itertools import chain, count

from .bibscan import RawEntry


class Keys:
    """The keys of one file, handing each entry a key no other entry of the file has."""

    def __init__(self, entries: Iterable[RawEntry]) -> None:
        self.taken = {e.key.lower() for e in entries if e.key}
        self.first: dict[str, RawEntry] = {}

    def own(self, entry: RawEntry) -> tuple[str, str]:
        """The key ``entry`` is read under, and the warning when it is renamed (else empty)."""
        first = self.first.setdefault(entry.key.lower(), entry) if entry.key else entry
        if first is entry:
            return entry.key, ""
        key = self._free(entry.key)
        if _title(first) == _title(entry):
            return key, ""
        why = f"duplicate key {entry.key!r} of another paper (the entry at line {first.line}): imported as {key!r}"
        return key, why

    def _free(self, key: str) -> str:
        suffixes = chain(string.ascii_lowercase[1:], (f"-{n}" for n in count(2)))
        free: str = next(key + s for s in suffixes if (key + s).lower() not in self.taken)
        self.taken.add(free.lower())
        return free


def _title(entry: RawEntry) -> str:
    """The title as words, braces and case aside: "{Deep} learning" and "Deep Learning" are one."""
    title = next((v for n, v in entry.fields if n.lower() == "title"), "")
    return " ".join(title.replace("{", "").replace("}", "").lower().split())
