"""LaTeX in record text, converted on purpose into inline MyST.

``\\emph``/``\\textit`` become emphasis, ``\\textbf`` strong, ``^{3}`` a superscript,
``\\url`` a link (http and https only), ``\\footnote`` a footnote, and a ``$...$``,
``\\(...\\)`` or ``\\[...\\]`` that reads as math (``latex.is_math``) real math; other math
shows as its text. Every other piece is plain text, escaped with ``md_text``: nothing in the
record can produce markup of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexWalker,
)

from ..latex import is_math, is_simple, keep_logo_spaces, latex_piece_text, to_text
from .escape import Md, clean, drop_invisible, md_text
from .venue import SAFE_URL  # one rule for every link destination a page prints

ROLES = {"emph": "emphasis", "textit": "emphasis", "textsl": "emphasis", "textbf": "strong"}
SCRIPT = re.compile(r"^([\^_])\{?([A-Za-z0-9]{1,6})\}?$")  # $^{3}$, $^{th}$, $_2$
SIMPLE = re.compile(r"^[^`\\\s](?:[^`\\]*[^`\\\s])?$")  # fits inside a role's backticks


@dataclass
class Converted:
    md: str = ""
    plain: str = ""
    footnotes: list[tuple[str, Md]] = field(default_factory=list)


def latex_to_md(latex: str, footnote_prefix: str = "fn") -> Converted:
    """Inline MyST for a LaTeX field; footnote definitions are returned to place at page end."""
    if is_simple(latex):  # most records: no LaTeX beyond escapes and dashes, so no parser
        return Converted(md_text(to_text(latex)), clean(to_text(latex)), [])
    out = Converted()
    try:
        nodes = LatexWalker(keep_logo_spaces(latex), tolerant_parsing=True).get_latex_nodes()[0]
        _walk(nodes or [], out, footnote_prefix)
    except Exception:  # pylatexenc fails on some odd input: show the plain text instead
        return Converted(md_text(to_text(latex)), clean(to_text(latex)), [])
    out.md = " ".join(out.md.split())
    out.plain = clean(out.plain)
    return out


def _emit(out: Converted, md: str, plain: str) -> None:
    out.md += md
    out.plain += plain


def _text(text: str) -> str:
    """md_text, but keeping one space at either end so pieces join as they should."""
    text = drop_invisible(text)
    lead = " " if text[:1].isspace() else ""
    tail = " " if text[-1:].isspace() and text.strip() else ""
    return lead + md_text(text) + tail if text.strip() else (" " if text else "")


def _walk(nodes: list[LatexNode], out: Converted, prefix: str) -> None:
    for node in nodes:
        if node is None or isinstance(node, LatexCommentNode):
            continue
        if isinstance(node, LatexCharsNode):
            _emit(out, _text(node.chars), node.chars)
        elif isinstance(node, LatexGroupNode):
            _walk(node.nodelist, out, prefix)
        elif isinstance(node, LatexMathNode):
            _math(node, out)
        elif isinstance(node, LatexMacroNode) and node.macroname in ROLES | {"url": "", "footnote": ""}:
            _macro(node, out, prefix)
        else:  # accents, specials (~, --), unknown macros: their text, spaces kept
            plain = latex_piece_text(node.latex_verbatim())
            _emit(out, _text(plain), plain)


def _last_arg(node: LatexMacroNode) -> str:
    args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    return args[-1].latex_verbatim() if args else ""


def _macro(node: LatexMacroNode, out: Converted, prefix: str) -> None:
    arg = _last_arg(node)
    inner = arg[1:-1] if arg.startswith("{") and arg.endswith("}") else arg
    if node.macroname == "url":
        target = inner.strip()
        _emit(out, f"<{target}>" if SAFE_URL.match(target) else _text(target), target)
    elif node.macroname == "footnote":
        label = f"{prefix}-{len(out.footnotes) + 1}"
        note = latex_to_md(inner, f"{label}x")
        out.footnotes.append((label, Md(note.md)))
        out.md += f"[^{label}]"
    else:
        plain = drop_invisible(to_text(inner))  # a role's content is printed as it is, never escaped
        role = ROLES[node.macroname]
        _emit(out, f"{{{role}}}`{plain}`" if SIMPLE.match(plain) else _text(plain), plain)


def _math(node: LatexMathNode, out: Converted) -> None:
    """A formula as math; math beyond the formula subset as its text (λ for ``\\lambda``), not its source."""
    source = node.latex_verbatim()
    opening, closing = node.delimiters or ("", "")
    closed = bool(opening) and source.startswith(opening) and source.endswith(closing)
    closed = closed and len(source) > len(opening) + len(closing)
    content = source[len(opening) : len(source) - len(closing)] if closed else ""
    script = SCRIPT.match(content.strip())
    if script:
        role = "superscript" if script.group(1) == "^" else "subscript"
        _emit(out, f"{{{role}}}`{script.group(2)}`", script.group(2))
    elif closed and is_math(content) and "`" not in content:
        _emit(out, f"{{math}}`{content.strip()}`", content.strip())
    elif closed:
        text = to_text(source)
        _emit(out, _text(text), text)
    else:
        _emit(out, _text(source), source)
