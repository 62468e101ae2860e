"""Upstream contracts: every use of another project's private API, and every patch of one, in one place.

Each entry says what it relies on (the upstream symbol and the versions it was seen to work
with) and has a test in ``tests/test_compat.py`` that fails, naming the entry, when the upstream
changes. ``pyproject.toml`` bounds the versions; CI runs the fast suite at the lowest and the
highest allowed. Where a public API does the job, it is used instead and the entry is gone
(Jinja's bytecode cache file names) or says so.

Sphinx and docutils are imported only inside the functions that need them: every stage may
import this module, and only the Sphinx adapter may load Sphinx (``tests/test_layers.py``).
The other entries take the upstream's objects as arguments, duck-typed.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

# --- pybtex 0.25 to 0.26 ---------------------------------------------------------------------

# ``LowLevelParser``, the scanner ``pybtex.database.parse_string`` runs (no documented API), as
# ``PybtexScanner`` (below: imported when first asked for, so that a command that reads no BibTeX
# never loads pybtex). ``sources/bibscan.Scanner``, ``sources/bounds.BoundedValues`` and
# ``store/names`` subclass it: they override its hooks and read its state, as named here.
SCANNER_HOOKS = (
    "parse_command", "parse_entry_body", "parse_entry_fields", "parse_string_body", "parse_value",
    "substitute_macro", "skip_to", "required", "optional",
)  # fmt: skip
SCANNER_STATE = (
    "text", "pos", "lineno", "macros", "command_start", "current_entry_key", "current_field_name", "current_value",
)  # fmt: skip
SCANNER_TOKENS = ("AT", "COMMA", "RPAREN", "KEY_PAREN", "KEY_BRACE")


def parse_with(parser: Any, scanner: type[Any], text: str) -> Any:
    """``parser.parse_string(text)`` (a ``pybtex.database.input.bibtex.Parser``) scanning with
    ``scanner`` in place of ``LowLevelParser``: pybtex's own ``Parser.parse_string`` (0.24 to
    0.26, line for line), which has no way to choose the scanner. Its state: the counter of
    unnamed entries, ``command_start``, and the scanner's keyword arguments."""
    parser.unnamed_entry_counter = 1
    parser.command_start = 0
    entries = scanner(
        text,
        keyless_entries=parser.keyless_entries,
        handle_error=parser.handle_error,
        want_entry=parser.data.want_entry,
        filename=parser.filename,
        macros=parser.macros,
    )
    for entry_type, body in entries:
        if entry_type.lower() == "preamble":
            parser.process_preamble(*body)
        elif entry_type.lower() != "string":
            parser.process_entry(entry_type, *body)
    return parser.data


@contextlib.contextmanager
def pybtex_strict() -> Iterator[None]:
    """pybtex raising its errors rather than printing them, for this block only.

    ``pybtex.errors.strict`` is one switch for the whole process (``set_strict_mode``, public):
    it was set and never put back, which changed pybtex for any other code of the process."""
    import pybtex.errors

    before = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)
    try:
        yield
    finally:
        pybtex.errors.set_strict_mode(before)


def text_ignores_label(style: type[Any]) -> bool:
    """Whether ``style`` formats an entry's text the same under any label: true when it keeps
    ``BaseStyle.format_entry``, which (0.25 to 0.26) only hands the label on to the
    ``FormattedEntry``. ``site/sphinx_ext/bibcache.py`` then leaves the label out of its key."""
    from pybtex.style.formatting import BaseStyle

    return bool(style.format_entry is BaseStyle.format_entry)


def register_pybtex_plugin(group: str, name: str, plugin: Any) -> None:
    """``plugin`` found by name in ``group`` for the whole process, in place of what was there.

    Public (``pybtex.plugin.register_plugin(..., force=True)``); a runtime plugin is looked up
    before the entry points, whose scan cost 10 ms a lookup (``sphinx_ext/bibliography.py``)."""
    import pybtex.plugin

    pybtex.plugin.register_plugin(group, name, plugin, force=True)


def __getattr__(name: str) -> Any:
    """``PybtexScanner``, pybtex's ``LowLevelParser``, loaded on first use."""
    if name == "PybtexScanner":
        from pybtex.database.input.bibtex import LowLevelParser

        return LowLevelParser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- Sphinx 8.2 to 9.0 -----------------------------------------------------------------------


