"""Sphinx configuration of this reading list: the readinglist extension sets the rest.

Site settings (title, author, base URL, graphs, charts) live in ../conf/readinglist.toml;
``readinglist.site.sphinx_ext`` loads MyST, sphinx-design, sphinx-copybutton and
sphinxcontrib-bibtex and sets what the generated pages need (its ``settings.py``). A setting
made here wins where a reading list may choose (the theme, its options, the title).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))  # this checkout's generator, installed or not
extensions = ["readinglist.site.sphinx_ext"]
