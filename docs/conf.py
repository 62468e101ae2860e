"""Sphinx configuration for the reading list. Site settings live in ../conf/readinglist.toml."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # use this checkout's generator, installed or not

_site = tomllib.loads((ROOT / "conf" / "readinglist.toml").read_text(encoding="utf-8")).get("site", {})

project = _site.get("title", "Reading list")
html_title = project
author = _site.get("author", "") or "readinglist"
copyright = "the reading list's authors"

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinxcontrib.bibtex",
    "readinglist.site.sphinx_ext",
]
readinglist_root = ".."

exclude_patterns = ["_build", "notes/**", "Thumbs.db", ".DS_Store"]
source_suffix = {".md": "markdown"}

# Record text is data: no raw HTML, no typographic rewriting of what a record says.
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 0
# Math is rendered to MathML at build time by the readinglist extension (no JavaScript).
html_math_renderer = "mathml"
smartquotes = False

# The generator writes a sanitized copy of ../refs.bib, keyed by page name.
bibtex_bibfiles = ["bibliography.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "label"
# Paper pages link to their entry as bibliography.html#cite-<page name>. No hover tooltips: they
# would format every entry a second time on every build.
bibtex_cite_id = "cite-{key}"
bibtex_tooltips = False

html_theme = "furo"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": True,
    "top_of_page_buttons": ["view"],
}
html_show_sourcelink = False
html_copy_source = False
html_baseurl = _site.get("base_url", "")
