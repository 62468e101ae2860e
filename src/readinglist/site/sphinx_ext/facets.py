"""Search facets: the filters, sort keys and result metadata Pagefind reads from each paper page.

Each value is an empty ``<data>`` element whose ``value`` attribute Pagefind reads
(``name[value]``): valid HTML anywhere in the body, no text of its own to index, and no comma
parsing of the value (an author "Lin, Wei" stays one author). Paper pages only, so the filters
and the sorted views list papers and nothing else.

The values come from ``records.json`` (what the pages show) and the notes' front matter
(``status`` and ``tags``); the Sphinx extension puts :func:`markup` into the page context as
``readinglist_facets`` and templates/page.html prints it inside the indexed body.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import ReadingListError
from ...render.frontmatter import status_of
from ...render.notes import read_note
from ...render.registry import Search, search_of
from .records import record as record_of
from .settings import root

if TYPE_CHECKING:
    from sphinx.application import Sphinx

FILTERS = ("topic", "year", "author", "category", "venue", "status", "tag")
CONTEXT = "readinglist_facets"  # the page context's name for the markup
SEARCH_ROLE = "readinglist_search"  # the page context's name for how Pagefind treats the page


def _data(kind: str, name: str, value: str, *, shown_as_html: bool = False) -> str:
    # Pagefind (1.5) decodes a filter's value twice and its default UI inserts it into the label
    # as HTML, while metadata is decoded once and shown as text. A filter value is escaped twice
    # more, so the label reads as the record does (tests/test_search_facets.py checks in a browser).
    value = html.escape(html.escape(value)) if shown_as_html else value
    return f'<data data-pagefind-{kind}="{name}[value]" value="{html.escape(value, quote=True)}"></data>'


def facet_values(record: Mapping[str, Any], note: Mapping[str, Any], topics: Mapping[str, str]) -> dict[str, list[str]]:
    """Each filter's values for one record: ``topics`` maps topic ids to the titles readers see."""
    tags = [*_strings(record.get("keywords")), *_strings(note.get("tags"))]
    status = status_of(note.get("status"))  # skimmed, an older word, is filtered as read
    return {
        "topic": [label for labels in _topic_labels(record, topics).values() for label in labels],
        "year": [str(record["year"])] if isinstance(record.get("year"), int) else [],
        "author": _strings(record.get("authors")),
        "category": _strings(record.get("categories")),
        "venue": _strings([record.get("venue")]),
        "status": [status] if status else [],
        "tag": list(dict.fromkeys(t.strip() for t in tags if t.strip())),
    }


def markup(record: Mapping[str, Any], note: Mapping[str, Any], topics: Mapping[str, str]) -> str:
    """The hidden elements of one paper page: filters, sort keys and the metadata results show."""
    values = facet_values(record, note, topics)
    parts = [_data("filter", name, v, shown_as_html=True) for name in FILTERS for v in values[name]]
    # A result names each topic once: by its subtopics where the paper has some.
    shown = [label for labels in _topic_labels(record, topics).values() for label in labels[1:] or labels[:1]]
    meta = {"year": ", ".join(values["year"]), "authors": _credit(record), "topic": ", ".join(shown)}
    parts += [_data("meta", name, value) for name, value in meta.items() if value]
    # Pagefind leaves a page without the sort key out of a sorted view: an unknown year sorts as 0.
    sort = {"year": values["year"][0] if values["year"] else "0", "title": str(record.get("title") or "").casefold()}
    parts += [_data("sort", name, value) for name, value in sort.items() if value]
    return f'<div class="readinglist-facets" hidden>{"".join(parts)}</div>'


def _topic_labels(record: Mapping[str, Any], topics: Mapping[str, str]) -> dict[str, list[str]]:
    """Each topic's title, then its subtopics' as "Topic › Subtopic" (which sorts beside its topic
    in the filter), by topic id; ``topics`` maps topic and subtopic ids (``topic/sub``) to titles."""
    labels = {t: [topics.get(t, t)] for t in _strings(record.get("topics"))}
    for sub in _strings(record.get("subtopics")):
        parent = sub.rpartition("/")[0]
        if parent in labels:
            labels[parent].append(f"{labels[parent][0]} › {topics.get(sub, sub)}")
    return labels


def _credit(record: Mapping[str, Any]) -> str:
    """The authors as the page credits them: the listed ones, then "with" the profile owners the
    list does not name ("with Wei Lin" for a record whose source names only its owner)."""
    everyone = _strings(record.get("authors"))
    listed = _strings(record.get("listed_authors")) if "listed_authors" in record else everyone
    text = ", ".join(listed) + (" et al." if listed and record.get("et_al") else "")
    owners = ", ".join(a for a in everyone if a not in listed)
    return f"{text} (with {owners})" if text and owners else text or (f"with {owners}" if owners else "")


def _strings(value: object) -> list[str]:
    items: Sequence[object] = value if isinstance(value, list) else []
    return [item for item in items if isinstance(item, str) and item.strip()]


def note_meta(notes: Path, slug: str, root: Path | None = None) -> dict[str, Any]:
    """A note's front matter; generate has already refused a bad note (or one outside ``root``,
    the project), so a failure here means none."""
    path = notes / f"{slug}.md"
    try:
        return read_note(path, root).meta if path.is_file() else {}
    except (ReadingListError, OSError):
        return {}


def _add_facets(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    context[SEARCH_ROLE] = search_of(pagename).value  # templates/page.html marks the page by it
    if search_of(pagename) is not Search.PAPER:
        return
    record = record_of(app, pagename)
    if record is None:  # or a plain Sphinx project with a papers/ folder of its own
        return
    titles = app.env.titles
    ids = [*_strings(record.get("topics")), *_strings(record.get("subtopics"))]
    topics = {t: titles[f"topics/{t}"].astext() for t in ids if f"topics/{t}" in titles}
    note = note_meta(Path(app.srcdir) / "notes", pagename.removeprefix("papers/"), root(app))
    context[CONTEXT] = markup(record, note, topics)


def setup(app: Sphinx) -> None:
    app.connect("html-page-context", _add_facets)
