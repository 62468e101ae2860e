"""``readinglist build``: generate, then sphinx-build to HTML with warnings as errors."""

from __future__ import annotations

from pathlib import Path

from ..config import Config

SPHINX_FLAGS = ("-b", "html", "-n", "-W", "--keep-going", "-q")


def sphinx_args(config: Config, out: Path, jobs: str = "1", search: bool = True) -> list[str]:
    """The caller has generated the pages: the extension need not check its inputs again."""
    settings = ["-D", "readinglist_generate=0", "-D", f"readinglist_search={int(search)}"]
    return [*SPHINX_FLAGS, *settings, "-j", jobs, str(config.docs_path), str(out)]


def run(config: Config, out: Path, jobs: str = "1", search: bool = True) -> int:
    from sphinx.cmd.build import build_main  # deferred: the other commands never need Sphinx

    return build_main(sphinx_args(config, out, jobs, search))
