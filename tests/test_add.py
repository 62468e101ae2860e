"""``readinglist add arXiv:ID | DOI`` (issue 10, item 3): fetch, cache, merge; never the network.

The arXiv API and Crossref are served from 127.0.0.1 by a small HTTP server that answers with
the recorded responses under tests/fixtures/fetch/ (real Atom and Crossref message shapes);
conftest points both base URLs at a closed port for every other test.
"""

from __future__ import annotations

import http.server
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, copy_seeds
from readinglist.cli import main
from readinglist.errors import Code, ReadingListError
from readinglist.fetch.byid import fetch_all, parse_identifier
from readinglist.fetch.ids import Identifier
from readinglist.store import bibfile

RECORDED = FIXTURES / "fetch"
SPECIAL = {"2101.99999": "arxiv-empty.xml", "1234.12345": "arxiv-error.xml"}


@dataclass
class Server:
    url: str
    seen: list[str] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)  # ids answered with 200 and a body that is not the format


def _arxiv_answer(ids: list[str], server: Server) -> tuple[int, bytes]:
    if set(ids) & server.broken:
        return 200, b"<html><body>Service temporarily unavailable</body>"
    texts = [(RECORDED / SPECIAL.get(i, f"arxiv-{re.sub(r'v[0-9]+$', '', i)}.xml")) for i in ids]
    known = [p.read_text(encoding="utf-8") for p in texts if p.is_file()]
    if not known:
        return 200, (RECORDED / "arxiv-empty.xml").read_bytes()
    entries = [t[t.index("<entry>") : t.rindex("</entry>") + len("</entry>")] for t in known if "<entry>" in t]
    head = known[0].split("<entry>")[0] if "<entry>" in known[0] else known[0].replace("</feed>", "")
    return 200, (head + "\n".join(entries) + "\n</feed>\n").encode("utf-8")


