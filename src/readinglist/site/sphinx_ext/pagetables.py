"""Per-page tables on Sphinx's environment: what each page showed when it was read or written.

``liststatus.py`` keeps the papers whose reading status a page lists, ``pagedata.py`` the data
file a paper page shows. A page read again replaces its entry, a removed page's is dropped, a
``-j`` reader's entries are merged into the main process's; and after reading, the pages whose
entry now differs from the one they were last written with are written again, not read again.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def table(env: BuildEnvironment, name: str) -> Any:
    """The environment's table ``name`` (a dict by docname), made on first use."""
    if not isinstance(getattr(env, name, None), dict):
        setattr(env, name, {})
    return getattr(env, name)


def keep_per_page(app: Sphinx, name: str) -> None:
    """Keep the table ``name`` as pages are read: purged with a page, merged from ``-j`` readers."""

    def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        table(env, name).pop(docname, None)

    def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
        table(env, name).update({doc: kept for doc, kept in table(other, name).items() if doc in docnames})

    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)


def changed_since_written(env: BuildEnvironment, written: str, now: dict[str, Any]) -> list[str]:
    """The pages whose ``now`` differs from what they were written with (table ``written``),
    which becomes ``now``: Sphinx saves it before it writes them (a kill then is caught by
    ``generation.py``'s mark of an interrupted build, which has every page written again)."""
    before: dict[str, Any] = table(env, written)
    setattr(env, written, now)
    return sorted(doc for doc, value in now.items() if before.get(doc) != value)
