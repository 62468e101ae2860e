"""Search on a phone (issue 27): ``python benchmarks/bench.py --search [--n 2000]``.

A synthetic list of N works (``synthetic.py``, with the notes ``project.py`` writes) is imported,
generated and built; its site is served from 127.0.0.1 (``browser.serve``: no network delay, no
compression) and opened in headless Chromium at 390 px with the CPU slowed down 4 times
(DevTools' ``Emulation.setCPUThrottlingRate``). Measured: what the search page fetches before a
query (bytes, requests, time to a usable box), and what the first query fetches and how long it
takes from the keystroke to the first result drawn. Bytes are the bodies as served; ``gzip`` is
what the text files would weigh compressed, as most static hosts send them (Pagefind's own index
files are compressed already). Then the relevance set of ``tests/test_search_relevance.py`` (a
list built from the fixture exports) gives precision at 1 and at 5.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import project
from browser import ARGS, serve
from synthetic import make_corpus

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
QUERY = "pipeline scheduling"
PHONE = {"width": 390, "height": 844}
TEXT_TYPES = ("text/", "javascript", "json", "svg", "xml")
# The time from the query's input event to the first result link in the page (or "No results").
WATCH = """() => {
  window.benchTimes = {};
  const box = document.querySelector(".pagefind-ui__search-input");
  box.addEventListener("input", () => (window.benchTimes.typed ??= performance.now()), {once: true});
  new MutationObserver(() => {
    const none = /^No results/.test(document.querySelector(".pagefind-ui__message")?.textContent ?? "");
    if (none || document.querySelector(".pagefind-ui__result-link")) window.benchTimes.shown ??= performance.now();
  }).observe(document.getElementById("search"), {childList: true, subtree: true});
}"""


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="number of works (default 2000)")
    parser.add_argument("--site", type=Path, help="a built site to measure instead of building one")
    parser.add_argument("--out", type=Path, help="build the list in this empty folder and keep it")
    parser.add_argument("--rate", type=float, default=4.0, help="CPU slowdown (default 4)")
    parser.add_argument("--query", default=QUERY, help=f"the first query (default {QUERY!r})")
    parser.add_argument("--no-relevance", action="store_true", help="skip the relevance set")
    parser.add_argument(
        "--queries",
        type=Path,
        help="a JSON list of [query, expected page under papers/ ('a|b': either)] for --site's list, "
        "instead of the test suite's set on its own list",
    )
    parser.add_argument("--json", type=Path, help="results file (default benchmarks/results-search-N.json)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="readinglist-search-") as folder:
        site = args.site or build(args.out or Path(folder) / "list", args.n)
        results: dict[str, Any] = {"n": args.n, "rate": args.rate, "query": args.query}
        results["phone"] = measure(site, args.query, args.rate)
        if args.queries:
            queries = [(query, expected) for query, expected in json.loads(args.queries.read_text(encoding="utf-8"))]
            results["relevance"] = relevance_of(site, queries)
        elif not args.no_relevance:
            results["relevance"] = relevance(Path(folder) / "relevance")
    path = args.json or HERE / f"results-search-{args.n}.json"
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(report(results))
    print(f"\nresults: {path}")
    return 0


def build(root: Path, n: int) -> Path:
    """A synthetic list of ``n`` works, built as a user builds it; its site folder."""
    project.write_project(root, make_corpus(n, 1))
    command = [sys.executable, "-m", "readinglist", "--root", str(root)]
    subprocess.run([*command, "import"], check=True, capture_output=True)
    project.write_notes(root)
    subprocess.run([*command, "generate"], check=True, capture_output=True)
    subprocess.run([*command, "build", "--out", str(root / "site")], check=True, capture_output=True)
    return root / "site"


def measure(site: Path, query: str, rate: float) -> dict[str, Any]:
    """The search page's load and its first query, in a fresh context (an empty cache)."""
    from playwright.sync_api import sync_playwright

    with serve(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        responses: list[Any] = []
        page.on("response", lambda response: responses.append(response))  # playwright wants a Python callable
        page.goto(f"{base}search.html")
        page.wait_for_selector(".pagefind-ui__search-input")
        ready = page.evaluate("() => performance.now()")
        page.wait_for_load_state("networkidle")
        loaded = len(responses)
        page.evaluate(WATCH)
        page.fill(".pagefind-ui__search-input", query)
        page.wait_for_function("() => window.benchTimes.shown !== undefined", timeout=120_000)
        page.wait_for_load_state("networkidle")
        times = page.evaluate("() => window.benchTimes")
        found = page.locator(".pagefind-ui__message").inner_text()
        load, first = _weigh(responses[:loaded]), _weigh(responses[loaded:])
        browser.close()
    return {
        "page": load | {"ms_to_search_box": round(ready)},
        "first_query": first | {"ms_to_first_result": round(times["shown"] - times["typed"]), "message": found},
    }


def _weigh(responses: list[Any]) -> dict[str, Any]:
    """Bytes (as served and as gzip would send the text files) and requests, by kind of file."""
    total = compressed = 0
    kinds: dict[str, int] = {}
    for response in responses:
        body = _body(response)
        kind = Path(response.url.split("?")[0]).suffix.lstrip(".") or "other"
        kinds[kind] = kinds.get(kind, 0) + len(body)
        total += len(body)
        text = any(t in response.headers.get("content-type", "") for t in TEXT_TYPES)
        compressed += len(gzip.compress(body, 6)) if text else len(body)
    return {"requests": len(responses), "bytes": total, "gzip_bytes": compressed, "by_kind": kinds}


def _body(response: Any) -> bytes:
    try:
        return bytes(response.body())
    except Exception:  # a redirect or an aborted request has no body
        return b""


def _kit() -> Any:
    sys.path.insert(0, str(TESTS))
    import test_search_relevance as kit  # the list and the queries, as the suite checks them

    return kit


def relevance(folder: Path) -> dict[str, Any]:
    """Precision at 1 and at 5 of the relevance set of the test suite, on the list it builds."""
    kit = _kit()
    return relevance_of(kit.build_site(kit.make_project(folder)), kit.RELEVANCE)


def relevance_of(site: Path, queries: list[tuple[str, str]]) -> dict[str, Any]:
    """Precision at 1 and at 5 of ``queries`` on ``site``, through the merged API the page uses."""
    from playwright.sync_api import sync_playwright

    kit = _kit()
    with serve(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        page = browser.new_page()
        page.goto(f"{base}search.html")
        found = page.evaluate(kit.TOP_FIVE, [query for query, _ in queries])
        browser.close()
    return kit.precision(found, queries)


def report(results: dict[str, Any]) -> str:
    page, first = results["phone"]["page"], results["phone"]["first_query"]
    lines = [
        f"search at {results['n']} works, 390 px, CPU x{results['rate']:g}, query {results['query']!r}:",
        f"  page:        {page['requests']} requests, {page['bytes'] / 1024:.0f} KB "
        f"({page['gzip_bytes'] / 1024:.0f} KB gzip), search box after {page['ms_to_search_box']} ms",
        f"  first query: {first['requests']} requests, {first['bytes'] / 1024:.0f} KB "
        f"({first['gzip_bytes'] / 1024:.0f} KB gzip), first result after {first['ms_to_first_result']} ms "
        f"({first['message']})",
        "  page by kind: " + ", ".join(f"{kind} {n / 1024:.0f} KB" for kind, n in _largest(page["by_kind"])),
    ]
    if "relevance" in results:
        rel = results["relevance"]
        lines.append(f"  relevance:   P@1 {rel['p_at_1']:.2f}, P@5 {rel['p_at_5']:.2f} ({rel['queries']} queries)")
    return "\n".join(lines)


def _largest(kinds: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(kinds.items(), key=lambda item: -item[1])


if __name__ == "__main__":
    sys.exit(main())
