import os
import sys

from .cli import console

status = console()
if status == 130:  # interrupted (cli.main answers Ctrl-C with 130 and one line)
    # A Ctrl-C that lands while a dataclass or namedtuple is being defined (their methods are
    # exec'd strings) makes CPython, under ``python -m``, end the process by SIGINT after the
    # SystemExit, whatever the code returned. Everything is cleaned up by now: exit directly.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
sys.exit(status)
