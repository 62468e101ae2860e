"""The theme's page templates, compiled once and kept between builds.

Sphinx compiles furo's Jinja templates (and ours, ``site/templates``) from their source in every
process: 0.1 s of each rebuild that writes a page (profiled at 1,000 works, where a status
change's Sphinx run is 0.9 s). Jinja's own bytecode cache keeps the compiled code beside the
doctrees, keyed by each template's name and checked against its source, so an edited template
is compiled again. Jinja writes each file whole (a temporary file, renamed), but reads a
damaged one by raising, which would fail the build: here such a file counts as none.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket
from sphinx.application import Sphinx

from ...writer import umask

FOLDER = "readinglist-templates"  # in the doctree folder (Sphinx's cache, not the site)


class _Cache(FileSystemBytecodeCache):
    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):  # cut short, or not Jinja's
            bucket.reset()  # compiled from the source, and written again

    def dump_bytecode(self, bucket: Bucket) -> None:
        super().dump_bytecode(bucket)
        # Jinja writes through a private temporary file (0600); a plain sphinx-build keeps the
        # doctrees in the output folder (readinglist build does not), whose files a static host
        # must be able to read: the umask's mode, as open() gives.
        with contextlib.suppress(OSError):
            os.chmod(self._get_cache_filename(bucket), 0o666 & ~umask())


def _keep_compiled(app: Sphinx) -> None:
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if isinstance(environment, Environment) and environment.bytecode_cache is None:
        folder = Path(app.doctreedir) / FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = _Cache(str(folder))


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _keep_compiled)
