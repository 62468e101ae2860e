"""refs.bib, the canonical store: reading, writing, keys and importing records into it."""
