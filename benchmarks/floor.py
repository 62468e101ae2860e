"""The floor: the same paper pages as plain Sphinx builds them (myst_parser only, basic theme).

Each page holds the same title, authors and abstract as plain paragraphs, escaped the same
way, and is ``orphan: true`` like the generated paper pages. What the real site costs
beyond this is the price of its theme, extensions, cross-links and listing pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CONF = """project = "Floor"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
html_theme = "basic"
html_show_sourcelink = False
html_copy_source = False
smartquotes = False
"""
PAGE = """---
orphan: true
---

# {title}

{authors}

{abstract}
"""


def write_floor(project: Path, folder: Path) -> int:
    """Write the floor's source folder from ``project``'s refs.bib; return the number of pages."""
    from readinglist.enrich.pipeline import page_authors
    from readinglist.render.escape import md_text
    from readinglist.slugs import slugs
    from readinglist.store import bibfile

    works = bibfile.load(project / "refs.bib").works()
    names = slugs(w.key for w in works)
    (folder / "papers").mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text(CONF, encoding="utf-8")
    (folder / "index.md").write_text(f"# Floor\n\n{len(works)} papers, reached by search.\n", encoding="utf-8")
    for work in works:
        text = PAGE.format(
            title=md_text(plain(work.title)),
            authors=md_text(", ".join(plain(a) for a in page_authors(work))),
            abstract=md_text(plain(work.abstract)),
        )
        (folder / "papers" / f"{names[work.key]}.md").write_text(text, encoding="utf-8")
    return len(works)


def plain(latex: str) -> str:
    """Text of a stored field; simple escapes and braces by hand, anything else through pylatexenc (slow)."""
    from readinglist.latex import to_text

    simple = re.sub(r"\\([%&#_$])", r"\1", latex).replace("{", "").replace("}", "")
    return simple if "\\" not in simple and "$" not in simple else to_text(latex)


def build_command(source: Path, out: Path, jobs: int = 1) -> list[str]:
    """The same sphinx-build flags as ``readinglist build`` uses."""
    return [sys.executable, "-m", "sphinx", "-b", "html", "-n", "-W", "--keep-going", "-q", "-j", str(jobs),
            str(source), str(out)]  # fmt: skip
