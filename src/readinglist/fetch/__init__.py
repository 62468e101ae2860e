"""Records fetched from the network: ``byid`` (``readinglist add``: arXiv and Crossref) and the
``zotero_*`` modules (``readinglist sync zotero``).

Empty on purpose: ``cli.py`` imports ``zotero_cli`` on every command to build its parser, and an
import here would load urllib and ssl for every command.
"""
