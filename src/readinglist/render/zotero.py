"""What a paper's Zotero item brings to its page: child notes and PDF highlights.

A Zotero note is HTML written anywhere (a shared group, a web clipper): untrusted. It is
sanitised by nh3 (ammonia) to paragraphs, emphasis, lists and http(s) links, then written as
MyST from that tree, every text run escaped (``escape.py``), so no HTML, role, directive or
``javascript:`` link of a note reaches the page. A highlight is plain text: its text, comment
and page label escaped as any record text is.

``readinglist sync zotero`` keeps the notes and highlights in ``conf/zotero-notes.json``;
:func:`load` reads them for the renderers (``Inputs.zotero``, by Zotero item key), with what
each highlight colour stands for (``conf/zotero.toml`` ``[highlights]``: ``yellow = "Key
result"``). A highlight whose colour stands for a summary field is shown in the page's summary,
under that field, with its page; the others, and the notes, in a section "From Zotero". Nothing
is written into ``docs/notes/``, which stays the owner's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nh3

from ..chars import strip_unsafe
from ..fetch import zotero_state  # the sync's files: read here, written only by the sync
from ..model import Work
from ..sources.zotero_items import item_key_of
from .escape import Md, md_text
from .venue import SAFE_URL

FOLDER = "_zotero"  # under docs/: where syncs before 0.x wrote each item's section (removed by the next sync)
ALLOWED = frozenset({"p", "em", "strong", "ul", "ol", "li", "a"})
# Zotero 7's highlight colours, by the names its menu gives them.
COLOURS: Mapping[str, str] = {
    "#ffd400": "yellow", "#ff6666": "red", "#5fb236": "green", "#2ea8e5": "blue",
    "#a28ae5": "purple", "#e56eee": "magenta", "#f19837": "orange", "#aaaaaa": "gray",
}  # fmt: skip
# The files :func:`load` reads, relative to the project: the generated pages depend on them.
INPUTS = (zotero_state.CHILDREN, zotero_state.SETTINGS)
# A summary field as the owner may name it in [highlights] -> the page's label for it. Any other
# name is a field of its own, shown after these under the name given.
FIELDS: Mapping[str, str] = {
    "problem": "Problem", "approach": "Approach", "method": "Approach",
    "result": "Key results", "results": "Key results", "key result": "Key results", "key results": "Key results",
}  # fmt: skip


@dataclass(frozen=True)
class Highlight:
    """A PDF highlight as shown: plain text (``clean``: no control characters, one line)."""

    text: str
    comment: str
    colour: str  # the colour's name ("yellow") where Zotero's menu names it, else as given ("#123456")
    page: str  # the page label ("12", "iv")
    field: str = ""  # the summary field its colour stands for (``FIELDS``' label); empty: none


@dataclass(frozen=True)
class Annotations:
    """One item's child notes (HTML, sanitised only when shown) and highlights, in reading order."""

    notes: tuple[str, ...] = ()
    highlights: tuple[Highlight, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.notes or self.highlights)

    def marks(self) -> dict[str, list[Md]]:
        """The highlights whose colour stands for a summary field, by field, as summary list items."""
        found: dict[str, list[Md]] = {}
        for mark in self.highlights:
            if mark.field:
                found.setdefault(mark.field, []).append(quote_md(mark))
        return found


def load(root: Path) -> dict[str, Annotations]:
    """Every synced item's notes and highlights by Zotero item key (none: no sync yet)."""
    colours = zotero_state.highlight_fields(root)
    found = {item: as_shown(entry, colours) for item, entry in zotero_state.load_children(root).items.items()}
    return {item: entry for item, entry in found.items() if entry}


def as_shown(entry: Mapping[str, Any], colours: Mapping[str, str]) -> Annotations:
    """``{"notes": {key: html}, "highlights": {key: {...}}}`` (conf/zotero-notes.json) as shown."""
    notes = tuple(html for _, html in sorted(_dict(entry.get("notes")).items()) if isinstance(html, str))
    marks = sorted((_dict(h) for h in _dict(entry.get("highlights")).values()), key=lambda h: str(h.get("sort", "")))
    return Annotations(notes, tuple(h for h in (_highlight(m, colours) for m in marks) if h.text or h.comment))


def of(work: Work, zotero: Mapping[str, Annotations]) -> Annotations:
    """The notes and highlights of every Zotero item the work came from (usually one)."""
    found = [zotero[item] for item in (item_key_of(s.file) for s in work.sources) if item in zotero]
    if len(found) == 1:
        return found[0]
    return Annotations(tuple(n for a in found for n in a.notes), tuple(h for a in found for h in a.highlights))


def section(found: Annotations) -> Md:
    """The "From Zotero" section: the notes, then the highlights no summary field shows; empty
    when there is neither (the page then shows nothing)."""
    notes = [md for md in map(note_md, found.notes) if md]
    lines = [highlight_md(h) for h in found.highlights if not h.field]
    if not notes and not lines:
        return Md("")
    parts = ["## From Zotero", str(md_text("Notes and highlights synced from the Zotero library."))]
    if notes:
        parts += ["### Notes", *notes]
    if lines:
        parts += ["### Highlights", "\n".join(lines)]
    return Md(strip_unsafe("\n\n".join(parts)))


def highlight_md(mark: Highlight) -> str:
    """One list line: the colour's name, the page, the highlighted text and the comment."""
    label = f"{mark.colour.capitalize()} highlight" if mark.colour else "Highlight"
    head = f"**{md_text(label)}**" + (f" {md_text(f'(p. {mark.page})')}" if mark.page else "")
    return f"- {head}: " + _said(mark)


