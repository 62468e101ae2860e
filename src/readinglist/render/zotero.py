"""The "From Zotero" section of a paper page: the item's child notes and PDF highlights.

A Zotero note is HTML written anywhere (a shared group, a web clipper): untrusted. It is
sanitised by nh3 (ammonia) to paragraphs, emphasis, lists and http(s) links, then written as
MyST from that tree, every text run escaped (``escape.py``), so no HTML, role, directive or
``javascript:`` link of a note reaches the page. A highlight is its text, its comment, its page
label and what its colour stands for (``conf/zotero.toml`` ``[highlights]``).

``readinglist sync zotero`` writes the section of each synced item to ``docs/_zotero/<slug>.txt``
(not a page: Sphinx reads only ``.md``) and the paper page includes it, so the owner's
``docs/notes/`` is never touched and a sync that changes only notes rebuilds only their pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

import nh3

from ..chars import strip_unsafe
from ..model import Work
from ..sources.zotero_items import item_key_of
from .escape import Md, md_text
from .venue import SAFE_URL

FOLDER = "_zotero"  # under docs/: the generated sections, one per synced item
ALLOWED = frozenset({"p", "em", "strong", "ul", "ol", "li", "a"})
# Zotero 7's highlight colours, by the names its menu gives them.
COLOURS: Mapping[str, str] = {
    "#ffd400": "yellow", "#ff6666": "red", "#5fb236": "green", "#2ea8e5": "blue",
    "#a28ae5": "purple", "#e56eee": "magenta", "#f19837": "orange", "#aaaaaa": "gray",
}  # fmt: skip


def file_name(slug: str) -> str:
    """The section's file, relative to docs/."""
    return f"{FOLDER}/{slug}.txt"


def synced(work: Work) -> bool:
    """The work came from a Zotero item: its page includes the item's section."""
    return any(item_key_of(source.file) for source in work.sources)


def include(slug: str) -> Md:
    """The paper page's block that shows the section (written by the sync beside the pages)."""
    return Md(f"```{{include}} ../{file_name(slug)}\n```")


def section(children: Mapping[str, Any], colours: Mapping[str, str]) -> str:
    """The section's MyST for one item's ``{"notes": {key: html}, "highlights": {key: {...}}}``;
    empty when it has neither (the page then shows nothing)."""
    notes = [md for md in (note_md(html) for _, html in sorted(_dict(children.get("notes")).items())) if md]
    marks = sorted(_dict(children.get("highlights")).values(), key=lambda h: str(_dict(h).get("sort", "")))
    lines = [line for line in (highlight_md(_dict(h), colours) for h in marks) if line]
    if not notes and not lines:
        return ""
    parts = ["## From Zotero", str(md_text("Notes and highlights synced from the Zotero library."))]
    if notes:
        parts += ["### Notes", *notes]
    if lines:
        parts += ["### Highlights", "\n".join(lines)]
    return strip_unsafe("\n\n".join(parts)) + "\n"


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


def highlight_md(mark: Mapping[str, Any], colours: Mapping[str, str]) -> str:
    """One list line: what the colour stands for, the page, the highlighted text and the comment."""
    said, comment = _text(mark.get("text")), _text(mark.get("comment"))
    if not said and not comment:
        return ""
    colour = _text(mark.get("color")).lower()
    name = COLOURS.get(colour, colour)
    label = colours.get(name) or colours.get(colour) or (f"{name.capitalize()} highlight" if name else "Highlight")
    page = _text(mark.get("page"))
    head = f"**{md_text(label)}**" + (f" {md_text(f'(p. {page})')}" if page else "")
    body = [md_text(f"“{said}”")] if said else []
    body += [md_text(f"— {comment}")] if comment else []
    return f"- {head}: " + " ".join(body)


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
