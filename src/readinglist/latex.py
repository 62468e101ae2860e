"""LaTeX in record text: raw dump text to BibTeX-safe LaTeX, and LaTeX to plain Unicode."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

# Characters that LaTeX treats as syntax but scraped text means literally.
_SPECIALS = re.compile(r"(?<!\\)([%&#_])")
_DOLLARS = re.compile(r"(?<!\\)\$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
# Segments left alone: inline math and \url{...}.
_VERBATIM = re.compile(r"(?<!\\)\$[^$]+(?<!\\)\$|\\url\{[^{}]*\}")
_BARE_SUPERSCRIPT = re.compile(r"(?<=\w)\^(\d+|\{[^{}]*\})")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def dump_to_latex(text: str) -> str:
    """Make dump text (mostly plain, sometimes LaTeX) safe to store in a BibTeX field."""
    text = _CONTROL.sub("", unicodedata.normalize("NFC", text))
    if len(_DOLLARS.findall(text)) % 2:
        text = _DOLLARS.sub(r"\\$", text)
    out, pos = [], 0
    for match in _VERBATIM.finditer(text):
        out.append(_escape_text(text[pos : match.start()]))
        out.append(match.group(0))
        pos = match.end()
    out.append(_escape_text(text[pos:]))
    return _balance_braces("".join(out))


def _escape_text(text: str) -> str:
    text = _SPECIALS.sub(r"\\\1", text)
    return _BARE_SUPERSCRIPT.sub(lambda m: "$^{" + m.group(1).strip("{}") + "}$", text)


def _balance_braces(text: str) -> str:
    """Drop braces that do not pair up: BibTeX cannot store them at all."""
    out: list[str] = []
    opened: list[int] = []
    for ch in text:
        if ch == "{":
            opened.append(len(out))
        elif ch == "}":
            if not opened:
                continue
            opened.pop()
        out.append(ch)
    for index in reversed(opened):
        del out[index]
    return "".join(out)


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


def to_text(latex: str) -> str:
    """Plain Unicode text of a LaTeX string (for search, meta tags, titles and keys)."""
    if "\\" not in latex and "{" not in latex and "$" not in latex and "~" not in latex:
        return " ".join(latex.split())
    try:
        text = _converter().latex_to_text(latex)
    except Exception:  # pylatexenc is lenient; never let odd input stop a build
        text = latex
    text = re.sub(r"\^\{?(\d+)\}?", lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    return " ".join(text.split())


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
