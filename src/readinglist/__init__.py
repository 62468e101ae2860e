"""readinglist: turn paper records into an annotated, searchable Sphinx reading list."""

__version__ = "0.1.0"
