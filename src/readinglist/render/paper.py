"""The page of one paper."""

from __future__ import annotations

from functools import partial

from .. import arxiv_categories
from ..enrich.credit import work_credit
from ..enrich.signals import NONE, RECORD_SIGNALS
from ..model import Library, Link, Note, Paper, Work
from . import zotero as _zotero
from .about import about_record, reader_source
from .authors import author_urls, shown_names
from .cite import citation, cite_menu
from .environment import render
from .escape import Md, clean, data_file, data_ref, directive, md_text, safe_token
from .graph import paper_graph
from .inputs import Inputs
from .latexmd import latex_to_md
from .links import PAPERS, TOPICS, UNTITLED, display_title, json_string, link_items, one_line, url
from .memo import current, key_of
from .reading import tag_link
from .registry import data_name
from .venue import extra_of, keywords_of, kind, links, venue
from .workflow import reading_line


def paper_pages(inputs: Inputs) -> dict[str, str]:
    """Every paper's page and data file, or only those of ``inputs.only``."""
    library, only = inputs.library, inputs.only
    by_key, authors = library.by_key(), author_urls(library)
    topics = key_of(library.topics)
    files: dict[str, str] = {}
    for p in library.papers:
        if only is None or p.slug in only:
            note, bibtex = inputs.notes.get(p.slug), inputs.bibtex.get(p.key, "")
            extras = _zotero.of(p.work, inputs.zotero)
            files |= _kept_page(p, by_key, note, bibtex, library, authors, inputs.graph, topics, extras)
    return files


def _kept_page(
    paper: Paper,
    by_key: dict[str, Paper],
    note: Note | None,
    bibtex: str,
    library: Library,
    authors: dict[str, str],
    graph: bool,
    topics: str,
    extras: _zotero.Annotations,
) -> dict[str, str]:
    """The page and its data file, or the last generate's if they read the same (render/memo.py):
    the paper, its note's front matter, its BibTeX, its authors' ids and pages, the topics, its
    Zotero item's notes and highlights, and the papers it looks up."""
    memo = current()
    credit = work_credit(paper.work)
    ids = [
        (n, library.author_ids.get(n), authors.get(library.author_ids.get(n, "")))
        for n in (*credit.listed, *credit.with_)
    ]
    noted = None if note is None else (sorted(note.meta.items()), note.has_body, note.body_line)
    key = key_of(memo.digest(paper), noted, bibtex, ids, topics, graph, extras)
    make = partial(
        paper_page, paper, note=note, bibtex=bibtex, library=library, authors=authors, graph=graph, zotero=extras
    )
    name = f"{PAPERS}/{paper.slug}.md"

    def files(seen: dict[str, Paper]) -> dict[str, str]:
        data = related_data(paper, seen, graph)  # once: the page's blocks name what it holds
        return {name: make(by_key=seen, data=data), data_name(paper.slug): data_file(data)}

    return memo.page(name, key, paper.key, by_key, files)


def related_data(paper: Paper, by_key: dict[str, Paper], graph: bool = True) -> dict[str, object]:
    """What the page's related section shows: its versions, its related papers, its graph. In
    a data file of its own, not in its Markdown: a new paper changes the related lists of
    dozens of other papers, and Sphinx then writes their pages again without reading them."""
    return {
        "versions": link_items([(by_key[k], why) for k, why in _versions(paper) if k in by_key]),
        "related": link_items([(by_key[link.key], link.reason) for link in _non_version(paper) if link.key in by_key]),
        "graph": paper_graph(paper, by_key) if graph else None,
    }


def paper_page(
    paper: Paper,
    by_key: dict[str, Paper],
    note: Note | None,
    bibtex: str,
    library: Library,
    authors: dict[str, str],
    graph: bool = True,
    data: dict[str, object] | None = None,
    zotero: _zotero.Annotations | None = None,
) -> str:
    """``authors``: author id -> URL of the author's section; ``graph``: draw the related-work graph;
    ``data``: the page's ``related_data``, if the caller made it already; ``zotero``: its Zotero
    item's notes and highlights (``Inputs.zotero``)."""
    work = paper.work
    extras = zotero or _NONE
    marks = extras.marks()  # highlights by the summary field their colour stands for
    data = related_data(paper, by_key, graph) if data is None else data
    title = latex_to_md(work.title, "title")
    abstract = latex_to_md(work.abstract, "abstract")
    footnotes = title.footnotes + abstract.footnotes
    return render(
        "paper.md.j2",
        meta_description=json_string(one_line(paper.tldr, 40) or display_title(paper)),
        title=Md(title.md) if title.plain else UNTITLED,
        title_inferred=work.title_inferred,
        badges=_badges(paper, note),
        **_credit(paper, library, authors),
        year=str(work.year) if work.year else "unknown",
        kind=kind(work),
        venue=venue(work),
        links=links(work),
        source=reader_source(work),
        tags=", ".join(keywords_of(work)),
        topics=_topic_links(paper, library),
        tldr=paper.tldr,
        **_summary(paper, marks),
        abstract=_abstract(abstract.md),
        footnotes=[Md(f"[^{label}]: {text}") for label, text in footnotes],
        notes=_notes(paper, note),
        zotero=_zotero.section(extras),  # "From Zotero": notes, and highlights no summary field shows
        system=paper.system,
        versions=data_ref("readinglist-links", "versions") if data["versions"] else "",
        related=data_ref("readinglist-links", "related") if data["related"] else "",
        graph=data_ref("readinglist-graph", "graph") if data["graph"] else "",
        # A link, not {cite:p}: sphinxcontrib-bibtex resolves each citation by scanning all of them.
        cite=Md(f"This paper's entry in the [bibliography]({url('bibliography', f'cite-{paper.slug}')})."),
        cite_menu=cite_menu(citation(work, _parents(work, by_key), bibtex)),
        about=about_record(paper, by_key, note),
    )


