"""``readinglist build``'s Sphinx: ``sphinx-build`` itself, with the failures a user can cause as one line.

Sphinx meets a full disk or a read-only site folder as any other exception: 58 lines of
versions, extensions and a traceback, and a request to report a bug. The build runs
``python -m readinglist.site.sphinx_ext.command`` instead of ``python -m sphinx``: the same
arguments, the same exit status, but such a failure, and any of the tool's own errors raised in
the extension (an outside link, a failed Pagefind), is printed as ``readinglist: error: …``.
Every other exception keeps Sphinx's report: those are bugs to report.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sphinx.cmd.build import build_main

from ...compat import sphinx_exceptions_handled_by
from ...errors import ReadingListError
from ...oserrors import os_error


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and what it wraps: Sphinx's ``orig_exc``, Python's cause and context."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        found = pending.pop(0)
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        pending += [getattr(found, "orig_exc", None), found.__cause__, found.__context__]


def one_line(exc: BaseException, out: Path) -> ReadingListError | None:
    """The tool's error for ``exc`` (met writing into ``out``), or None: a bug for Sphinx to report."""
    for cause in _causes(exc):
        if isinstance(cause, ReadingListError):
            return cause
        if isinstance(cause, OSError) and (error := os_error(cause, out)) is not None:
            return error
    return None


def main(argv: Sequence[str]) -> int:
    """``sphinx-build argv``; the output folder is its last argument, as :func:`site.build.sphinx_args` puts it."""

    def wrap(report: Callable[..., None]) -> Callable[..., None]:
        def handle(exception: BaseException, **options: Any) -> None:
            error = one_line(exception, Path(argv[-1]))
            if error is None:
                report(exception, **options)
            else:
                print(f"readinglist: error: {error}", file=options.get("stderr") or sys.stderr)

        return handle

    with sphinx_exceptions_handled_by(wrap):  # in another Sphinx, its own report rather than a failed build
        return build_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
