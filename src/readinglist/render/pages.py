"""All generated pages of a site, as ``{path relative to docs/: MyST text}``: what the renderers
that ``registry.KINDS`` names write, and the landing page's renderer."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..chars import strip_unsafe
from ..model import Library, Note
from . import memo, registry
from .bibliography import bibliography_files
from .charts import chart, topic_stack
from .environment import render
from .escape import Md
from .inputs import Inputs
from .links import TOPICS, plural, url, year_span
from .listings import years_page
from .workflow import progress, recent_block
from .zotero import Annotations


def site_pages(
    library: Library,
    notes: dict[str, Note],
    bibtex: dict[str, str],
    site: dict[str, str],
    about: list[str],
    graph: bool = True,
    only: Collection[str] | None = None,
    fixed: dict[str, str] | None = None,
    apart: bool | None = None,
    zotero: Mapping[str, Annotations] | None = None,
) -> dict[str, str]:
    """The arguments are :class:`Inputs`' (render/inputs.py), which each renderer is given;
    ``apart``: only the kinds whose ``apart`` is that (render/registry.py), else every kind."""
    inputs = Inputs(library, notes, bibtex, site, about, graph, only, fixed, zotero or {})
    pages: dict[str, str] = {}
    for renderer in registry.renderers(apart):
        pages.update(renderer(inputs))
    # Every value is cleaned where it is printed; this pass is the policy's last line (chars.py),
    # but for the texts the memo served: the very strings it read back from files this pass wrote.
    clean = memo.current().clean
    return {path: text if clean.get(path) is text else strip_unsafe(text) for path, text in pages.items()}


def fixed_pages(inputs: Inputs) -> dict[str, str]:
    """The year list and the bibliography: the caller's copy, if it has one (the enrichment cache)."""
    return library_pages(inputs.library, inputs.bibtex) if inputs.fixed is None else inputs.fixed


def landing_page(inputs: Inputs) -> dict[str, str]:
    return {"index.md": index_page(inputs.library, inputs.site, inputs.about, inputs.notes)}


def library_pages(library: Library, bibtex: dict[str, str]) -> dict[str, str]:
    """The pages that show no note: the same as long as the library is (the enrichment cache keeps them)."""
    pages = {"years.md": years_page(library)}
    pages.update(bibliography_files(library, bibtex))  # the page, the copy it lists, the .bib download
    return {path: strip_unsafe(text) for path, text in pages.items()}


def index_page(
    library: Library, site: dict[str, str], site_about: list[str], notes: dict[str, Note] | None = None
) -> str:
    notes = notes or {}
    meta = {slug: note.meta for slug, note in notes.items()}
    years = sorted({p.work.year for p in library.papers if p.work.year})
    span = f" · {year_span(years)}" if years else ""
    sizes = (
        plural(len(library.papers), "paper"),
        plural(len(library.topics), "topic"),
        plural(len(library.authors), "author"),
    )
    counts = " · ".join(sizes) + span
    cards = []
    for topic in library.topics:
        members = [p for p in library.papers if topic.id in p.topics]
        n, said = len(members), progress(members, meta)
        cards.append(
            {
                "title": topic.title,
                "link": Md(url(f"{TOPICS}/{topic.id}")),
                "summary": topic.description,
                "meta": plural(n, "paper") + (f" · {said}" if said else ""),
            }
        )
    crowded = max((len(c) for c in _members(library)), default=0) > CROWDED * len(library.papers)
    about = [Md(page) for page in site_about if not for_maintainers(page)]
    develop = [Md(page) for page in site_about if for_maintainers(page)]
    return render(
        "index.md.j2",
        title=site["title"],
        description=site["description"],
        counts=counts,
        hint=Md(SUGGEST_HINT) if crowded else "",
        cards=cards,
        about=about,
        develop=develop,
        chart=chart("index", "", library.papers, topic_stack(library.topics)),
        browse=[Md(page) for page in registry.menu()],
        recent=recent_block(library.papers, notes),
    )


def _members(library: Library) -> list[list[str]]:
    return [[p.key for p in library.papers if topic.id in p.topics] for topic in library.topics]


# One topic holding more of the list than this is no help to browse by (issue 25's goal for
# "General": a sixth at most); the landing page then says how to get topics that fit the list.
CROWDED = 0.4
SUGGEST_HINT = "One topic holds most of these papers: `readinglist topics --suggest` drafts topics that fit this list."


# Hand-written pages in these folders of docs/ are about the tool, not the papers: the sidebar
# lists them in a section of their own, below and apart from the reader's pages (the guide).
MAINTAINER_FOLDERS = ("develop",)


def for_maintainers(docname: str) -> bool:
    return docname.split("/")[0] in MAINTAINER_FOLDERS
