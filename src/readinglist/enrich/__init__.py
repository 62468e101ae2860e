"""Enrichment: derive titles, topics, summaries and links from works. Pure functions."""
