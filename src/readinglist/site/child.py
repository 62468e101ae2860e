"""Child processes (Sphinx, Pagefind) that never outlive the command that started them.

``readinglist build`` runs Sphinx and Pagefind as children. Killed by a signal it cannot catch
(SIGKILL), the parent would leave them running, still writing the site after the next build
started. On Linux each child asks the kernel for SIGTERM when its parent dies
(``prctl(PR_SET_PDEATHSIG)``); Pagefind's launcher ``exec``s its binary, which keeps that
setting. A signal the parent does catch (SIGINT, SIGTERM: ``cli`` turns both into exceptions)
is passed on: the child gets SIGTERM, then SIGKILL if it has not exited after a while.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
GRACE = 10.0  # seconds a child gets to exit after SIGTERM before it is killed


def _ask_for_sigterm_when_orphaned() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _die_with(parent: int) -> Callable[[], None]:
    def preexec() -> None:  # runs in the child, between fork and exec
        _ask_for_sigterm_when_orphaned()
        if os.getppid() != parent:  # the parent died before prctl: no signal would ever come
            os._exit(128 + signal.SIGTERM)

    return preexec


_forks_registered = False


def forks_die_with_parent() -> None:
    """The same for the workers this process forks (Sphinx's ``-j N``); registered once per process."""
    global _forks_registered
    if sys.platform == "linux" and not _forks_registered:
        os.register_at_fork(after_in_child=_ask_for_sigterm_when_orphaned)
        _forks_registered = True


def run(args: Sequence[str], capture: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``args`` to completion; its output is captured (as text) if ``capture``.

    Call it from the main thread: the kernel's parent-death signal follows the thread that
    started the child, not the process.
    """
    preexec = _die_with(os.getpid()) if sys.platform == "linux" else None
    pipe = subprocess.PIPE if capture else None
    with subprocess.Popen(args, stdout=pipe, stderr=pipe, text=True, preexec_fn=preexec) as process:
        try:
            stdout, stderr = process.communicate()
        except BaseException:  # KeyboardInterrupt or cli's SIGTERM exception: stop the child first
            _stop(process)
            raise
    return subprocess.CompletedProcess(args, process.returncode, stdout, stderr)


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
