"""Rendering: papers and listings to MyST Markdown. Untrusted text is escaped by default."""
