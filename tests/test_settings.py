"""The extension sets what generated pages need, so a conf.py names the extension and nothing else."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sphinx.config import Config

from readinglist.site.sphinx_ext import settings

ROOT = Path(__file__).parent / "roots" / "test-basic"


@pytest.fixture
def configured(make_app: Callable[..., Any], tmp_path: Path) -> Callable[..., Config]:
    """The configuration of an app on a copy of the basic root with another conf.py; nothing is built.

    sphinx.testing's ``make_app`` cleans up after each app (docutils' node registry is global)."""

    def configure(conf: str, overrides: dict[str, Any] | None = None) -> Config:
        source = tmp_path / "src"
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("conf.py"))
        (source / "conf.py").write_text(conf, encoding="utf-8")
        app = make_app("html", srcdir=source, confoverrides={"readinglist_generate": False, **(overrides or {})})
        config: Config = app.config
        config.loaded_extensions = set(app.extensions)  # for the assertions
        return config

    return configure


BARE = 'extensions = ["readinglist.site.sphinx_ext"]\nreadinglist_root = "."\n'


def test_a_bare_conf_py_gets_every_setting_the_pages_need(configured: Callable[..., Config]) -> None:
    config = configured(BARE)
    uses = {"myst_parser", "sphinx_design", "sphinx_copybutton", "sphinxcontrib.bibtex"}
    assert uses <= config.loaded_extensions
    assert set(settings.MYST_EXTENSIONS) <= set(config.myst_enable_extensions)
    assert config.bibtex_bibfiles == [settings.BIBLIOGRAPHY]
    assert {name: config[name] for name in settings.REQUIRED} == settings.REQUIRED
    assert "notes/**" in config.exclude_patterns and config.html_theme == "furo"
    assert config.project == "Test reading list"  # conf/readinglist.toml's title


def test_what_a_conf_py_chooses_wins_and_what_the_pages_need_is_added(configured: Callable[..., Config]) -> None:
    conf = BARE + (
        'html_theme = "classic"\nproject = "Mine"\nmyst_enable_extensions = ["deflist"]\n'
        'exclude_patterns = ["drafts/**"]\nsmartquotes = True\n'
    )
    config = configured(conf)
    assert config.html_theme == "classic" and config.project == "Mine"
    assert config.myst_enable_extensions == ["deflist", *settings.MYST_EXTENSIONS]
    assert config.exclude_patterns[0] == "drafts/**" and "notes/**" in config.exclude_patterns
    assert config.smartquotes is False  # record text is never rewritten, whatever conf.py says


def test_a_command_line_setting_wins_as_conf_py_does(configured: Callable[..., Config]) -> None:
    config = configured(BARE, {"html_theme": "basic", "exclude_patterns": "drafts/**"})
    assert config.html_theme == "basic"
    assert config.exclude_patterns[0] == "drafts/**" and "notes/**" in config.exclude_patterns
