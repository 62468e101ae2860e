"""``readinglist build``: generate, then sphinx-build to HTML with warnings as errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ..config import Config
from .search import index_if_stale

SPHINX_FLAGS = ("-b", "html", "-n", "-W", "--keep-going", "-q")


def sphinx_args(config: Config, out: Path, jobs: str = "1", search: bool = True) -> list[str]:
    """The caller has generated the pages (the extension need not check its inputs again) and
    runs Pagefind itself once Sphinx has exited."""
    settings = ["-D", "readinglist_generate=0", "-D", f"readinglist_search={int(search)}"]
    settings += ["-D", "readinglist_search_later=1"]
    return [*SPHINX_FLAGS, *settings, "-j", jobs, str(config.docs_path), str(out)]


def run(config: Config, out: Path, jobs: str = "1", search: bool = True) -> int:
    """Sphinx in its own process, then Pagefind: the two never hold their memory at once
    (at 10,000 papers, 1.9 GB and 1.8 GB)."""
    sphinx = subprocess.run([sys.executable, "-m", "sphinx", *sphinx_args(config, out, jobs, search)], check=False)
    if sphinx.returncode == 0 and search:
        index_if_stale(out)
    return sphinx.returncode
