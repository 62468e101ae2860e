"""Downloadable BibTeX: a set of papers as one ``.bib`` file, and the link that offers it.

A download holds the public entries the paper pages show in their BibTeX blocks
(``citeblock.public_entry``: the refs.bib key a reader cites with, honest authors, no
bookkeeping field, no abstract), never refs.bib itself, which is hand-edited and may hold
private fields. The bibliography offers every paper; a listing can offer its own set the same way:

    path, text = bib_set("topic-vision", papers, bibtex)
    files[path] = text                       # one more generated file
    link = download_link(path, "BibTeX of this topic")   # Markdown for the page
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..model import Paper
from .escape import Md, md_text

FOLDER = "downloads"  # under docs/; the generator owns every file in it
ALL = "reading-list"  # the whole list, offered by the bibliography page
# The pybtex style the bibliography page asks for: plain, each title a link to its paper's page.
# Registered by site/biblinks.py; named here, where both the page and the site can import it.
STYLE = "readinglist"
_UNSAFE_NAME = re.compile(r"[^a-z0-9]+")


def bib_set(name: str, papers: Iterable[Paper], bibtex: dict[str, str]) -> tuple[str, str]:
    """``(path under docs/, text)`` of ``name``.bib: one public entry per paper, in the given order.

    ``bibtex`` is each paper's block by refs.bib key (``assemble.build_library``); a paper
    without one (none today) is left out rather than written empty.
    """
    entries = [bibtex[p.key].strip() for p in papers if bibtex.get(p.key, "").strip()]
    return f"{FOLDER}/{file_name(name)}", ("\n\n".join(entries) + "\n") if entries else ""


def csl_path(name: str) -> str:
    """``(path under docs/)`` of ``name``'s CSL-JSON twin (``downloads.csl_set`` writes it)."""
    return f"{FOLDER}/{file_name(name).removesuffix('.bib')}.json"


def file_name(name: str) -> str:
    """A file name any system accepts and a URL needs no escape for (``ML systems`` -> ``ml-systems.bib``)."""
    return (_UNSAFE_NAME.sub("-", name.lower()).strip("-") or "papers") + ".bib"


def download_link(path: str, label: str) -> Md:
    """A Markdown link to a file under docs/: MyST makes it a download, Sphinx copies the file into
    the site (``_downloads/``), and a missing file is a warning (so ``-W`` catches it).

    The path is written from the source root (``/downloads/…``): the same link on a page in any folder.
    """
    return Md(f"[{md_text(label) or 'BibTeX'}](/{path})")


def set_name(kind: str, ident: str) -> str:
    """``topic-ml-systems``, ``topic-ml-systems--training`` (a subtopic), ``tag-gpu``."""
    return f"{kind}-{ident.replace('/', '--')}"


def set_links(name: str, what: str, papers: Sequence[Paper]) -> Md:
    """``Download this topic: BibTeX · CSL-JSON`` (nothing for an empty set, which has no files)."""
    if not papers:
        return Md("")
    bib = download_link(f"{FOLDER}/{file_name(name)}", "BibTeX")
    return Md(f"Download {what}: {bib} · {download_link(csl_path(name), 'CSL-JSON')}")
