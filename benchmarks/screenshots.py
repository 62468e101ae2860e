"""The guide's screenshots: a filtered search, a topic page, a paper page and its Cite menu on a phone,
the reading queue, a topic's related-work graph and the papers-per-year chart in light and dark.

Builds this repository's reading list in a temporary copy (the working tree is never written;
the queue is the seed list's, tests/fixtures/seeds, whose notes mark papers to read: this list's
own notes are its owner's and mark none),
serves it on loopback (Pagefind loads its index over HTTP) and takes PNGs with Debian's
Chromium through Playwright (no browser download). Run from the repository root:

    python benchmarks/screenshots.py            # writes docs/_static/screenshots/*.png
    python benchmarks/screenshots.py --check    # the guide shows each of them (no browser)

Taking them needs `playwright` (the Python package) and `chromium` on PATH, as the browser tests do.
The check is run by `nox -s docs`: the test suite never reads this repository's docs/ (see
tests/conftest.py), and Sphinx itself only warns about a missing image, not a stale or bloated one.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from browser import ARGS, serve

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "_static" / "screenshots"
GUIDE = REPO / "docs" / "guide.md"
PNG = b"\x89PNG\r\n\x1a\n"
LIMIT = 200 * 1024  # bytes per image: the repository keeps every version of every screenshot
TOPIC = "Machine-learning systems and compilers"
SEARCH = "search.html?" + urlencode([("q", "training"), ("year", "2019"), ("topic", TOPIC)])
DESKTOP = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}
# Pagefind's UI has drawn the filtered results, with the year ticked (as in tests/test_browser.py).
RESULTS_SHOWN = """() => {
  const message = document.querySelector(".pagefind-ui__message")?.textContent ?? "";
  const found = /^(\\d+) results? for/.exec(message);
  const shown = document.querySelectorAll(".pagefind-ui__result-link").length;
  return found !== null && shown >= Math.min(Number(found[1]), 5)
    && document.querySelector('input.pagefind-ui__filter-checkbox[name="year"][value="2019"]')?.checked;
}"""


def copy_list(dest: Path) -> Path:
    """The list's own files (tracked or new, not ignored): generated pages are rebuilt, not copied."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", "--", "refs.bib", "conf", "docs"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    for rel in filter(None, listed.split("\0")):
        if (REPO / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / rel, dest / rel)
    return dest


def build(root: Path) -> Path:
    from readinglist.cli import main

    out = root / "docs" / "_build" / "html"
    if main(["--root", str(root), "build", "--out", str(out)]) != 0:
        raise SystemExit("the build failed")
    return out


def search(page: Any, base: str) -> dict[str, Any]:
    """A shared filtered view: down to the Year group, so both ticked filters show."""
    page.goto(base + SEARCH)
    page.wait_for_function(RESULTS_SHOWN, timeout=30_000)
    return {"full_page": True, "clip": _down_to(page, ".pagefind-ui__filter-panel")}


def topic(page: Any, base: str) -> dict[str, Any]:
    page.goto(base + "topics/ml-systems.html")
    return {"full_page": True, "clip": _down_to(page, ".sd-container-fluid")}


def paper(page: Any, base: str) -> dict[str, Any]:
    page.goto(base + "papers/lin2020dapple.html")
    return {}


def cite(page: Any, base: str) -> dict[str, Any]:
    """The Cite menu, with the copy button a pointer over the BibTeX brings up."""
    page.goto(base + "papers/lin2020dapple.html")
    # Scrolled down in one step, below the phone's header bar: no "Back to top" button, no :target highlight.
    page.evaluate("window.scrollTo(0, document.getElementById('cite').getBoundingClientRect().top + scrollY - 64)")
    page.locator(".readinglist-cite pre").first.hover()
    page.locator(".readinglist-cite .copybtn").first.wait_for(state="visible")
    return {}


