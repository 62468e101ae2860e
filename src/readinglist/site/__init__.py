"""The site: generating docs/ from refs.bib, the Sphinx adapter, and building HTML."""
