"""Sphinx configuration of the ``hostile`` test root: the ``basic`` root's, on a record that attacks.

The test root is both the project root (conf/, refs.bib) and the Sphinx source folder:
``readinglist_root = "."`` and conf/readinglist.toml sets ``docs = "."``.
"""

project = "Test reading list"
html_title = project
author = "readinglist tests"
copyright = "the reading list's authors"

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinxcontrib.bibtex",
    "readinglist.site.sphinx_ext",
]
readinglist_root = "."

exclude_patterns = ["_build", "notes/**", "conf/**", "Thumbs.db", ".DS_Store"]
source_suffix = {".md": "markdown"}

myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 0
smartquotes = False

bibtex_bibfiles = ["refs.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "label"
bibtex_cite_id = "cite-{key}"
bibtex_tooltips = False

html_theme = "furo"
html_static_path: list[str] = []
html_show_sourcelink = False
html_copy_source = False
