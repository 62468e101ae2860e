"""Which characters record text may hold: one policy for the whole pipeline.

Record text is untrusted and comes from dumps, hand-typed BibTeX and notes. Some characters
in it are never meant to be shown and break what the tool writes: PyYAML refuses U+FFFE,
U+FFFF, C1 controls and lone surrogates in the front matter of a generated page, so one of
them in any title made every build fail; bidi overrides reorder what a reader sees
(Trojan Source). The policy:

- **Removed** (``UNSAFE``), at input (``sources.text.read_text`` and ``latex.dump_to_latex``)
  and again at output (every value ``render/`` prints, front matter and the derived
  ``bibliography.bib`` included, since a hand-typed ``refs.bib`` may hold anything):

  - C0 controls except tab, line feed and carriage return (whitespace, folded where text is
    folded), DEL and the C1 controls U+0080-U+009F;
  - lone surrogates U+D800-U+DFFF (only a string decoded with ``surrogateescape`` holds them);
  - Unicode noncharacters: U+FDD0-U+FDEF and the last two code points of every plane
    (U+FFFE, U+FFFF, U+1FFFE, ..., U+10FFFF);
  - zero-width and bidi-control characters (U+200B-U+200F, U+202A-U+202E, U+2060-U+2069)
    and U+FEFF (a byte-order mark or zero-width no-break space).

- **Kept** as they are: every other character, private-use (Co) and unassigned (Cn) code
  points included: they are valid text that a later Unicode version or a font may define.

Removing, not replacing with U+FFFD: a replacement character would show a reader a defect
that the source never meant to show.
"""

from __future__ import annotations

import re

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(f"{chr(p + 0xFFFE)}{chr(p + 0xFFFF)}" for p in range(0, 0x110000, 0x10000))
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_INVISIBLE = "\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
UNSAFE = re.compile(f"[{_CONTROLS}\ud800-\udfff{_NONCHARACTERS}{_INVISIBLE}]")


# The same policy in two passes: the astral noncharacters (32 single characters in one class) make
# the full class five times slower on long text, and most text has no astral character at all.
_BMP_UNSAFE = re.compile(f"[{_CONTROLS}\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff{_INVISIBLE}]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def strip_unsafe(text: str) -> str:
    """``text`` without the characters the policy above removes."""
    text = _BMP_UNSAFE.sub("", text)
    return UNSAFE.sub("", text) if _ASTRAL.search(text) else text