# BuildEnvironment's attributes the adapter reads besides its documented ones (found_docs,
# doc2path, docname): every page (links.py, graphnode.py, jsonlines.py), their titles (links.py,
# facets.py) and the toctrees' children (navigation.py). Read directly, as extensions do; named
# here so that a test sees one go.
ENV_ATTRIBUTES = ("all_docs", "titles", "toctree_includes", "found_docs")


def kept_doctrees(env: Any) -> dict[str, Any] | None:
    """``BuildEnvironment._write_doc_doctree_cache`` (Sphinx 7.3 on, private): the doctrees read
    in this build, kept until written, oldest first. None in a Sphinx without it: then nothing
    is bounded (``sphinx_ext/memory.py``)."""
    found = getattr(env, "_write_doc_doctree_cache", None)
    return found if isinstance(found, dict) else None


def user_set(config: Any, name: str) -> bool:
    """Whether conf.py (``Config._raw_config``, private, Sphinx 7.3 on: conf.py's namespace) or
    ``-D`` (``Config.overrides``) sets ``name``; Sphinx has no public way to tell a value set to
    its default from one left unset (``sphinx_ext/settings.py``)."""
    raw: dict[str, Any] = getattr(config, "_raw_config", {})
    overrides: dict[str, Any] = getattr(config, "overrides", {})
    return name in raw or name in overrides


@contextlib.contextmanager
def sphinx_exceptions_handled_by(wrap: Callable[[Callable[..., None]], Callable[..., None]]) -> Iterator[bool]:
    """Within the block, ``sphinx.cmd.build.build_main`` reports an exception with ``wrap(report)``,
    ``report`` being Sphinx's own reporter. Relies on ``sphinx._cli.util.errors.handle_exception``
    (private, Sphinx 8.2 to 9.0; 8.1 kept its own in ``sphinx.cmd.build``), which ``build_main``
    looks up at each call; there is no public hook. Yields False, changing nothing, in a Sphinx
    without it (``sphinx_ext/command.py``)."""
    errors: Any
    try:
        from sphinx._cli.util import errors
    except ImportError:
        errors = None
    report = getattr(errors, "handle_exception", None)
    if report is not None:
        setattr(errors, "handle_exception", wrap(report))  # noqa: B010  # a private name: no attribute typed
    try:
        yield report is not None
    finally:
        if report is not None:
            setattr(errors, "handle_exception", report)  # noqa: B010


def replace_tocs(env: Any, kind: type[dict[str, Any]]) -> None:
    """``env.tocs`` (``{docname: bullet_list}``, undocumented) made a ``kind``, a dict subclass.

    Sphinx (8.2 to 9.0) uses it only by key, ``in``, ``get`` and ``pop``, never by iterating it,
    so a dict that changes how its values are held and pickled serves it (``sphinx_ext/packedtocs.py``)."""
    if not isinstance(env.tocs, kind):
        env.tocs = kind(env.tocs)


class _MadeEachBuild(list[Any]):
    """A list pickled empty: its items are made again by every build."""

    def __reduce__(self) -> tuple[type[list[Any]], tuple[()]]:
        return (list, ())


def citations_not_saved(env: Any) -> None:
    """sphinxcontrib-bibtex's citations (``env.domaindata["cite"]["citations"]``, 2.7) left out
    of the environment Sphinx saves: ``BibtexDomain.env_updated`` clears and makes them again at every
    build, and they were a quarter of it (11.7 of 47 MB at 10,000 works). Call after its env-updated."""
    data = env.domaindata.get("cite")
    if isinstance(data, dict) and type(data.get("citations")) is list:
        data["citations"] = _MadeEachBuild(data["citations"])


def no_sphinx_search_index(builder: Any) -> None:
    """``StandaloneHTMLBuilder.search`` (undocumented, 8.2 to 9.0) off: no ``searchindex.js``, whose
    indexer reads every page; the site's search is Pagefind (``sphinx_ext/searchindex.py``)."""
    builder.search = False


def section_level(translator: Any) -> int:
    """The heading level of the section being written: docutils' ``HTMLTranslator.section_level``
    (undocumented, 0.21.2 to 0.22), for card headings under it (``sphinx_ext/cardlist.py``)."""
    return int(translator.section_level)


