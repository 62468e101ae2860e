"""A paper page's related lists and graph come from its data file as it is written (sphinx_ext/pagedata.py).

One new paper changes the related lists of dozens of other papers. Their pages' Markdown stays
as it was, only their data files change, so Sphinx must write those pages again without
reading them, with the data of now, and a data file gone or broken must be a warning that
names it, never a page silently left as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import soup
from readinglist.site.sphinx_ext.warnings_ import Warn

PAGE = """---
orphan: true
---

# {title}

## Related papers

```{{readinglist-links}}
:data: related
```

```{{readinglist-graph}}
:data: graph
```
"""


def _link(doc: str, title: str) -> dict[str, Any]:
    return {"doc": f"papers/{doc}", "title": title, "year": 2020, "reason": "similar content (shared terms: x)"}


def _graph(*docs: str) -> dict[str, Any]:
    nodes = [[f"papers/{d}", d, d, float(10 * i), 0.0, int(i == 0)] for i, d in enumerate(docs)]
    edges = [[0, i, "content", "similar content (shared terms: x)"] for i in range(1, len(docs))]
    return {"kind": "paper", "nodes": nodes, "edges": edges, "more": 0}


def _data(source: Path, slug: str, data: object) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (source / "related" / f"{slug}.json").write_text(text, encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Three paper pages, each naming its data file; a's lists b."""
    source = tmp_path / "src"
    (source / "papers").mkdir(parents=True)
    (source / "related").mkdir()
    (source / "conf.py").write_text('extensions = ["readinglist.site.sphinx_ext"]\nreadinglist_root = "."\n')
    (source / "bibliography.bib").write_text("")
    (source / "index.md").write_text("# Index\n", encoding="utf-8")
    for slug in ("a", "b", "c"):
        (source / "papers" / f"{slug}.md").write_text(PAGE.format(title=slug.upper()), encoding="utf-8")
        _data(source, slug, {"versions": [], "related": [], "graph": None})
    _data(source, "a", {"versions": [], "related": [_link("b", "Paper B")], "graph": _graph("a", "b")})
    return source


Build = Callable[[Path], tuple[Any, list[str]]]


@pytest.fixture
def build(make_app: Callable[..., Any], tmp_path: Path) -> Build:
    """A build of the project into one output folder (its environment kept between builds):
    the app and the documents it read."""

    def run(source: Path) -> tuple[Any, list[str]]:
        overrides = {"readinglist_generate": False, "readinglist_search": False}
        app = make_app("html", srcdir=source, builddir=tmp_path / "out", confoverrides=overrides)
        read: list[str] = []
        app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(sorted(docnames)))
        app.build()
        assert app.statuscode == 0, app.warning.getvalue()
        return app, read

    return run


def _related(app: Any, docname: str) -> list[str]:
    page = soup(Path(app.outdir) / f"{docname}.html")
    return [a.get_text() for a in page.select("ul.readinglist-links a")]


def test_a_page_whose_data_file_changed_is_written_again_not_read_again(project: Path, build: Build) -> None:
    app, read = build(project)
    assert "papers/a" in read and _related(app, "papers/a") == ["Paper B"]
    html = Path(app.outdir) / "papers" / "a.html"
    assert "rl-graph-paper" in html.read_text(encoding="utf-8")  # the graph, from the data file
    _data(project, "a", {"versions": [], "related": [_link("c", "Paper C"), _link("b", "Paper B")], "graph": None})
    app, read = build(project)
    assert read == []  # no page read again...
    assert _related(app, "papers/a") == ["Paper C", "Paper B"]  # ...and a's written with its data of now
    assert "rl-graph-paper" not in html.read_text(encoding="utf-8")
    before = html.stat().st_mtime_ns
    app, read = build(project)
    assert read == [] and html.stat().st_mtime_ns == before  # unchanged: not written again


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (None, "FileNotFoundError"),
        ("{not json", "JSONDecodeError"),
        ({"versions": [], "graph": None}, "no 'related' in it"),
        ({"versions": [], "related": ["not a link"], "graph": None}, "not a link in related/a.json"),
        ({"versions": [], "related": [], "graph": {"kind": "paper", "nodes": "x", "edges": []}}, "not a graph"),
    ],
)
def test_a_missing_or_broken_data_file_is_a_warning_naming_it(
    project: Path, make_app: Callable[..., Any], data: object, why: str
) -> None:
    if data is None:
        (project / "related" / "a.json").unlink()
    else:
        _data(project, "a", data)
    app = make_app("html", srcdir=project, confoverrides={"readinglist_generate": False, "readinglist_search": False})
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "WARNING" in line]
    assert len(warnings) == 1, warnings
    (line,) = warnings
    assert f"[readinglist.{Warn.BAD_PAGE_DATA.value}]" in line and "papers/a.md" in line and why in line
    assert "related/a.json" in line
