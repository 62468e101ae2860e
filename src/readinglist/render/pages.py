"""All generated pages of a site, as ``{path relative to docs/: MyST text}``."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..chars import strip_unsafe
from ..enrich.pipeline import Library, work_credit
from ..model import Paper
from .authors import author_pages, author_urls
from .bibliography import BIBFILE, sanitized_bib
from .environment import render
from .escape import Md
from .links import PAPERS, TOPICS, display_title, link_list, newest_first, one_line, paper_url, plural, url
from .notes import Note
from .paper import paper_page


def site_pages(
    library: Library, notes: dict[str, Note], bibtex: dict[str, str], site: dict[str, str], about: list[str]
) -> dict[str, str]:
    """``about`` are the hand-written pages (docnames) the landing page's "About" menu lists."""
    by_key = library.by_key()
    authors = author_urls(library)
    pages = {
        f"{PAPERS}/{p.slug}.md": paper_page(p, by_key, notes.get(p.slug), bibtex.get(p.key, ""), library, authors)
        for p in library.papers
    }
    pages.update(topic_pages(library))
    pages.update(author_pages(library))
    pages["years.md"] = years_page(library)
    pages["bibliography.md"] = render("bibliography.md.j2", count=len(library.papers))
    pages[BIBFILE] = sanitized_bib(library)
    pages["index.md"] = index_page(library, site, about)
    # Every value is cleaned where it is printed; this pass is the policy's last line (chars.py).
    return {path: strip_unsafe(text) for path, text in pages.items()}


def card(paper: Paper) -> dict[str, Any]:
    work = paper.work
    given = work_credit(work)  # as the paper page says it: no first author the source never gave
    meta = ", ".join(given.listed[:3]) + (" et al." if len(given.listed) > 3 or work.et_al else "")
    if not given.listed and given.with_:
        meta = "with " + ", ".join(given.with_)
    return {
        "link": Md(paper_url(paper)),
        "title": display_title(paper),
        "meta": f"{work.year or 'Year unknown'} · {meta}",
        "summary": one_line(paper.tldr),
    }


def topic_pages(library: Library) -> dict[str, str]:
    pages = {}
    for topic in library.topics:
        members = newest_first([p for p in library.papers if topic.id in p.topics])
        pages[f"{TOPICS}/{topic.id}.md"] = render(
            "topic.md.j2",
            label=Md(f"topic-{topic.id}"),
            title=topic.title,
            description=topic.description,
            count=f"{plural(len(members), 'paper')}, newest first.",
            cards=[card(p) for p in members],
        )
    pages[f"{TOPICS}/index.md"] = render("topics_index.md.j2", topics=[Md(t.id) for t in library.topics])
    return pages


def years_page(library: Library) -> str:
    groups: dict[int | None, list[Paper]] = defaultdict(list)
    for paper in library.papers:
        groups[paper.work.year].append(paper)
    order = sorted(groups, key=lambda y: (y is None, -(y or 0)))
    sections = [
        {
            "heading": str(year) if year else "Year unknown",
            "items": link_list([(p, "") for p in sorted(groups[year], key=lambda p: p.key)], years=False),
        }
        for year in order
    ]
    return render(
        "listing.md.j2",
        orphan=False,
        label=Md("years"),
        title="By year",
        intro="Papers by year of publication, newest first. Records whose source gives no year come last.",
        sections=sections,
    )


def index_page(library: Library, site: dict[str, str], site_about: list[str]) -> str:
    years = sorted({p.work.year for p in library.papers if p.work.year})
    span = f" · {years[0]}–{years[-1]}" if years else ""
    counts = f"{len(library.papers)} papers · {len(library.topics)} topics · {len(library.authors)} authors{span}"
    cards = []
    for topic in library.topics:
        n = sum(topic.id in p.topics for p in library.papers)
        cards.append(
            {
                "title": topic.title,
                "link": Md(url(f"{TOPICS}/{topic.id}")),
                "summary": topic.description,
                "meta": plural(n, "paper"),
            }
        )
    about = [Md(page) for page in site_about]
    return render(
        "index.md.j2", title=site["title"], description=site["description"], counts=counts, cards=cards, about=about
    )