def _crossref_answer(doi: str, server: Server) -> tuple[int, bytes]:
    if doi in server.broken:
        return 200, b"<html>not json</html>"
    if doi == "10.5555/busy":
        return 503, b"Service Unavailable"
    path = RECORDED / f"crossref-{doi.replace('/', '-')}.json"
    return (200, path.read_bytes()) if path.is_file() else (404, b"Resource not found.")


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """The arXiv API at /api/query and Crossref at /works/, on loopback."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.seen.append(self.path)
            parts = urlsplit(self.path)
            if parts.path == "/api/query":
                status, body = _arxiv_answer(parse_qs(parts.query)["id_list"][0].split(","), state)
            else:
                status, body = _crossref_answer(unquote(parts.path.removeprefix("/works/")), state)
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = Server(f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("READINGLIST_ARXIV_API", f"{state.url}/api/query")
    monkeypatch.setenv("READINGLIST_CROSSREF_API", f"{state.url}/works/")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both APIs at a port nothing listens on: what a machine without network sees (connection refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("READINGLIST_ARXIV_API", f"http://127.0.0.1:{port}/api/query")
    monkeypatch.setenv("READINGLIST_CROSSREF_API", f"http://127.0.0.1:{port}/works/")


def _add(root: Path, *ids: str) -> int:
    return main(["--root", str(root), "add", *ids])


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("arXiv:2101.00001", "arxiv", "2101.00001"),
        ("arxiv:2101.00001v2", "arxiv", "2101.00001v2"),
        ("https://arxiv.org/abs/2101.00001v3", "arxiv", "2101.00001v3"),
        ("https://arxiv.org/pdf/2101.00001.pdf", "arxiv", "2101.00001"),
        ("2101.00001", "arxiv", "2101.00001"),
        ("hep-th/9901001", "arxiv", "hep-th/9901001"),
        ("arXiv:math.AT/0101001v2", "arxiv", "math.AT/0101001v2"),
        ("10.1145/3458817.3476209", "crossref", "10.1145/3458817.3476209"),
        ("doi:10.1145/3458817.3476209", "crossref", "10.1145/3458817.3476209"),
        ("https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0", "crossref",
         "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0"),
        ("https://doi.org/10.48550/arXiv.2101.00001", "arxiv", "2101.00001"),  # DataCite's, not Crossref's
    ],
)  # fmt: skip
def test_identifiers_as_people_paste_them(text: str, kind: str, value: str) -> None:
    assert parse_identifier(text) == Identifier(kind, value)


@pytest.mark.parametrize("text", ["", "arXiv:", "arXiv:12.345", "10.1145", "ISBN 978-3-030-05318-5", "smith2021"])
def test_anything_else_is_a_one_line_error(text: str) -> None:
    with pytest.raises(ReadingListError) as info:
        parse_identifier(text)
    shown = text or '""'
    assert info.value.code == Code.BAD_ARGUMENT
    assert (
        str(info.value)
        == f"{shown}: not an arXiv id (arXiv:2101.00001) or a DOI (10.1145/3458817.3476209) [{info.value.code.shown}]"
    )


@given(
    st.one_of(
        st.builds("{}.{}v{}".format, st.integers(1000, 9999), st.integers(10000, 99999), st.integers(1, 9)),
        st.builds("10.{}/{}".format, st.integers(1000, 99999), st.text("abcXYZ0123456789.-_()<>;:", min_size=1)),
    )
)
def test_a_label_reads_back_as_its_identifier(value: str) -> None:
    ident = parse_identifier(value)
    assert parse_identifier(ident.label) == ident


def test_arxiv_atom_becomes_a_raw_record(api: Server, tmp_path: Path) -> None:
    [record] = fetch_all(["arXiv:2101.00001"], tmp_path / "cache")
    assert (record.source.file, record.source.line, record.source.kind) == ("arXiv:2101.00001", 1, "arxiv")
    assert record.title == r"Sheaf Cohomology of Spectral Graph Partitions with $O(n \log n)$ Work"
    assert record.authors == ("Ann Lee", "Bo Chen") and record.year == 2020
    assert record.abstract.startswith("We study sheaves") and "40% & more" in record.abstract
    assert record.categories == ("math.AT", "cs.DS")  # the MSC class 05C50 is not an arXiv category
    assert (record.eprint, record.doi, record.entry_type) == ("2101.00001v2", "10.5555/2101.00001", "misc")
    assert record.fields == (("note", r"J. Graph Examples 12 (2021) 1-20 \& errata"),)  # fields hold LaTeX


def test_crossref_json_becomes_a_raw_record(api: Server, tmp_path: Path) -> None:
    article, book = fetch_all(["https://doi.org/10.5555/12345678", "10.1007/978-3-030-05318-5"], tmp_path / "c")
    assert (article.source.file, article.source.kind, article.entry_type) == (
        "doi:10.5555/12345678",
        "crossref",
        "article",
    )
    assert article.title == "Sparse Partitions of Road Networks: A Case Study"  # markup gone, subtitle kept
    assert article.authors == ("Ann Lee", "José de la Cruz", "The Road Networks Consortium")
    assert article.abstract == (
        "We show that k-sparse partitions of road networks cost less than 1% of the naive bound. "
        "Experiments on 12 cities confirm it."
    )  # the JATS heading "Abstract" is not part of it
    fields = dict(article.fields)
    assert fields["journal"] == "Journal of Graph Examples" and fields["pages"] == "211--240"
    assert fields["publisher"] == r"Example Society for Graphs \& Networks" and article.year == 2022
    assert (book.entry_type, book.authors, book.year) == ("book", (), 2019)
    assert dict(book.fields)["editor"] == "Hutter, Frank and Kotthoff, Lars and Vanschoren, Joaquin"


def test_add_merges_a_known_paper_adds_a_new_one_and_a_second_add_needs_no_network(
    api: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_seeds(tmp_path / "seeds")
    before = set(bibfile.load(root / "refs.bib").entries)
    assert _add(root, "arXiv:2007.01045", "10.5555/12345678") == 0
    capsys.readouterr()
    assert len(api.seen) == 2  # one arXiv query, one Crossref work
    store = bibfile.load(root / "refs.bib")
    [new] = set(store.entries) - before
    assert len(store.entries) == len(before) + 1  # DAPPLE is in the seeds already: merged, not a second page
    assert store.entries[new].fields["doi"] == "10.5555/12345678"
    assert "arXiv:2007.01045:1" in store.entries["lin2020dapple"].fields["provenance"]
    text = (root / "refs.bib").read_bytes()
    assert (root / ".readinglist-cache" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    _offline(monkeypatch)
    assert _add(root, "arXiv:2007.01045", "doi:10.5555/12345678") == 0
    assert "0 added" in capsys.readouterr().out
    assert (root / "refs.bib").read_bytes() == text


def test_offline_is_one_line_naming_the_id_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_seeds(tmp_path / "seeds")
    text = (root / "refs.bib").read_bytes()
    _offline(monkeypatch)
    assert _add(root, "arXiv:2101.00001") == 1
    error = capsys.readouterr().err
    assert error.startswith("readinglist: error: arXiv:2101.00001: cannot reach the arXiv API (offline?): ")
    assert error.count("\n") == 1 and "Traceback" not in error and error.endswith("[readinglist.unreachable]\n")
    assert _add(root, "10.5555/12345678") == 1
    assert capsys.readouterr().err.startswith(
        "readinglist: error: doi:10.5555/12345678: cannot reach the Crossref API (offline?): "
    )
    assert (root / "refs.bib").read_bytes() == text
    assert not (root / ".readinglist-cache").exists()


@pytest.mark.parametrize(
    ("ids", "message", "code"),
    [
        (["arXiv:2101.99999"], "arXiv:2101.99999: not found by the arXiv API", Code.NOT_FOUND),
        (["arXiv:1234.12345"], "arXiv:1234.12345: the arXiv API says: incorrect id format for 1234.12345",
         Code.BAD_ANSWER),
        (["10.5555/nope"], "doi:10.5555/nope: not found by the Crossref API (HTTP 404)", Code.NOT_FOUND),
        (["10.5555/busy"], "doi:10.5555/busy: the Crossref API answered HTTP 503 Service Unavailable; try again later",
         Code.BAD_ANSWER),
        (["arXiv:2007.01045", "10.5555/12345678", "not-an-id"], "not-an-id: not an arXiv id", Code.BAD_ARGUMENT),
    ],
)  # fmt: skip
def test_an_id_that_cannot_be_fetched_stops_the_add_and_names_it(
    api: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str], ids: list[str], message: str, code: Code
) -> None:
    root = copy_seeds(tmp_path / "seeds")
    text = (root / "refs.bib").read_bytes()
    assert _add(root, "arXiv:2101.00001", *ids) == 1
    error = capsys.readouterr().err  # what the user reads: the id, the problem, the code
    assert error.startswith(f"readinglist: error: {message}") and error.endswith(f" [{code.shown}]\n")
    assert (root / "refs.bib").read_bytes() == text  # all or nothing: the good id is not added either
    if "not-an-id" in ids:
        assert api.seen == []  # every id is checked before anything is asked


def test_a_broken_answer_is_an_error_and_is_not_cached(api: Server, tmp_path: Path) -> None:
    api.broken |= {"2101.00001", "10.5555/12345678"}
    for ident in ("arXiv:2101.00001", "doi:10.5555/12345678"):
        with pytest.raises(ReadingListError) as info:
            fetch_all([ident], tmp_path / "cache")
        assert (info.value.file, info.value.code) == (ident, Code.BAD_ANSWER)
    assert not (tmp_path / "cache").exists()
    api.broken.clear()
    assert fetch_all(["arXiv:2101.00001"], tmp_path / "cache")[0].eprint == "2101.00001v2"


def test_several_arxiv_ids_are_one_request_and_refresh_asks_again(api: Server, tmp_path: Path) -> None:
    records = fetch_all(["arXiv:2101.00001", "2007.01045", "arXiv:2101.00001v2"], tmp_path / "cache")
    assert [r.source.file for r in records] == ["arXiv:2101.00001", "arXiv:2007.01045", "arXiv:2101.00001v2"]
    assert len(api.seen) == 1
    fetch_all(["arXiv:2101.00001", "arXiv:2007.01045"], tmp_path / "cache")
    assert len(api.seen) == 1  # both kept
    fetch_all(["arXiv:2101.00001"], tmp_path / "cache", refresh=True)
    assert len(api.seen) == 2
