"""Names and the pybtex parser the store reads with: BibLaTeX's extended name form, "others".

BibLaTeX writes ``family=Heuvel, given=Jan, prefix=van den, useprefix=true``; pybtex reads
that as a name with too many commas and fails the whole file. The parser turns such a name
into BibTeX's own ``van den Heuvel, Jan`` (the readers' conversion) before pybtex splits it.
"""

from __future__ import annotations

import re
from typing import Any

from pybtex.bibtex.utils import split_name_list
from pybtex.database import BibliographyData, Person
from pybtex.database.input.bibtex import Parser

from ..compat import PybtexScanner, parse_with
from ..latex import to_text
from ..sources.biblatex import extended_name, is_extended_name
from ..sources.bounds import BoundedValues


def bibtex_name(name: str) -> str:
    """A BibLaTeX extended name as BibTeX's ``von Last, Jr, First``; any other name as it is."""
    if not is_extended_name(name):
        return name
    try:
        return extended_name(name)
    except ValueError:
        return name  # pybtex then reports the name, and the entry is skipped with its line


def stored_name(name: str) -> str:
    """A name as ``display_name`` gives it (plain text) made safe to write into refs.bib again: a bare
    ``%`` would start a LaTeX comment in the derived bibliography, and the rest of the line is lost."""
    return _BARE_PERCENT.sub(r"\\%", name) if "%" in name else name


_BARE_PERCENT = re.compile(r"(?<!\\)%")


def display_name(person: Person) -> str:
    parts = person.first_names + person.middle_names + person.prelast_names + person.last_names + person.lineage_names
    return to_text(" ".join(parts))


def is_others(person: Person) -> bool:
    """BibTeX's "and others", and "and et al." where a person meant it."""
    plain = " ".join(person.first_names + person.middle_names + person.prelast_names + person.last_names)
    return " ".join(plain.replace("~", " ").strip("{}").split()).rstrip(".").lower() in ("others", "et al")


class _BoundedScanner(BoundedValues, PybtexScanner):  # type: ignore[misc]
    """pybtex's scanner with its values and macro expansion bounded (``sources.bounds``)."""


class StoreParser(Parser):  # type: ignore[misc]  # pybtex has no type hints
    """pybtex's parser, reading BibLaTeX's extended name form as well as BibTeX's, its values bounded.

    An ``@string`` bomb typed into refs.bib stops at the first value past the bound with a
    ``TooLarge`` (a ``PybtexSyntaxError`` with its line), instead of doubling to gigabytes.
    """

    def parse_string(self, text: str) -> BibliographyData:
        """pybtex's ``Parser.parse_string``, with the bounded scanner in place of ``LowLevelParser``."""
        result: BibliographyData = parse_with(self, _BoundedScanner, text)
        return result

    def process_entry(self, entry_type: str, key: str | None, fields: list[tuple[str, Any]]) -> None:
        converted = []
        for name, value_list in fields:
            flat = self.flatten_value_list(value_list) if name in self.person_fields else ""
            if "=" in flat:
                value_list = [" and ".join(bibtex_name(n) for n in split_name_list(flat))]
            converted.append((name, value_list))
        super().process_entry(entry_type, key, converted)
