"""The tool's error: one ``file:line: message [readinglist.<code>]`` line, and codes that are all in use."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import readinglist
from readinglist.errors import Code, ReadingListError
from readinglist.site.sphinx_ext.warnings_ import Warn

PACKAGE = Path(readinglist.__file__).resolve().parent


@pytest.mark.parametrize(
    ("file", "line", "shown"),
    [
        ("refs.bib", 3, "refs.bib:3: bad [readinglist.bad-bibtex]"),
        ("refs.bib", None, "refs.bib: bad [readinglist.bad-bibtex]"),
        (None, None, "<input>: bad [readinglist.bad-bibtex]"),
    ],
)
def test_the_error_names_where_what_and_its_code(file: str | None, line: int | None, shown: str) -> None:
    error = ReadingListError("bad", file, line, code=Code.BAD_BIBTEX)
    assert (str(error), error.message, error.code) == (shown, "bad", Code.BAD_BIBTEX)


def test_a_quoted_tool_output_goes_below_the_line_with_the_code() -> None:
    error = ReadingListError("Pagefind failed (exit status 1):\noops", "site", code=Code.PAGEFIND_FAILED)
    assert str(error) == "site: Pagefind failed (exit status 1): [readinglist.pagefind-failed]\noops"


def test_codes_are_spelled_as_the_warnings_and_never_shared() -> None:
    values = [code.value for code in Code] + [warn.value for warn in Warn]
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", value) for value in values)
    assert len(values) == len(set(values))
    assert all(code.name == code.value.upper().replace("-", "_") for code in [*Code, *Warn])


def test_every_code_is_raised_somewhere() -> None:
    """A code nothing raises is a row of docs/develop/errors.md that no user can meet."""
    used = {
        node.attr
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code"
    }
    assert {code.name for code in Code} - used == set()
