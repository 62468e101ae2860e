"""``python -m readinglist.site.sphinx_ext.run``: sphinx-build as ``readinglist build`` runs it.

The same command as ``python -m sphinx``, but a process that exits as soon as its build is
done. A Sphinx process ends holding its environment, millions of objects in reference cycles
(at 1,000 papers, a no-op build loads them all), and Python's last garbage collection walks
them only to free memory the operating system frees anyway: 1 s of a 2 s no-op rebuild at
1,000 papers. Frozen, they are left to the operating system. Every file Sphinx writes is
closed by then (its writers use ``with``, the warnings file is closed by ``build_main``).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

from sphinx.cmd.build import main

MODULE = __name__  # what ``site/build.py`` runs with ``-m``


def run(argv: Sequence[str]) -> int:
    status = main(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()  # the collector skips frozen objects, at exit too
    return status


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
