"""The search index in shards (site/shards.py), in a real browser: one search finds papers of
every shard, and after a note edit or a deleted paper, ``readinglist build`` re-indexes only the
shards that changed, and the search shows the new text and no longer finds the deleted page.

The seed list is built with 4 papers a shard (conftest.SHARD_PAGES): 4 shards of papers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CHROMIUM, RESULTS_SHOWN, build_site, chromium, copy_seeds
from readinglist.site.shards import ENTRY, RECORD, SITE, Shard

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
DAPPLE, WAVELETS = "papers/lin2020dapple.html", "papers/yulearnable.html"
NEW_WORD = "Zyxquorble"  # in no page until the note edit below
# Every result's URL through the merged API (past the UI's first page).
ALL_RESULTS = """async (term) => {
  const pagefind = await import(new URL("pagefind-merged/pagefind.js", location.href).href);
  await pagefind.options({baseUrl: new URL(".", location.href).pathname, excerptLength: 12});
  const search = await pagefind.search(term);
  return Promise.all(search.results.map(async (r) => (await r.data()).url));
}"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_seeds(tmp_path_factory.mktemp("shards") / "seeds")


@pytest.fixture(scope="module")
def built(project: Path) -> Path:
    return build_site(project)


@pytest.fixture(scope="module")
def page(site: str) -> Iterator[object]:
    with chromium() as browser:
        yield browser.new_page()


def _shard_of(out: Path, page: str) -> str:
    record = json.loads((out.parent / "doctrees" / RECORD).read_text(encoding="utf-8"))
    return str(next(key for key, kept in record.items() if page in kept["pages"]))


def _entries(out: Path) -> dict[str, int]:
    """Each shard's bundle by the time Pagefind finished it."""
    record = json.loads((out.parent / "doctrees" / RECORD).read_text(encoding="utf-8"))
    return {key: (out / Shard(key, {}).bundle / ENTRY).stat().st_mtime_ns for key in record}


def _found(page: object, site: str, term: str) -> list[str]:
    page.goto(f"{site}/search.html")  # type: ignore[attr-defined]
    return [url.split("#")[0] for url in page.evaluate(ALL_RESULTS, term)]  # type: ignore[attr-defined]


def _ui_results(page: object, site: str, term: str) -> list[str]:
    page.goto(f"{site}/search.html?q={term}")  # type: ignore[attr-defined]
    page.wait_for_function(RESULTS_SHOWN, timeout=15_000)  # type: ignore[attr-defined]
    links = page.locator(".pagefind-ui__result-link")  # type: ignore[attr-defined]
    return [str(h).split("#")[0] for h in links.evaluate_all("els => els.map(e => e.getAttribute('href'))")]


def test_the_index_is_in_shards_and_one_search_finds_papers_of_each(page: object, site: str, built: Path) -> None:
    record = json.loads((built.parent / "doctrees" / RECORD).read_text(encoding="utf-8"))
    assert sorted(record) == ["0", "1", "2", "3", SITE]
    assert _shard_of(built, DAPPLE) != _shard_of(built, WAVELETS)
    assert _ui_results(page, site, "DAPPLE")[0] == f"/{DAPPLE}"  # a title word: its paper first
    assert _ui_results(page, site, "wavelet")[0] == f"/{WAVELETS}"
    # Pagefind gives a folder's index.html as the folder.
    found = [re.sub(r"(^|/)$", r"\1index.html", url.lstrip("/")) for url in _found(page, site, "learning")]
    assert {_shard_of(built, url) for url in found} == set(record)  # one search, results from every shard


def test_a_note_edit_reindexes_its_shard_only_and_a_deleted_paper_is_not_found(
    page: object, site: str, built: Path, project: Path
) -> None:
    before = _entries(built)
    note = project / "docs" / "notes" / "lin2020dapple.md"
    note.write_text(note.read_text(encoding="utf-8") + f"\n{NEW_WORD} scheduling.\n", encoding="utf-8")
    build_site(project)
    after = _entries(built)
    assert [key for key in before if after[key] != before[key]] == [_shard_of(built, DAPPLE)]
    assert _found(page, site, NEW_WORD) == [f"/{DAPPLE}"]

    bib = project / "refs.bib"
    bib.write_text(re.sub(r"@misc\{yulearnable,.*?\n}\n\n", "", bib.read_text(encoding="utf-8"), flags=re.S))
    build_site(project)
    assert not (built / WAVELETS).exists()  # Sphinx leaves a deleted document's page; the extension removes it
    assert f"/{WAVELETS}" not in _found(page, site, "wavelet")
    assert WAVELETS not in {
        p for kept in json.loads((built.parent / "doctrees" / RECORD).read_text()).values() for p in kept["pages"]
    }
