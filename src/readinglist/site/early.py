"""Sphinx started before the pages are generated, held until they are complete.

Most of a small rebuild's Sphinx time comes before it reads a page: importing itself and the
extensions, loading its environment (0.85 s of 1.7 s after a status change at 1,000 works).
None of that depends on the pages: a plain ``sphinx-build`` generates them only at
``builder-inited`` (``sphinx_ext/generation.py``). So ``readinglist build`` starts Sphinx
first, and the extension waits at ``builder-inited`` for one byte on a pipe, written once the
pages are generated and the site is known to need a build. Sphinx's start-up and the
generator share the two cores. When no build follows (nothing changed, or generating failed)
the waiting Sphinx is stopped: until it has the byte it has written nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

from . import child

# sphinx-build, with a full disk or the tool's own errors as one line (sphinx_ext/command.py)
SPHINX = "readinglist.site.sphinx_ext.command"
SETTING = "readinglist_wait_fd"  # the read end of the pipe, in the Sphinx process
GO = b"1"


class Sphinx:
    """One Sphinx run of ``argv`` (sphinx-build's arguments), started early or when asked for."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = [sys.executable, "-m", SPHINX, *argv]
        self._process: subprocess.Popen[str] | None = None
        self._go: int | None = None  # the write end of the pipe, while Sphinx waits on it

    def start(self) -> None:
        """Start Sphinx now, to wait at ``builder-inited`` until :meth:`result` lets it go on."""
        if self._process is not None:
            return
        read, self._go = os.pipe()
        try:
            argv = [*self.argv[:3], "-D", f"{SETTING}={read}", *self.argv[3:]]
            self._process = child.start(argv, pass_fds=(read,))
        finally:
            os.close(read)  # the child holds its own copy: an exit of either side closes the pipe

    def result(self) -> subprocess.CompletedProcess[str]:
        """Let a started Sphinx read the pages, or run it now; wait for it."""
        if self._process is None:
            return child.run(self.argv)
        self._release(GO)
        return child.wait(self._process)

    def cancel(self) -> None:
        """No build after all (nothing changed, or generating failed): stop a waiting Sphinx.

        Stopped, not left to find the pipe closed: a no-op build would wait for its start-up."""
        if self._go is not None and self._process is not None:
            self._release(b"")
            self._process.terminate()
            child.wait(self._process)

    def _release(self, message: bytes) -> None:
        assert self._go is not None
        try:
            if message:
                os.write(self._go, message)
        except BrokenPipeError:  # Sphinx has exited already (its conf.py failed): its status says why
            pass
        finally:
            os.close(self._go)
            self._go = None
