"""The pages' tables of contents kept packed in Sphinx's environment, unpacked when read.

Sphinx saves its whole environment at every build that read a page, and loads it at every
build. Half of it is ``env.tocs``, a small tree of docutils nodes per page, and pickling those
trees is most of the time saving it takes, while a build reads only the tocs of the pages it
writes. So ``env.tocs`` becomes a
:class:`PackedTocs`: a dict that pickles each tree into bytes of its own, which the
environment's pickle copies as they are, and unpickles one only when it is looked up. A tree
looked up (and perhaps changed: section numbers are set in place) is packed again when the
environment is saved; one never looked up keeps its bytes. Sphinx reads ``env.tocs`` by key,
``in``, ``get`` and ``pop`` only, which this dict serves unchanged (``compat.replace_tocs``).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ...compat import replace_tocs


class PackedTocs(dict[str, Any]):
    """``{docname: toc}``, each toc held as its node tree or as the bytes it pickles to."""

    def __getitem__(self, docname: str) -> Any:
        value = super().__getitem__(docname)
        if isinstance(value, bytes):
            value = pickle.loads(value)  # the environment's own pickle, which Sphinx trusts as its cache
            super().__setitem__(docname, value)
        return value

    def get(self, docname: str, default: Any = None) -> Any:
        if docname not in self:  # not dict.get, which would hand out the bytes
            return default
        return self[docname]

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return (PackedTocs, (), None, None, self._packed())

    def _packed(self) -> Iterator[tuple[str, bytes]]:
        for docname, value in super().items():
            yield docname, value if isinstance(value, bytes) else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def pack(app: Sphinx, env: BuildEnvironment, docnames: Any = None) -> None:
    """A loaded environment's tocs are packed already; a new one's (a first build) become so."""
    replace_tocs(env, PackedTocs)


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", pack)
