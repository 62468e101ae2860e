"""The theme's page templates, compiled once and kept between builds.

Sphinx compiles furo's Jinja templates (and ours, ``site/templates``) from their source in every
process, about a tenth of a rebuild that writes one page. Jinja's own bytecode cache keeps the compiled code beside the
doctrees, keyed by each template's name and checked against its source, so an edited template
is compiled again. Each file is written whole (a temporary file, renamed); a damaged one (Jinja
reads it by raising, which would fail the build) counts as none.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket
from sphinx.application import Sphinx

from ...compat import template_environment
from ...writer import write_bytes_if_changed

FOLDER = "readinglist-templates"  # in the doctree folder (Sphinx's cache, not the site)


class _Cache(BytecodeCache):
    """Jinja's documented way to keep compiled templates: a ``BytecodeCache`` that loads and dumps
    a bucket (``Bucket.load_bytecode``, ``Bucket.bytecode_to_string``). Its files are written
    whole (a temporary file, renamed) with the umask's mode, as open() gives: a plain
    sphinx-build keeps the doctrees in the output folder, whose files a static host must read."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"__jinja2_{bucket.key}.cache"  # the key is a hex digest: a safe name

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            with self._path(bucket).open("rb") as kept:
                bucket.load_bytecode(kept)
        except FileNotFoundError:
            return
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):  # cut short, or not Jinja's
            bucket.reset()  # compiled from the source, and written again

    def dump_bytecode(self, bucket: Bucket) -> None:
        write_bytes_if_changed(self._path(bucket), bucket.bytecode_to_string(), durable=False)


def _keep_compiled(app: Sphinx) -> None:
    environment = template_environment(app.builder)
    if isinstance(environment, Environment) and environment.bytecode_cache is None:
        folder = Path(app.doctreedir) / FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = _Cache(folder)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _keep_compiled)