def template_environment(builder: Any) -> Any:
    """The Jinja ``Environment`` an HTML builder renders its theme's templates with: the
    ``environment`` of its ``templates`` (Sphinx's ``BuiltinTemplateLoader``, undocumented, 8.2 to
    9.0); None for a builder without one (``sphinx_ext/templatecache.py`` gives it a bytecode cache)."""
    return getattr(getattr(builder, "templates", None), "environment", None)


FORMATTER = "_readinglist_formatter"  # our attribute on Sphinx's PygmentsBridge, which lives as long as the builder


def shared_formatter(bridge: Any) -> Any:
    """One Pygments HTML formatter per build, kept on Sphinx's ``PygmentsBridge`` (an attribute of
    ours on its object; ``get_formatter`` makes a new one, with its style's whole stylesheet, for
    each code block: ``sphinx_ext/citetabs.py``)."""
    made = getattr(bridge, FORMATTER, None)
    if made is None:
        made = bridge.get_formatter()
        setattr(bridge, FORMATTER, made)
    return made


def leave_quietly() -> NoReturn:
    """End a Sphinx process from an event handler, at once and with status 0 (``sphinx_ext/generation.py``,
    a build started early that got no go). ``os._exit``: a ``sys.exit`` would unwind through Sphinx
    half set up and the interpreter's shutdown, where nothing was written and nothing needs cleaning."""
    os._exit(0)


# --- Markup written by Sphinx, docutils, furo (seen at 2025.12) and sphinx-design -------------
# ``sphinx_ext/a11y.py`` rewrites it on every page (regular expressions over the HTML); each
# pattern starts at a ``<`` of a tag these write, which record text cannot produce.

# (pattern, replacement) pairs applied to every page, in order.
MARKUP_FIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Sphinx's toctree caption in furo's sidebar: a heading role needs a level.
    (re.compile(r'<p class="caption" role="heading">'), '<p class="caption" role="heading" aria-level="2">'),
    # docutils' citation in a role=list: only list items are allowed (doc-biblioentry is deprecated).
    # Anchored to the tag the HTML writer makes: a BibTeX block shows a title's quotes as they are.
    (re.compile(r'(<div class="citation" id="[^"<>]*") role="doc-biblioentry"'), r'\1 role="listitem"'),
    # Pygments' block as Sphinx wraps it: a block that scrolls sideways must take focus.
    (re.compile(r'<div class="highlight"><pre>'), '<div class="highlight"><pre tabindex="0">'),
    # furo's two <aside> landmarks (page.html): each needs its own name.
    (re.compile(r'<aside class="sidebar-drawer">'), '<aside class="sidebar-drawer" aria-label="Site navigation">'),
    (re.compile(r'<aside class="toc-drawer'), '<aside aria-label="On this page" class="toc-drawer'),
    # Sphinx's table of contents copies a heading's anchor <span id>: the id would be on the page twice.
    (re.compile(r'(<a class="reference internal" href="#[^"<>]*">)<span id="[^"<>]*"></span>'), r"\1"),
)
# furo opens its drawers with <label>s for hidden checkboxes (page.html), which keyboards cannot reach.
DRAWER_LABEL = re.compile(
    r'<label class="((?:nav|toc)-overlay-icon[^"<>]*)" for="(__navigation|__toc)">(.*?)</label>', re.S
)
# sphinx-design's card body, as cardlist.py writes it too: its first line is the card's title.
CARD_TITLE = re.compile(r'(<div class="sd-card-body docutils">\s*<p class="sd-card-text")(><strong>)')


# --- Pagefind 1.5 --------------------------------------------------------------------------------


def pagefind_command() -> list[str]:
    """How to run Pagefind: the binary the ``pagefind[bin]`` wheel ships, found as ``python -m
    pagefind`` finds it (``pagefind.service.get_executable``, in its ``__all__`` but undocumented;
    it honours ``PAGEFIND_BINARY_PATH``), else ``python -m pagefind`` (an interpreter start more)."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return [sys.executable, "-m", "pagefind"]
    found = get_executable()
    return [str(found)] if found is not None and found.is_file() else [sys.executable, "-m", "pagefind"]
