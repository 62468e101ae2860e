"""The BibTeX block a reader copies from a paper's page: the stored entry, made public and honest.

It lives in render/ because it says what the page says: the authors as ``enrich`` credits them
(an owner standing in for an unknown author list is no first author) and no bookkeeping field.
"""

from __future__ import annotations

from pybtex.database import Entry, Person

from ..enrich.credit import credit
from ..latex import dump_to_latex, protect_title, to_text
from ..store.bibfile import PRIVATE_FIELDS, lowered_fields
from ..store.names import display_name, is_others
from ..store.provenance import parse_provenance
from .accessors import is_private_field, year_text


def public_entry(entry: Entry) -> Entry:
    """The entry as a reader copies it: without the tool's bookkeeping fields, a reference manager's
    (``file`` paths on the user's disk, ``owner``) or the abstract."""
    fields = {k: v for k, v in entry.fields.items() if k.lower() not in PRIVATE_FIELDS and not is_private_field(k)}
    for name in [k for k in fields if k.lower() == "title"]:
        # Plain text, re-escaped: no markup of the record's reaches the page, and it still compiles.
        fields[name] = protect_title(dump_to_latex(to_text(fields[name])))
    for name in [k for k in fields if k.lower() == "year"]:
        # As every output prints a year (accessors.year_text): "2020a" as written, no "6" or "²⁰²⁰".
        if not (year := year_text(fields[name])):
            del fields[name]
        else:
            fields[name] = year
    return Entry(entry.type, fields=fields, persons=_honest_persons(entry, fields))


def _honest_persons(entry: Entry, fields: dict[str, str]) -> dict[str, list[Person]]:
    """The entry's people as its page states them: an owner standing in for an unknown author
    list ("Lin, Wei and others") is no first author, and a note says whom the source names."""
    persons = dict(entry.persons)
    people = persons.get("author", [])
    owners = tuple(s.owner for s in parse_provenance(lowered_fields(entry).get("provenance", "")))
    given = credit(tuple(display_name(p) for p in people if not is_others(p)), any(map(is_others, people)), owners)
    if given.note:
        key = next((k for k in fields if k.lower() == "note"), "note")
        fields[key] = "; ".join(filter(None, (fields.get(key, ""), dump_to_latex(given.note))))
        if not given.listed:
            persons.pop("author", None)
    return persons
