"""LaTeX in record text: raw dump text to BibTeX-safe LaTeX, and LaTeX to plain Unicode."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from .chars import strip_unsafe

# Characters that LaTeX treats as syntax but scraped text means literally.
_SPECIALS = re.compile(r"(?<!\\)([%&#_])")
_DOLLAR = re.compile(r"(?<!\\)\$")
_URL = re.compile(r"\\url\{[^{}]*\}")
_BARE_SUPERSCRIPT = re.compile(r"(?<=\w)\^(\d+|\{[^{}]*\})")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

# What may stand between two dollars for the tool to treat it as math on purpose.
MATH_COMMANDS = frozenset(
    "sqrt frac dfrac tfrac cdot times div pm mp leq geq le ge neq ne approx sim simeq equiv propto "
    "infty partial nabla sum prod int log ln exp sin cos tan max min arg lim sup inf mathrm mathbf "
    "mathit mathcal mathbb mathsf operatorname left right ldots cdots dots in notin subset subseteq "
    "cup cap forall exists to rightarrow leftarrow mapsto prime hat bar tilde vec dot overline "
    "underline ell mid lfloor rfloor lceil rceil langle rangle quad qquad top circ ast star oplus "
    "otimes alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma "
    "Upsilon Phi Psi Omega".split()
)
_MATH_CHARS = re.compile(r"^[A-Za-z0-9\s+\-*/=()\[\]|.,;:'^_{}<>!\\]+$")
_MATH_ESCAPES = re.compile(r"\\(?:[A-Za-z]+|[,;! {}|])")
_MONEY = re.compile(r"^\s*\d[\d.,]*\s+[A-Za-z]")


def is_math(content: str) -> bool:
    """True when ``content`` (what stood between two dollars) reads as a formula, not prose or prices."""
    text = content.strip()
    if not text or len(text) > 120 or not _MATH_CHARS.match(text) or _MONEY.match(content):
        return False
    if "\\" in _MATH_ESCAPES.sub("", text):
        return False  # a backslash that starts no allowed command
    if any(name not in MATH_COMMANDS for name in re.findall(r"\\([A-Za-z]+)", text)):
        return False
    return len(re.findall(r"[A-Za-z]{4,}", re.sub(r"\\[A-Za-z]+", "", text))) <= 1


def dump_to_latex(text: str) -> str:
    """Make dump text (mostly plain, sometimes LaTeX) safe to store in a BibTeX field.

    A pair of dollars stays math only if what it encloses reads as math; any other
    dollar is escaped, so "$5 and $10" stays text. Controls, noncharacters and invisible
    characters are removed (``chars.py``). A brace that pairs with none is kept as text
    (``lone_braces_as_text``); BibTeX could not store it as it is.
    """
    # BibTeX readers fold whitespace anyway; fold it here so what is stored is what is shown.
    text = " ".join(unicodedata.normalize("NFC", strip_unsafe(text)).split())
    out, pos = [], 0
    for start, end in _math_spans(text):
        out.append(_escape_text(text[pos:start]))
        out.append(text[start:end])
        pos = end
    out.append(_escape_text(text[pos:]))
    return lone_braces_as_text("".join(out))


def text_to_latex(text: str) -> str:
    """Plain text (CSL-JSON's) as LaTeX that shows every character of it, whitespace as it is.

    As ``dump_to_latex``, but a brace is text, not grouping: BibTeX counts every brace, escaped or
    not, so a pair is escaped (``\\{``, ``\\}``) and a lone one is ``\\textbraceleft{}`` or
    ``\\textbraceright{}``: the result always balances, and nothing is dropped. "--", "''" and
    "~" stay as typed (no dash, quote or tie). A formula between dollars stays math when its
    braces balance; a backslash starts a LaTeX command, as in every source the tool reads.
    """
    text = unicodedata.normalize("NFC", strip_unsafe(text))
    out, pos = [], 0
    for start, end in _math_spans(text):
        if lone_braces_as_text(text[start:end]) == text[start:end]:
            out += [_plain_text(text[pos:start]), text[start:end]]
            pos = end
    out.append(_plain_text(text[pos:]))
    return "".join(out)


# Where LaTeX would join two characters into one ("--" an en dash, "''" a quote) or read "~" as a space.
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=')(?=')|(?<=`)(?=`)|(?<=[?!])(?=`)")


def _plain_text(text: str) -> str:
    text = _LIGATURE.sub("{}", _escape_braces(text)).replace("~", "\\textasciitilde{}")
    return _escape_text(text)


_LONE_BRACES = {"{": "\\textbraceleft{}", "}": "\\textbraceright{}"}
_BRACE = re.compile(r"\\?[{}]")


def lone_braces_as_text(text: str) -> str:
    """``text`` with each brace that pairs with none (``\\{`` too: BibTeX counts it) written as
    ``\\textbraceleft{}`` or ``\\textbraceright{}``: BibTeX can store the result, and the brace still shows."""
    if "{" not in text and "}" not in text:
        return text
    opened: list[re.Match[str]] = []
    lone: list[re.Match[str]] = []
    for match in _BRACE.finditer(text):
        if match.group(0)[-1] == "{":
            opened.append(match)
        elif opened:
            opened.pop()
        else:
            lone.append(match)
    out, pos = [], 0
    for match in sorted(lone + opened, key=lambda m: m.start()):
        out += [text[pos : match.start()], _LONE_BRACES[match.group(0)[-1]]]
        pos = match.end()
    return "".join(out) + text[pos:]


def _escape_braces(text: str) -> str:
    if "{" not in text and "}" not in text:
        return text
    out: list[str] = []
    opened: list[int] = []
    for ch in text:
        if ch == "{":
            opened.append(len(out))
        elif ch == "}" and opened:
            out[opened.pop()] = "\\{"
            ch = "\\}"
        elif ch == "}":
            ch = _LONE_BRACES[ch]
        out.append(ch)
    for index in opened:
        out[index] = _LONE_BRACES["{"]
    return "".join(out)


def _math_spans(text: str) -> list[tuple[int, int]]:
    dollars = [m.start() for m in _DOLLAR.finditer(text)]
    spans, i = [], 0
    while i + 1 < len(dollars):
        start, end = dollars[i], dollars[i + 1]
        if is_math(text[start + 1 : end]):
            spans.append((start, end + 1))
            i += 2
        else:
            i += 1
    return spans


def _escape_text(text: str) -> str:
    """Escape LaTeX specials outside math, leaving \\url{...} as it is."""
    out, pos = [], 0
    for match in _URL.finditer(text):
        out.append(_escape_plain(text[pos : match.start()]))
        out.append(match.group(0))
        pos = match.end()
    out.append(_escape_plain(text[pos:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    text = _DOLLAR.sub(r"\\$", _SPECIALS.sub(r"\\\1", text))
    return _BARE_SUPERSCRIPT.sub(lambda m: "$^{" + m.group(1).strip("{}") + "}$", text)


def protect_title(title: str) -> str:
    """Brace acronyms and mixed-case words so BibTeX styles do not lowercase them."""
    words = []
    for word in title.split(" "):
        core = word.strip(":,;.!?()")
        plain = core and not any(c in core for c in "{}\\$")
        if plain and any(c.isupper() for c in core[1:]):
            word = word.replace(core, "{" + core + "}", 1)
        words.append(word)
    return " ".join(words)


# The logos of the TeX family, which pylatexenc knows only as macros to drop ("Literate and for").
LOGOS = {
    "TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "BibTeX": "BibTeX", "XeTeX": "XeTeX",
    "XeLaTeX": "XeLaTeX", "LuaTeX": "LuaTeX", "LuaLaTeX": "LuaLaTeX", "pdfTeX": "pdfTeX",
    "pdfLaTeX": "pdfLaTeX", "ConTeXt": "ConTeXt", "AmS": "AMS", "AMS": "AMS", "MF": "Metafont",
    "METAFONT": "METAFONT", "MP": "MetaPost", "BibLaTeX": "BibLaTeX", "TikZ": "TikZ",
}  # fmt: skip
# What ``text_to_latex`` writes for a lone brace (pylatexenc does not know these text commands).
_BRACE_MACROS = {"textbraceleft": "{", "textbraceright": "}"}
# A logo eats the space after it, as in TeX, but "\\LaTeX and" in a title means two words.
_LOGO_SPACE = re.compile(r"\\(" + "|".join(sorted(LOGOS, key=len, reverse=True)) + r")(?![A-Za-z@])\s+")
# Macros whose argument is the text itself: only its typeface or line breaking changes.
KEEP_TEXT = "mbox hbox fbox makebox textsc texttt textsf textup textmd textnormal textrm uppercase lowercase".split()


def keep_logo_spaces(latex: str) -> str:
    """``\\TeX and`` as ``\\TeX{} and``: the space after a logo is kept (see ``_LOGO_SPACE``)."""
    return _LOGO_SPACE.sub(lambda m: f"\\{m.group(1)}{{}} ", latex) if "\\" in latex else latex


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    context = get_default_latex_context_db()
    macros = [MacroTextSpec(name, simplify_repl=text) for name, text in LOGOS.items()]
    macros += [MacroTextSpec(name, discard=False) for name in KEEP_TEXT]
    macros.append(MacroTextSpec("url", simplify_repl="%s"))  # the address as it is, as the page shows it
    macros += [MacroTextSpec(name, simplify_repl=text) for name, text in _BRACE_MACROS.items()]
    context.add_context_category("readinglist", macros=macros, prepend=True)
    return LatexNodes2Text(context, math_mode="text", strict_latex_spaces=True)


# What pylatexenc would change; text without any of it is shown as it is.
# Found by search only: a special character, "--", "``", "''" or "?`"/"!`". One character class
# first, the rest as lookarounds, so the scan skips plain text in C (4x faster on abstracts).
LATEX_ACTIVE = re.compile(r"[-\\{}$~%`'?!](?:(?<=[\\{}$~%])|(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[?!])(?=`))")


# Pieces whose text is known without a parser: escaped specials, dashes, ties, quotes.
_SIMPLE = {"\\%": "%", "\\&": "&", "\\#": "#", "\\_": "_", "\\$": "$", "---": "—", "--": "–", "~": " "}
_SIMPLE |= {"``": "“", "''": "”", "?`": "¿", "!`": "¡", "{": "", "}": ""}  # braces only group
_SIMPLE_PIECE = re.compile("|".join(re.escape(k) for k in sorted(_SIMPLE, key=len, reverse=True)))


@lru_cache(maxsize=1 << 16)  # identity checks and pages ask for the same fields again and again
def to_text(latex: str) -> str:
    """Plain Unicode text of a LaTeX string (for search, meta tags, titles and keys)."""
    if not LATEX_ACTIVE.search(latex):  # the common case: nothing for pylatexenc to change
        return " ".join(latex.split())
    if is_simple(latex):  # as pylatexenc would, 100x faster
        return " ".join(_SIMPLE_PIECE.sub(lambda m: _SIMPLE[m.group(0)], latex).split())
    try:
        text = _converter().latex_to_text(keep_logo_spaces(latex))
    except Exception:  # pylatexenc is lenient; never let odd input stop a build
        text = latex
    text = re.sub(r"\^\{?(\d+)\}?", lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    return " ".join(text.split())


def is_simple(latex: str) -> bool:
    """True when ``to_text`` needs no LaTeX parser for ``latex`` (balanced braces, no commands)."""
    return latex.count("{") == latex.count("}") and not LATEX_ACTIVE.search(_SIMPLE_PIECE.sub("", latex))


def latex_piece_text(latex: str) -> str:
    """The text of one LaTeX piece (an accent, ``~``, ``--``), whitespace kept as it is."""
    try:
        return str(_converter().latex_to_text(keep_logo_spaces(latex)))
    except Exception:
        return latex


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
