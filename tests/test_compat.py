"""The upstream contracts of ``readinglist.compat``: each test fails, naming the entry and the upstream's
version, when Sphinx, docutils, sphinxcontrib-bibtex, pybtex, Jinja, furo, sphinx-design or Pagefind
no longer does what the entry relies on. CI runs them at the lowest and the highest allowed versions."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pybtex.errors
import pybtex.plugin
import pytest
from pybtex.database import Entry, Person
from pybtex.database.input.bibtex import Parser
from pybtex.style.formatting import BaseStyle
from pybtex.style.formatting.plain import Style as PlainStyle

from readinglist import compat


def _says(package: str, what: str) -> str:
    """The failure message: which upstream, at which version, broke which entry."""
    return f"{package} {version(package)}: {what} (readinglist/compat.py; pyproject.toml bounds it)"


# --- pybtex ------------------------------------------------------------------------------------


class _Recording(compat.PybtexScanner):  # type: ignore[misc]
    """The scanner, noting its state after each command, as the subclasses read it."""

    seen: list[dict[str, Any]]

    def parse_command(self) -> Any:
        result = super().parse_command()
        self.seen = [*getattr(self, "seen", []), {name: getattr(self, name) for name in compat.SCANNER_STATE}]
        return result


def test_pybtex_scanner_has_the_hooks_and_state_the_subclasses_use() -> None:
    missing = [name for name in compat.SCANNER_HOOKS + compat.SCANNER_TOKENS if not hasattr(compat.PybtexScanner, name)]
    assert missing == [], _says("pybtex", f"LowLevelParser lacks {missing}, which sources/bibscan.py and bounds.py use")
    parameters = {
        name: list(inspect.signature(getattr(compat.PybtexScanner, name)).parameters)
        for name in ("parse_command", "parse_entry_body", "parse_string_body", "parse_value", "substitute_macro")
    }
    assert parameters == {
        "parse_command": ["self"],
        "parse_entry_body": ["self", "body_end"],
        "parse_string_body": ["self", "body_end"],
        "parse_value": ["self"],
        "substitute_macro": ["self", "name"],
    }, _says("pybtex", "the scanner's hooks that bibscan.py and bounds.py override changed their parameters")
    scanner = _Recording('@string{j = "J"}\n@article{key, title = {T} # j}\n', macros={})
    assert [entry[0] for entry in scanner] == ["string", "article"]
    last = scanner.seen[-1]
    assert last["current_entry_key"] == "key" and last["lineno"] == 2 and last["command_start"] > 0, _says(
        "pybtex", f"the scanner's state after an entry is not what bibscan.py reads: {last}"
    )


BIB = r"""@string{conf = "Conference"}
@preamble{"\newcommand{\x}{x}"}
@inproceedings{lee2020, author = {Lee, Ann and others}, title = {Sheaves}, booktitle = conf, year = 2020}
"""


def test_parse_with_a_scanner_is_pybtex_parse_string() -> None:
    """``compat.parse_with`` copies pybtex's ``Parser.parse_string``: the same data from the same text."""
    ours, theirs = compat.parse_with(Parser(), compat.PybtexScanner, BIB), Parser().parse_string(BIB)
    assert ours.to_string("bibtex") == theirs.to_string("bibtex"), _says(
        "pybtex", "Parser.parse_string now does more than compat.parse_with copies of it (store/names.py uses it)"
    )
    source = inspect.getsource(Parser.parse_string)
    for argument in ("keyless_entries", "handle_error", "want_entry", "filename", "macros", "unnamed_entry_counter"):
        assert argument in source, _says("pybtex", f"Parser.parse_string no longer uses {argument}")


def test_pybtex_strict_mode_is_put_back() -> None:
    before = pybtex.errors.strict
    try:
        pybtex.errors.set_strict_mode(False)
        with pytest.raises(KeyError), compat.pybtex_strict():
            assert pybtex.errors.strict is True
            raise KeyError("an error inside the block")
        assert pybtex.errors.strict is False, _says("pybtex", "pybtex.errors.strict is no longer the strict switch")
    finally:
        pybtex.errors.set_strict_mode(before)


