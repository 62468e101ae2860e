"""Child processes (Sphinx, Pagefind) that never outlive the command that started them.

``readinglist build`` runs Sphinx and Pagefind as children. Killed by a signal it cannot catch
(SIGKILL), the parent would leave them running, still writing the site after the next build
started. On Linux each child asks the kernel for SIGTERM when its parent dies
(``prctl(PR_SET_PDEATHSIG)``); Pagefind's launcher ``exec``s its binary, which keeps that
setting. A signal the parent does catch (SIGINT, SIGTERM: ``cli`` turns both into exceptions)
is passed on: the child gets SIGTERM, then SIGKILL if it has not exited after a while.
A forked copy of the process that computes part of a render (:class:`Forked`) asks for the same.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import IO, Generic, NoReturn, TypeVar

T = TypeVar("T")
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
GRACE = 10.0  # seconds a child gets to exit after SIGTERM before it is killed
POLL = 0.005  # seconds between looks at children running side by side


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
    return wait(start(args, capture))


def start(args: Sequence[str], capture: bool = False, pass_fds: Sequence[int] = ()) -> subprocess.Popen[str]:
    """Start ``args`` (from the main thread, as :func:`run`); :func:`wait` for it."""
    preexec = _die_with(os.getpid()) if sys.platform == "linux" else None
    pipe = subprocess.PIPE if capture else None
    return subprocess.Popen(args, stdout=pipe, stderr=pipe, text=True, preexec_fn=preexec, pass_fds=pass_fds)


def wait(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    with process:
        try:
            stdout, stderr = process.communicate()
        except BaseException:  # KeyboardInterrupt or cli's SIGTERM exception: stop the child first
            _stop(process)
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def run_each(commands: Sequence[Sequence[str]], jobs: int) -> list[subprocess.CompletedProcess[str]]:
    """Run each command to completion, at most ``jobs`` at a time, output captured; results in order.

    Output goes to temporary files, not pipes: a child blocked on a full pipe that nobody reads
    would never exit. Call it from the main thread, as :func:`run`.
    """
    with ExitStack() as files:
        outputs: list[tuple[IO[str], IO[str]]] = [
            (files.enter_context(tempfile.TemporaryFile("w+")), files.enter_context(tempfile.TemporaryFile("w+")))
            for _ in commands
        ]
        codes = _run_side_by_side(commands, outputs, jobs)
        return [
            subprocess.CompletedProcess(args, code, *map(_read, out))
            for args, code, out in zip(commands, codes, outputs, strict=True)
        ]


def _run_side_by_side(
    commands: Sequence[Sequence[str]],
    outputs: list[tuple[IO[str], IO[str]]],
    jobs: int,
) -> list[int]:
    preexec = _die_with(os.getpid()) if sys.platform == "linux" else None
    pending, running, codes = list(range(len(commands))), dict[int, subprocess.Popen[str]](), [0] * len(commands)
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                at = pending.pop(0)
                out, err = outputs[at]
                running[at] = subprocess.Popen(commands[at], stdout=out, stderr=err, text=True, preexec_fn=preexec)
            for at in [at for at, process in running.items() if process.poll() is not None]:
                codes[at] = running.pop(at).returncode
            time.sleep(POLL if running else 0)
    except BaseException:  # as run: stop the children first
        for process in running.values():
            _stop(process)
        raise
    return codes


def _read(file: IO[str]) -> str:
    file.seek(0)
    return file.read()


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def can_fork() -> bool:
    """:class:`Forked` is for Linux, where ``fork`` is cheap and the parent-death signal exists."""
    return sys.platform == "linux" and hasattr(os, "fork")


class Forked(Generic[T]):
    """``work()`` run in a forked copy of this process while this one goes on (:func:`can_fork`).

    The copy only computes: it sends back its pickled result through a temporary file (not a
    pipe, as :func:`run_each`: it never blocks on a reader that has gone), writes nothing else,
    gets SIGTERM when this process dies, and ends with ``os._exit`` (no atexit handler, none of
    this process's buffers written twice). Any failure in it is a ``None`` result, and the
    caller then does the work itself: the copy is only ever a shortcut. Call it from a process
    with no other threads (a command line's), as ``fork`` requires.
    """

    def __init__(self, work: Callable[[], T]) -> None:
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 (closed by result or cancel)
        parent = os.getpid()
        self._pid = os.fork()
        if self._pid == 0:
            _in_fork(work, self._out, parent)

    def result(self) -> T | None:
        """Wait for the copy: its result, or None if it failed."""
        _, status = os.waitpid(self._pid, 0)
        with self._out:
            if status != 0:
                return None
            self._out.seek(0)
            try:
                found: T = pickle.load(self._out)  # written by this very program, a moment ago
            except Exception:
                return None
            return found

    def cancel(self) -> None:
        """Stop the copy: the caller failed before it asked for the result."""
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
        self._out.close()


@contextlib.contextmanager
def beside(work: Callable[[], T], wanted: bool = True) -> Iterator[Forked[T] | None]:
    """``work()`` in a :class:`Forked` copy while the body runs, or None when ``wanted`` is false,
    there is no fork (:func:`can_fork`) or none to be had (no memory, a process limit): the
    caller then does the work itself. A body that fails stops the copy."""
    helper = None
    if wanted and can_fork():
        with contextlib.suppress(OSError):
            helper = Forked(work)
    try:
        yield helper
    except BaseException:
        if helper is not None:
            helper.cancel()
        raise


def _in_fork(work: Callable[[], object], out: IO[bytes], parent: int) -> NoReturn:
    code = 1
    try:
        _ask_for_sigterm_when_orphaned()
        if os.getppid() == parent:  # else the parent died before prctl: no signal would ever come
            pickle.dump(work(), out, pickle.HIGHEST_PROTOCOL)
            out.flush()
            code = 0
    except BaseException:  # the parent sees the status and does the work itself
        pass
    os._exit(code)
