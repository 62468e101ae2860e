"""Drawing a papers-per-year chart with matplotlib's SVG backend, once for both themes.

The chart is drawn with stand-in colours for text, axes and grid lines, which are then swapped
for each theme's: one drawing gives both files. The output is byte-stable for the same data
(fixed ``svg.hashsalt`` for the clip-path ids, no date or creator in the metadata), so an
unchanged chart never rewrites its file and Sphinx rebuilds nothing for it. Each file starts
with a key of its data and of this drawing code; a chart whose key matches the last generate's
file is read back, not drawn again. The key is :func:`readinglist.cache.key_of` of the counts
(every field), matplotlib's version and the code; the charts of one generate that share counts
are drawn once (``charts.Charts``, an in-process dict keyed by the counts themselves, which
lives no longer than the generate and so needs no code or version in its key).
"""

from __future__ import annotations

import io
import math
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ..cache import key_of
from .links import year_span

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch

    from .charts import Counts

# Okabe and Ito's colour-blind-safe palette (black left out: the dark theme's background).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
REST = "#8C8C8C"  # "In no subtopic"
# Stand-ins drawn, then replaced; no palette colour is one of them.
INK, RULE = "#0A0B0C", "#0A0B0D"
THEMES = {"light": {INK: "#1F2328", RULE: "#D0D7DE"}, "dark": {INK: "#D4D4D8", RULE: "#3D444D"}}
RC: Any = {
    "svg.hashsalt": "readinglist",  # clip-path ids from the data, not random
    "svg.fonttype": "none",  # text as <text>: small files, selectable, the reader's sans-serif
    "text.parse_math": False,  # a "$" in a topic's title is a dollar sign
    "font.size": 9.5,
    "font.family": "sans-serif",
}
# Inches; shown at its own size (6.6 in = 634 px), the text is as large as the page's small print.
WIDTH, LEFT, RIGHT, TOP, PLOT, BOTTOM = 6.6, 0.5, 0.15, 0.12, 1.8, 0.34
ROW = 0.22  # one legend row
LABEL = 44  # legend labels longer than this are cut (the table has them whole)
MARK = "<!-- readinglist-chart "
CHART = "chart"  # the kind of result in the key (readinglist.cache.key_of)
# Read once, when the first chart is wanted (this module is imported then): matplotlib may draw
# the same counts differently in another version.
MATPLOTLIB = version("matplotlib")


def themed(counts: Counts, previous: Path | None) -> tuple[str, str]:
    """The light and the dark SVG of ``counts``; ``previous`` is the last generate's light file."""
    key = key_of(CHART, counts, MATPLOTLIB)  # every field of the counts, the code, matplotlib
    if previous is not None:
        kept = _kept(previous, key), _kept(previous.with_name(previous.stem + ".dark.svg"), key)
        if kept[0] and kept[1]:
            return kept[0], kept[1]
    drawn = _draw(counts)
    light, dark = (_paint(drawn, THEMES[name]) for name in ("light", "dark"))
    return _stamped(light, key), _stamped(dark, key)


def _kept(path: Path, key: str) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if text.startswith(f"{MARK}{key} -->\n") else None


def _stamped(svg: str, key: str) -> str:
    # The key takes the XML declaration's place (UTF-8 is XML's default): line one says what drew the file.
    body = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    return f"{MARK}{key} -->\n{body}"


def _paint(svg: str, colours: dict[str, str]) -> str:
    for stand_in, colour in colours.items():
        svg = svg.replace(stand_in, colour).replace(stand_in.lower(), colour)
    return svg


def _draw(counts: Counts) -> str:
    import matplotlib as mpl
    from matplotlib.figure import Figure

    stacked = len(counts.rows) > 1
    rows = math.ceil(len(counts.rows) / 2) if stacked else 0
    height = TOP + PLOT + BOTTOM + (rows * ROW + 0.08 if rows else 0)
    with mpl.rc_context(RC):
        fig = Figure(figsize=(WIDTH, height))
        ax = fig.add_axes((LEFT / WIDTH, 1 - (TOP + PLOT) / height, 1 - (LEFT + RIGHT) / WIDTH, PLOT / height))
        handles = _bars(ax, counts)
        _axes(ax, counts)
        if stacked:
            top = 1 - (TOP + PLOT + BOTTOM) / height
            fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(LEFT / WIDTH - 0.01, top), ncols=2,
                       frameon=False, labelcolor=INK, handlelength=1.0, columnspacing=1.5)  # fmt: skip
        out = io.StringIO()
        fig.savefig(out, format="svg", transparent=True, metadata={"Date": None, "Creator": None})
    return _titled(out.getvalue(), counts)


def _bars(ax: Axes, counts: Counts) -> list[Patch]:
    """One collection of rectangles per group: a bar artist per year and group costs ~10x the time."""
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Patch

    bottom = [0] * len(counts.years)
    last = len(counts.rows) - 1
    handles = []
    for i, (label, row) in enumerate(zip(counts.labels, counts.rows, strict=True)):
        colour = REST if counts.other and i == last else PALETTE[i % len(PALETTE)]
        boxes = [_box(year, low, n) for year, low, n in zip(counts.years, bottom, row, strict=True) if n]
        ax.add_collection(PolyCollection(boxes, facecolors=colour, linewidths=0), autolim=False)
        handles.append(Patch(color=colour, label=label if len(label) <= LABEL else label[: LABEL - 1].rstrip() + "…"))
        bottom = [b + n for b, n in zip(bottom, row, strict=True)]
    ax.set_ylim(0, max(bottom) * 1.05)
    return handles


def _box(year: int, low: int, n: int) -> list[tuple[float, float]]:
    return [(year - 0.4, low), (year + 0.4, low), (year + 0.4, low + n), (year - 0.4, low + n)]


def _axes(ax: Axes, counts: Counts) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    ax.set_xlim(counts.years[0] - 0.6, counts.years[-1] + 0.6)
    ax.set_ylabel("Papers", color=INK)
    ax.tick_params(colors=INK, length=3)
    ax.grid(axis="y", color=RULE, linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color(INK)


def _titled(svg: str, counts: Counts) -> str:
    """A ``<title>`` for the file opened on its own (on a page, the ``<img>``'s alt text speaks)."""
    span = year_span(list(counts.years))
    title = f"<title>{escape(f'Papers per year, {span}')}</title>"
    end = svg.index(">", svg.index("<svg")) + 1  # the end of the root element's start tag
    return f"{svg[:end]}\n {title}{svg[end:]}"