def test_pybtex_formats_an_entrys_text_the_same_under_any_label() -> None:
    """bibcache.py leaves the label out of its key for a style that keeps ``BaseStyle.format_entry``."""
    entry = Entry("article", {"title": "Sheaves", "journal": "J", "year": "2020"}, {"author": [Person("Lee, Ann")]})
    entry.key = "lee2020"
    style = PlainStyle()
    one, two = style.format_entry("1", entry), style.format_entry("2", entry)
    assert compat.text_ignores_label(PlainStyle), _says("pybtex", "the plain style now has a format_entry of its own")
    assert (one.label, two.label) == ("1", "2")
    assert one.text.render_as("text") == two.text.render_as("text"), _says("pybtex", "an entry's text has its label")

    class Labelled(BaseStyle):  # type: ignore[misc]
        def format_entry(self, label: str, entry: Entry, bib_data: Any = None) -> Any:
            return super().format_entry(label, entry, bib_data)

    assert not compat.text_ignores_label(Labelled)


def test_pybtex_plugins_registered_at_run_time_replace_the_found_ones() -> None:
    group, name = "pybtex.style.formatting", "readinglist-compat-test"

    class First(PlainStyle):  # type: ignore[misc]
        pass

    class Second(PlainStyle):  # type: ignore[misc]
        pass

    compat.register_pybtex_plugin(group, name, First)
    compat.register_pybtex_plugin(group, name, Second)
    assert pybtex.plugin.find_plugin(group, name) is Second, _says(
        "pybtex", "register_plugin(force=True) replaces none"
    )


def test_pybtex_plain_style_titles_take_what_biblinks_overrides() -> None:
    for method in ("format_title", "format_btitle"):
        parameters = list(inspect.signature(getattr(PlainStyle, method)).parameters)
        assert parameters == ["self", "e", "which_field", "as_sentence"], _says(
            "pybtex", f"plain Style.{method} changed its parameters, which sphinx_ext/biblinks.py overrides"
        )


# --- Sphinx, docutils, sphinxcontrib-bibtex, Jinja, furo, sphinx-design: one small build ------------

CONF = """
from docutils import nodes

extensions = ["sphinx_design", "sphinxcontrib.bibtex"]
html_theme = "furo"
html_title = "Contracts"
bibtex_bibfiles = ["refs.bib"]


def anchor(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.inline("", "", ids=[text])], []  # as the adapter's readinglist-anchor role (linklist.py)


def setup(app):
    app.add_role("anchor", anchor)
"""
INDEX = """
Contracts
=========

.. toctree::
   :caption: Pages

   other

See :cite:p:`lee2020`.

.. [CIT2002] A citation.

.. code-block:: python

   x = 1

.. grid:: 1

   .. grid-item-card::

      **Title** of a card

.. bibliography::
"""
OTHER = """
Other
=====

:anchor:`anchor-x`\\ A section
-----------------------------

Text.
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A furo site built by Sphinx alone (no readinglist), with the compat hooks our adapter connects."""
    from sphinx.testing.util import SphinxTestApp

    source = tmp_path_factory.mktemp("compat") / "src"
    source.mkdir()
    for name, text in {"conf.py": CONF, "index.rst": INDEX, "other.rst": OTHER, "refs.bib": BIB}.items():
        (source / name).write_text(text, encoding="utf-8")
    app = SphinxTestApp("html", srcdir=source, confoverrides={"author": "Someone"})
    seen: dict[str, Any] = {}

    def updated(app: Any, env: Any) -> None:
        seen["kept"] = len(compat.kept_doctrees(env) or {})
        seen["tocs"] = type(env.tocs)
        seen["citations"] = list(env.domaindata["cite"]["citations"])
        compat.citations_not_saved(env)

    compat.no_sphinx_search_index(app.builder)  # as searchindex.py does at builder-inited (passed by now)
    app.connect("env-updated", updated, priority=900)
    try:
        app.build()
        yield app, seen
    finally:
        app.cleanup()


def test_sphinx_keeps_the_doctrees_it_read_in_a_private_dict(built: Any) -> None:
    app, seen = built
    assert isinstance(compat.kept_doctrees(app.env), dict) and seen["kept"] > 0, _says(
        "Sphinx", "BuildEnvironment._write_doc_doctree_cache is gone: memory.py's bound on kept doctrees does nothing"
    )


