"""Math as MathML, made at build time: no JavaScript, no network, and nothing but MathML.

latex2mathml turns ``\\href``, ``\\style`` and ``\\class`` into attributes and copies
``\\text{...}`` unescaped, so its output is parsed and rebuilt from an allow-list of
MathML elements and presentation attributes. Anything else falls back to literal text.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

NS = "{http://www.w3.org/1998/Math/MathML}"
ELEMENTS = frozenset(
    "math mrow mi mn mo mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover "
    "mtable mtr mtd mstyle mpadded mphantom menclose mfenced".split()
)
ATTRIBUTES = frozenset(
    "display mathvariant stretchy fence separator form lspace rspace width height depth linethickness "
    "accent accentunder largeop movablelimits symmetric minsize maxsize displaystyle scriptlevel "
    "columnalign rowspacing columnspacing notation open close separators".split()
)


def to_mathml(latex: str, display: bool = False) -> str | None:
    """Sanitized MathML for ``latex``; None when it cannot be made safely."""
    try:
        root = ET.fromstring(convert(latex, display="block" if display else "inline"))
    except Exception:  # malformed input or output: the caller shows the source as text
        return None
    clean = _rebuild(root)
    if clean is None:
        return None
    clean.set("alttext", latex)
    return ET.tostring(clean, encoding="unicode", short_empty_elements=True)


def _rebuild(node: ET.Element) -> ET.Element | None:
    tag = node.tag.removeprefix(NS)
    if tag not in ELEMENTS:
        return None
    out = ET.Element(tag, {k: v for k, v in node.attrib.items() if k in ATTRIBUTES})
    if tag == "math":
        out.set("xmlns", NS.strip("{}"))
    out.text = node.text
    for child in node:
        rebuilt = _rebuild(child)
        if rebuilt is None:
            return None
        rebuilt.tail = child.tail
        out.append(rebuilt)
    return out


def fallback(latex: str) -> str:
    return f'<code class="math-source">{html.escape(latex)}</code>'
