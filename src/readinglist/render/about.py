"""What a paper page says to readers about its record, and what it keeps for the maintainer.

A reader needs what kind of source a record came from ("BibTeX import", "author profile of
Wei Lin"); the maintainer also needs the file and line, the citation key, why a category
was decided and where to write notes or a title. That goes into one collapsed "About this
record" block at the bottom of the page (sphinx-design's dropdown: a native ``<details>``,
opened by keyboard), so it stays out of a reader's way.
"""

from __future__ import annotations

from ..enrich.signals import NONE, RECORD_SIGNALS
from ..model import Note, Paper, Work
from ..sources import about_words
from .escape import Md, clean, directive, md_text
from .links import display_title, paper_url
from .venue import source

# enrich.categories writes its evidence as "most similar categorized papers: KEY, KEY; closest …"
# (then, if any, "; words naming a field: …", which stays text).
_NEIGHBOURS = "most similar categorized papers: "
_CLOSEST = "; closest arXiv description: "
TITLE_HINT = (
    "Title: a working title inferred from the abstract. Set title in refs.bib "
    "(or in the note's front matter) to replace it."
)


def reader_source(work: Work) -> Md:
    """Each kind of source the work came from, in words (the import formats' table, ``sources.FORMATS``)
    and without file or line."""
    parts = []
    for ref in work.sources:
        words = about_words(ref.kind)
        parts.append(f"{words} of {ref.owner}" if ref.kind == "profile" and clean(ref.owner) else words)
    return md_text("; ".join(dict.fromkeys(parts)) or "refs.bib")


def about_record(paper: Paper, by_key: dict[str, Paper], note: Note | None) -> Md:
    """The collapsed block: citation key, sources by file and line, and the maintainer's hints.

    Plain text in few paragraphs, no bold labels or code spans: every docutils node costs build time.
    """
    facts = md_text(f"Citation key: {paper.key}. Source:") + " " + source(paper.work) + md_text(".")
    hints = [TITLE_HINT] * paper.work.title_inferred + [_notes_hint(paper, note)]
    lines = [" ".join([facts, *map(md_text, hints)])]
    if paper.category_evidence:
        lines.append(category_line(paper, by_key))
    return directive("dropdown", "About this record", "\n\n".join(lines), ":class-container: readinglist-about")


def category_line(paper: Paper, by_key: dict[str, Paper]) -> Md:
    """Which signal decided the category (enrich/categories.py): the record's arXiv id, venue or
    keywords, the text, or none strong enough."""
    said = paper.category_evidence
    if said == NONE:
        return md_text(f"Category: {said}; the paper is shown uncategorized.")
    if said.startswith(RECORD_SIGNALS):
        return md_text(f"Category from {said}.")
    text = "the title and abstract" if paper.work.abstract.strip() else "the title"
    return Md(md_text(f"Category inferred from {text}; the") + " " + evidence(said, by_key) + ".")


def evidence(text: str, by_key: dict[str, Paper]) -> Md:
    """The category evidence with each neighbour's title, linked, instead of its citation key."""
    if text.startswith(_NEIGHBOURS) and _CLOSEST in text:
        items, _, closest = text[len(_NEIGHBOURS) :].rpartition(_CLOSEST)
        # Each item is "KEY (CATEGORY)"; no key holds a space (store.keys), so none holds ", " or " (".
        found = [(by_key.get(key), category.removesuffix(")")) for key, _, category in _split(items)]
        if all(paper for paper, _ in found):
            titles = ", ".join(_titled(paper, category) for paper, category in found if paper)
            return Md(f"{md_text(_NEIGHBOURS)} {titles}{md_text(_CLOSEST)} {md_text(closest)}")
    return md_text(text)


def _split(items: str) -> list[tuple[str, str, str]]:
    return [item.partition(" (") for item in items.split(", ")]


def _titled(paper: Paper, category: str) -> str:
    return f"[{md_text(display_title(paper))}]({paper_url(paper)}) " + md_text(f"({category})")


def _notes_hint(paper: Paper, note: Note | None) -> str:
    path = f"docs/notes/{paper.slug}.md"
    if note is None or not note.has_body:
        return f"Notes: none yet. Write them in {path} (plain MyST Markdown) and they appear on this page."
    return f"Notes: from {path}."