def test_sphinx_tells_the_settings_conf_py_or_d_set(built: Any) -> None:
    app, _ = built
    told = {name: compat.user_set(app.config, name) for name in ("html_title", "author", "copyright", "html_logo")}
    assert told == {"html_title": True, "author": True, "copyright": False, "html_logo": False}, _says(
        "Sphinx", f"Config._raw_config or Config.overrides changed: settings.py would override conf.py ({told})"
    )


def test_sphinx_uses_the_tocs_by_key_only(built: Any) -> None:
    """packedtocs.py's dict serves lookups by key, ``in``, ``get`` and ``pop``: any other use (iterating
    it, ``items()``) in Sphinx's code would meet the packed bytes."""
    import sphinx

    _, seen = built
    assert seen["tocs"] is dict, _says("Sphinx", "env.tocs is no longer a dict")
    allowed = re.compile(r"\.tocs(\[|\.pop\(|\.get\(|: dict\b)|\bin (?:self|env|app\.env)\.tocs\b")
    other = [
        f"{path.relative_to(Path(sphinx.__file__).parent)}: {line.strip()}"
        for path in Path(sphinx.__file__).parent.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if ".tocs" in line and not line.strip().startswith("#") and allowed.sub("", line).count(".tocs") > 0
    ]
    assert other == [], _says("Sphinx", f"env.tocs is used in a way compat.replace_tocs does not serve: {other}")


def test_sphinxcontrib_bibtex_makes_its_citations_again_in_every_build(built: Any) -> None:
    from sphinxcontrib.bibtex.domain import BibtexDomain

    app, seen = built
    assert seen["citations"], "the build cited nothing: the test proves nothing"
    assert BibtexDomain.initial_data["citations"] == []
    assert "self.citations.clear()" in inspect.getsource(BibtexDomain.env_updated), _says(
        "sphinxcontrib-bibtex", "env_updated no longer makes the citations again: bibliography.py must save them"
    )
    import pickle

    assert pickle.loads(pickle.dumps(app.env.domaindata["cite"]["citations"])) == []


def test_sphinx_writes_no_search_index_when_told(built: Any) -> None:
    from sphinx.builders.html import StandaloneHTMLBuilder

    app, _ = built
    assert "if self.search:" in inspect.getsource(StandaloneHTMLBuilder), _says(
        "Sphinx", "StandaloneHTMLBuilder.search no longer turns its index off (sphinx_ext/searchindex.py)"
    )
    assert (Path(app.outdir) / "index.html").is_file() and not (Path(app.outdir) / "searchindex.js").exists()


def test_the_theme_renders_with_a_jinja_environment_of_the_builders(built: Any) -> None:
    from jinja2 import Environment

    app, _ = built
    assert isinstance(compat.template_environment(app.builder), Environment), _says(
        "Sphinx", "builder.templates.environment is gone: templatecache.py keeps no compiled template"
    )
    assert compat.template_environment(object()) is None


def test_the_env_attributes_the_adapter_reads(built: Any) -> None:
    app, _ = built
    found = {name: type(getattr(app.env, name, None)).__name__ for name in compat.ENV_ATTRIBUTES}
    assert found == {"all_docs": "dict", "titles": "dict", "toctree_includes": "dict", "found_docs": "set"}, _says(
        "Sphinx", f"BuildEnvironment's attributes the adapter reads changed: {found}"
    )


def test_the_markup_the_accessibility_fixes_rewrite_is_what_the_upstreams_write(built: Any) -> None:
    """Each of a11y.py's rewrites matches the page Sphinx, docutils, furo and sphinx-design write."""
    app, _ = built
    html = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    html += (Path(app.outdir) / "other.html").read_text(encoding="utf-8")
    unmatched = [pattern.pattern for pattern, _ in compat.MARKUP_FIXES if not pattern.search(html)]
    unmatched += [p.pattern for p in (compat.DRAWER_LABEL, compat.CARD_TITLE) if not p.search(html)]
    versions = ", ".join(f"{p} {version(p)}" for p in ("Sphinx", "docutils", "furo", "sphinx-design", "Pygments"))
    assert unmatched == [], f"{versions}: a11y.py's fixes match nothing in the markup written now: {unmatched}"