_NONE = _zotero.Annotations()
_LINES = ("Problem", "Approach")  # the brief's lines a highlight may stand under (a result is a key result)


def _summary(paper: Paper, marks: dict[str, list[Md]]) -> dict[str, object]:
    """The summary's lines, each with the highlights of its field (``marks``, by field label) as
    list items below it; the key results with theirs; then the fields no line shows, in the
    order of the brief and then as ``conf/zotero.toml`` names them."""
    marks = dict(marks)
    brief = [(label, line, _items(marks.pop(label, []))) for label, line in paper.brief.lines()]
    results = [r for r in paper.key_results if r != paper.brief.result]  # the result line is not repeated
    results += marks.pop(_zotero.FIELDS["key results"], [])
    rest = sorted(marks, key=lambda label: _LINES.index(label) if label in _LINES else len(_LINES))  # stable
    return {"brief": brief, "key_results": results, "highlighted": [(label, _items(marks[label])) for label in rest]}


def _items(marks: list[Md]) -> Md:
    """List items to follow a summary line (nothing when there are none: the line is as it was)."""
    return Md("".join(f"\n- {mark}" for mark in marks))


def _abstract(md: str) -> Md | str:
    """The abstract, open below the summary; readinglist-a11y.js closes it on a phone's screen,
    where the summary lines would otherwise be all that fits."""
    if not md:
        return "The source gives no abstract."
    return directive("dropdown", "Full abstract", md, ":open:\n:class-container: readinglist-abstract")


def _credit(paper: Paper, library: Library, authors: dict[str, str]) -> dict[str, object]:
    """The author line: the listed authors, then the owners the source attributes it to apart."""
    credit = work_credit(paper.work)
    shown, more = shown_names([n for n in credit.listed if clean(n)])  # of 5,000, the first few
    names = [_author(n, library, authors) for n in shown] + [md_text(f"and {more:,} others")] * bool(more)
    with_ = [_author(n, library, authors) for n in credit.with_ if clean(n)]
    return {
        "authors": Md(", ".join(names)),
        "et_al": credit.et_al,
        "with_authors": Md(", ".join(with_)),
        "gap": credit.gap,
    }


def _author(name: str, library: Library, authors: dict[str, str]) -> str:
    return f"[{md_text(name)}]({authors[library.author_ids[name]]})"


def _why_inferred(evidence: str) -> str:
    """The badge line's note: where a category the source does not state came from ("from the
    venue: CVPR"), or that it is a guess from the text."""
    if evidence.startswith(RECORD_SIGNALS):
        return "(from " + evidence.replace(" (", ": ", 1).removesuffix(")") + ")"
    return "(inferred: the source gives no category)"


def _badges(paper: Paper, note: Note | None) -> Md:
    role = "bdg-secondary-line" if paper.categories_inferred else "bdg-primary"
    names = arxiv_categories.names()
    badges = []
    for c in paper.categories:
        badge = f"{{{role}}}`{c}`" if safe_token(c) else md_text(c)
        badges.append(badge + (f" {md_text(names[c])}" if c in names else ""))
    line = " · ".join(badges)
    if paper.categories_inferred and badges:  # why: in "About this record"
        line += " " + md_text(_why_inferred(paper.category_evidence))
    elif not badges and paper.category_evidence == NONE:  # no guess is better than a wrong one
        line = md_text("Uncategorized: nothing in the record names a field clearly enough")
    reading = reading_line(note.meta, tag_link) if note else ""  # status, tags, rating: render/workflow.py
    return Md("\n\n".join(part for part in (line, reading) if part))


def _parents(work: Work, by_key: dict[str, Paper]) -> dict[str, Work]:
    """The work a ``crossref`` names, which lends the citation its fields (not a copy of all works)."""
    parent = by_key.get(extra_of(work, "crossref"))
    return {parent.key: parent.work} if parent else {}


def _notes(paper: Paper, note: Note | None) -> Md:
    """The note's body; nothing when there is no note (the hint is in "About"). Its status and
    tags are under the title, with the category badges."""
    if note is None or not note.has_body:
        return Md("")
    return Md(f"```{{include}} ../notes/{paper.slug}.md\n:start-line: {note.body_line}\n```")


def _versions(paper: Paper) -> list[tuple[str, str]]:
    """Each version's key and why it is one ("identical title, 2020 and 2021"), from its link."""
    why = {link.key: link.reason for link in paper.related}
    return [(key, why.get(key, "")) for key in paper.versions]


def _non_version(paper: Paper) -> list[Link]:
    return [link for link in paper.related if link.key not in paper.versions]


def _topic_links(paper: Paper, library: Library) -> Md:
    """Each topic, then the subtopics the paper is in ("Topic › Subtopic"), each linked to its page."""
    topics = {t.id: t for t in library.topics} | {s.id: s for t in library.topics for s in t.subtopics}
    parts = []
    for topic_id in paper.topics:
        subs = [s for s in paper.subtopics if s.startswith(f"{topic_id}/") and s in topics]
        link = f"[{md_text(topics[topic_id].title)}]({url(f'{TOPICS}/{topic_id}')})"
        parts += [f"{link} › [{md_text(topics[s].title)}]({url(f'{TOPICS}/{s}')})" for s in subs] or [link]
    return Md(", ".join(parts))