def quote_md(mark: Highlight) -> Md:
    """A summary list item: the highlighted text, the page it is on, and the comment."""
    parts = [md_text(f"“{mark.text}”")] if mark.text else []
    parts += [md_text(f"(highlighted on p. {mark.page})" if mark.page else "(highlighted)")]
    parts += [md_text(f"— {mark.comment}")] if mark.comment else []
    return Md(" ".join(parts))


def _said(mark: Highlight) -> str:
    body = [md_text(f"“{mark.text}”")] if mark.text else []
    body += [md_text(f"— {mark.comment}")] if mark.comment else []
    return " ".join(body)


def _highlight(mark: Mapping[str, Any], colours: Mapping[str, str]) -> Highlight:
    colour = _text(mark.get("color")).lower()
    name = COLOURS.get(colour, colour)
    meaning = _text(colours.get(name) or colours.get(colour) or "")
    field = FIELDS.get(meaning.lower(), meaning)
    return Highlight(_text(mark.get("text")), _text(mark.get("comment")), name, _text(mark.get("page")), field)


def sanitise(html: str) -> str:
    """``html`` reduced to the allowed tags; links keep an http(s) ``href`` only."""
    return nh3.clean(
        html,
        tags=set(ALLOWED),
        attributes={"a": {"href"}},
        url_schemes={"http", "https"},
        link_rel=None,
        strip_comments=True,
    )


def note_md(html: str) -> str:
    """A note as MyST blocks (paragraphs and list items), its text escaped; empty if it has no text."""
    if not isinstance(html, str):
        return ""
    builder = _Blocks()
    builder.feed(sanitise(html))
    builder.close()
    return "\n\n".join(builder.finish())


def _text(value: Any) -> str:
    return " ".join(strip_unsafe(value).split()) if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _escaped(text: str) -> str:
    """A text run as ``md_text`` escapes it, its outer spaces kept (runs meet inside a paragraph)."""
    text = strip_unsafe(text)  # first: a dropped control character is no space ("\x1f".isspace())
    body = md_text(text)
    if not body:
        return " " if text[:1].isspace() or text[-1:].isspace() else ""
    return (" " if text[:1].isspace() else "") + body + (" " if text[-1:].isspace() else "")


class _Blocks(HTMLParser):
    """Sanitised note HTML -> MyST blocks: ``p`` a paragraph, ``li`` a list item (``-`` or ``1.``,
    indented by depth), ``em``/``strong`` emphasis around escaped text, ``a`` a link to an
    http(s) address in angle brackets (which ``SAFE_URL`` lets nothing end early)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.lists: list[str] = []  # "ul" / "ol" of the open lists, innermost last
        self.inline: list[list[str]] = [[]]  # the open inline runs: the block's, then each open em/strong/a
        self.hrefs: list[str] = []
        self.prefix = ""
        self.items = 0  # list items open

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p" and self.items:  # Zotero 7 writes <li><p>…</p></li>: the item's text, not a block
            self.inline[-1].append(" ")
            return
        if tag in ("p", "li", "ul", "ol"):
            self._flush()
        if tag in ("ul", "ol"):
            self.lists.append(tag)
        elif tag == "li":
            self.items += 1
            depth = max(len(self.lists) - 1, 0)
            self.prefix = "   " * depth + ("1. " if self.lists[-1:] == ["ol"] else "- ")
        elif tag in ("em", "strong", "a"):
            self.inline.append([])
            if tag == "a":
                self.hrefs.append(next((v or "" for k, v in attrs if k == "href"), ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self.items:
            self.inline[-1].append(" ")
        elif tag in ("p", "li"):
            if tag == "li" and self.items:
                self.items -= 1
            self._flush()
        elif tag in ("ul", "ol") and self.lists:
            self._flush()
            self.lists.pop()
        elif tag in ("em", "strong", "a") and len(self.inline) > 1:
            inner = "".join(self.inline.pop())
            self.inline[-1].append(self._wrapped(tag, inner))

    def handle_data(self, data: str) -> None:
        self.inline[-1].append(_escaped(data))

    def _wrapped(self, tag: str, inner: str) -> str:
        core = inner.strip()
        if not core:
            return inner
        lead, tail = " " * (inner[:1] == " "), " " * (inner[-1:] == " ")
        if tag == "a":
            href = self.hrefs.pop() if self.hrefs else ""
            core = f"[{core}](<{href}>)" if SAFE_URL.match(href) else core
        elif core[0].isalnum() and core[-1].isalnum():
            # CommonMark opens or closes emphasis beside punctuation (an escaped "\<") only
            # when a space or punctuation is on the other side: "0*\<x\>*" shows its stars.
            # Emphasis around letters and digits always holds; any other stays plain text.
            mark = "*" if tag == "em" else "**"
            core = f"{mark}{core}{mark}"
        return lead + core + tail

    def _flush(self) -> None:
        while len(self.inline) > 1:  # an element left open: its text, unwrapped
            inner = self.inline.pop()
            self.inline[-1].extend(inner)
        text = " ".join("".join(self.inline[0]).split())
        if text:
            self.blocks.append(self.prefix + text)
        self.inline, self.prefix = [[]], ""

    def finish(self) -> list[str]:
        self._flush()
        # List items of one list are one block: consecutive items joined by single newlines.
        out: list[str] = []
        for block in self.blocks:
            is_item = block.lstrip().startswith(("- ", "1. "))
            if is_item and out and out[-1].split("\n")[-1].lstrip().startswith(("- ", "1. ")):
                out[-1] += "\n" + block
            else:
                out.append(block)
        return out