def test_docutils_writers_keep_the_section_level_cardlist_reads() -> None:
    from docutils.writers._html_base import HTMLTranslator

    assert "self.section_level += 1" in inspect.getsource(HTMLTranslator.visit_section), _says(
        "docutils", "HTMLTranslator.section_level is gone: cardlist.py's card headings need their level"
    )

    class Translator:
        section_level = 2

    assert compat.section_level(Translator()) == 2


def test_sphinx_makes_one_pygments_formatter_a_build_when_asked_once() -> None:
    from pygments.formatter import Formatter
    from sphinx.highlighting import PygmentsBridge

    bridge = PygmentsBridge("html")
    made = compat.shared_formatter(bridge)
    assert isinstance(made, Formatter), _says("Sphinx", "PygmentsBridge.get_formatter no longer makes a formatter")
    assert compat.shared_formatter(bridge) is made


def test_sphinx_build_main_reports_exceptions_through_the_hook(tmp_path: Path) -> None:
    from sphinx.cmd.build import build_main

    (tmp_path / "conf.py").write_text(
        "def boom(app):\n    raise RuntimeError('boom')\n\ndef setup(app):\n    app.connect('builder-inited', boom)\n",
        encoding="utf-8",
    )
    (tmp_path / "index.rst").write_text("Index\n=====\n", encoding="utf-8")
    reported: list[BaseException] = []

    def wrap(report: Any) -> Any:
        return lambda exception, **options: reported.append(exception)

    with compat.sphinx_exceptions_handled_by(wrap) as patched:
        status = build_main([str(tmp_path), str(tmp_path / "out"), "-q"])
    assert patched and status != 0 and len(reported) == 1, _says(
        "Sphinx", "build_main no longer reports through sphinx._cli.util.errors.handle_exception (command.py)"
    )
    from sphinx._cli.util import errors

    assert errors.handle_exception.__module__ == "sphinx._cli.util.errors"  # put back


def test_the_theme_has_the_blocks_our_page_template_fills() -> None:
    from importlib.util import find_spec

    furo = find_spec("furo")
    assert furo is not None and furo.origin is not None
    page = (Path(furo.origin).parent / "theme" / "furo" / "page.html").read_text(encoding="utf-8")
    assert "{% block body -%}" in page and "{% block content %}" in page, _says(
        "furo", "page.html lost the blocks site/templates/page.html extends (body, content)"
    )


def test_leaving_quietly_ends_the_process_with_nothing_more_run() -> None:
    code = "import atexit, readinglist.compat as c; atexit.register(print, 'cleanup'); c.leave_quietly()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_importing_the_module_loads_no_upstream() -> None:
    """Every stage may import compat: it loads each upstream only when an entry of it is used."""
    code = (
        "import sys, readinglist.compat\n"
        "print(sorted(m for m in ('pybtex', 'sphinx', 'docutils', 'jinja2', 'pagefind') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_pagefind_is_found_as_its_own_module_finds_it() -> None:
    import pagefind.service

    assert "get_executable" in pagefind.service.__all__, _says("pagefind", "pagefind.service.get_executable is gone")
    command = compat.pagefind_command()
    assert len(command) == 1 and Path(command[0]).is_file(), _says(
        "pagefind", f"the pagefind[bin] wheel's binary is not found: search.py would start Python per shard ({command})"
    )


# --- the versions -----------------------------------------------------------------------------

UPSTREAMS = ("sphinx", "docutils", "myst-parser", "sphinxcontrib-bibtex", "pybtex", "pagefind")


def test_every_upstream_with_a_contract_is_bounded_and_installed_within_its_bounds() -> None:
    """pyproject.toml, as installed, gives each a lower and an upper bound (``nox -s tests_lowest``
    installs the lower ones), and the versions the tests run with are inside them."""
    from importlib.metadata import requires

    from packaging.requirements import Requirement

    listed = [Requirement(r) for r in requires("sphinx-readinglist") or []]
    found = {r.name.lower(): r for r in listed if r.marker is None}
    for name in UPSTREAMS:
        operators = sorted(spec.operator for spec in found[name].specifier)
        assert operators == ["<", ">="], f"pyproject.toml: {name} needs a lower and an upper bound ({found[name]})"
        assert found[name].specifier.contains(version(name)), f"{name} {version(name)} is outside {found[name]}"
