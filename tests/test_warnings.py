"""The extension's warnings carry stable codes (``readinglist.<code>``) and a location."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from readinglist.site.sphinx_ext.warnings_ import Warn

PAGE = """# Hand-edited

[a paper that is gone](rl:papers/gone)

```{readinglist-links}
{"doc": "papers/also-gone", "title": "Gone too", "year": "2020", "reason": "similar content"}
not json at all
```

```{readinglist-graph}
{"kind": "paper", "nodes": "not a list", "edges": []}
```

```{readinglist-cite}
{"label": "BibTeX", "lexer": "bibtex", "text": "@misc{k,}"}
@misc{pasted, title = {not a tab}}
```
"""


@pytest.fixture
def warnings(make_app: Callable[..., Any], tmp_path: Path) -> list[str]:
    """The warnings of a build of one hand-written page with every fault the extension reports."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["readinglist.site.sphinx_ext"]\nreadinglist_root = "."\n')
    (source / "bibliography.bib").write_text("")
    (source / "index.md").write_text(PAGE, encoding="utf-8")
    app = make_app("html", srcdir=source, confoverrides={"readinglist_generate": False, "readinglist_search": False})
    app.build()
    return [line for line in app.warning.getvalue().splitlines() if "WARNING" in line]


def test_each_fault_has_its_code_and_its_page(warnings: list[str]) -> None:
    codes = sorted(code for line in warnings for code in re.findall(r"\[(readinglist\.[a-z-]+)\]", line))
    expected = [Warn.BAD_CITE_LINE, Warn.BAD_GRAPH, Warn.BAD_LINK_LINE, Warn.MISSING_PAGE, Warn.MISSING_PAGE]
    assert codes == sorted(f"readinglist.{code.value}" for code in expected)
    assert len(warnings) == len(expected) and all("index.md:" in line for line in warnings)


def test_the_line_of_a_bad_link_line_is_its_line_in_the_page(warnings: list[str]) -> None:
    (line,) = [w for w in warnings if Warn.BAD_LINK_LINE.value in w]
    assert "index.md:7:" in line  # "not json at all" is the page's 7th line


def test_a_bad_graph_is_reported_at_its_directive(warnings: list[str]) -> None:
    (line,) = [w for w in warnings if Warn.BAD_GRAPH.value in w]
    assert "index.md:10:" in line


def test_the_line_of_a_bad_cite_line_is_its_line_in_the_page(warnings: list[str]) -> None:
    (line,) = [w for w in warnings if Warn.BAD_CITE_LINE.value in w]
    assert "index.md:16:" in line  # the pasted entry is the page's 16th line