def _down_to(page: Any, selector: str) -> dict[str, float]:
    """The page from its top to a little below ``selector``, the window's width."""
    box = page.locator(selector).first.bounding_box()
    return {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": box["y"] + box["height"] + 24}


def queue(page: Any, base: str) -> dict[str, Any]:
    page.goto(base + "queue.html")
    return {"full_page": True, "clip": _down_to(page, "article[role=main]")}


def queue_dark(page: Any, base: str) -> dict[str, Any]:
    page.emulate_media(color_scheme="dark")
    return queue(page, base)


def _around(page: Any, selector: str, pad: int = 12) -> dict[str, Any]:
    """The first visible ``selector`` with a margin, wherever it is on the page."""
    box = page.locator(f"{selector} >> visible=true").first.bounding_box()
    clip = {"x": max(box["x"] - pad, 0), "y": max(box["y"] - pad, 0)}
    return {"full_page": True, "clip": clip | {"width": box["width"] + 2 * pad, "height": box["height"] + 2 * pad}}


def graph(page: Any, base: str) -> dict[str, Any]:
    page.goto(base + "topics/ml-systems.html")
    return _around(page, "figure.rl-graph")


def chart(page: Any, base: str) -> dict[str, Any]:
    page.goto(base + "index.html")
    return _around(page, "section#papers-per-year")  # its heading, the chart and the table's summary


def _dark(visit: Callable[[Any, str], dict[str, Any]]) -> Callable[[Any, str], dict[str, Any]]:
    def dark(page: Any, base: str) -> dict[str, Any]:
        page.emulate_media(color_scheme="dark")
        return visit(page, base)

    return dark


Shot = Callable[[Any, str], dict[str, Any]]
SHOTS: dict[str, tuple[Shot, dict[str, int]]] = {
    "search-filtered.png": (search, DESKTOP),
    "topic-page.png": (topic, DESKTOP),
    "paper-phone.png": (paper, PHONE),
    "cite-phone.png": (cite, PHONE),
}
SEEDS = REPO / "tests" / "fixtures" / "seeds"
SEED_SHOTS: dict[str, tuple[Shot, dict[str, int]]] = {  # taken on the seed list
    "queue-light.png": (queue, DESKTOP),
    "queue-dark.png": (queue_dark, DESKTOP),
    "graph-light.png": (graph, DESKTOP),
    "graph-dark.png": (_dark(graph), DESKTOP),
    "chart-light.png": (chart, DESKTOP),
    "chart-dark.png": (_dark(chart), DESKTOP),
}


def shoot(html: Path, out: Path, shots: dict[str, tuple[Shot, dict[str, int]]] = SHOTS) -> list[Path]:
    """One PNG per entry of ``shots``, at device scale 1 (small files: the guide shows them scaled)."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with serve(html) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        for name, (visit, viewport) in shots.items():
            context = browser.new_context(viewport=viewport, device_scale_factor=1, color_scheme="light")
            page = context.new_page()
            options = visit(page, base)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(out / name), animations="disabled", **options)
            context.close()
        browser.close()
    return [out / name for name in shots]


def check(guide: Path = GUIDE, folder: Path = OUT) -> list[str]:
    """What is wrong between the guide and its screenshots, one line each (nothing: all is well)."""
    text = guide.read_text(encoding="utf-8")
    problems = []
    for name in SHOTS | SEED_SHOTS:
        path = folder / name
        if not re.search(rf"!\[[^\]\s][^\]]*\]\(_static/screenshots/{re.escape(name)}\)", text):
            problems.append(f"{guide}: does not show {name} with alt text")
        if not path.is_file() or path.read_bytes()[:8] != PNG:
            problems.append(f"{path}: not a PNG file")
        elif path.stat().st_size > LIMIT:
            problems.append(f"{path}: {path.stat().st_size // 1024} KB, more than {LIMIT // 1024} KB")
    problems += [
        f"{path}: not one of the screenshots this script takes"
        for path in sorted(folder.glob("*"))
        if path.name not in SHOTS | SEED_SHOTS
    ]
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="check the guide shows each screenshot; take none")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="take only these screenshots (file names)")
    args = parser.parse_args()
    if args.check:
        problems = check(GUIDE, args.out)
        print("\n".join(problems) or f"{GUIDE.name}: {len(SHOTS | SEED_SHOTS)} screenshots, each shown")
        raise SystemExit(1 if problems else 0)
    with tempfile.TemporaryDirectory(prefix="readinglist-shots-") as tmp:
        html = build(copy_list(Path(tmp) / "list"))
        seeds = build(Path(shutil.copytree(SEEDS, Path(tmp) / "seeds")))
        wanted = set(args.only or SHOTS | SEED_SHOTS)
        mine = {name: shot for name, shot in SHOTS.items() if name in wanted}
        seed = {name: shot for name, shot in SEED_SHOTS.items() if name in wanted}
        for path in [*shoot(html, args.out, mine), *shoot(seeds, args.out, seed)]:
            print(f"{path}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
