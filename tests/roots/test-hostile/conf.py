"""Sphinx configuration of the ``hostile`` test root: the shipped configuration, on a record that attacks.

The test root is both the project root (conf/, refs.bib) and the Sphinx source folder:
``readinglist_root = "."`` and conf/readinglist.toml sets ``docs = "."``. Everything else is
what the extension sets for every reading list (site/sphinx_ext/settings.py).
"""

extensions = ["readinglist.site.sphinx_ext"]
readinglist_root = "."
