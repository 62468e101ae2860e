"""HTTP GET for the fetchers: one-line errors that say whether the network or the service failed.

Base URLs come from the environment (``READINGLIST_ARXIV_API``, ``READINGLIST_CROSSREF_API``),
so tests serve recorded answers from 127.0.0.1 and never reach the network.
"""

from __future__ import annotations

import http.client
import os
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from .. import __version__
from ..errors import Code, ReadingListError

BASES = {
    "arxiv": ("READINGLIST_ARXIV_API", "https://export.arxiv.org/api/query"),
    "crossref": ("READINGLIST_CROSSREF_API", "https://api.crossref.org/works/"),
}
SERVICES = {"arxiv": "arXiv API", "crossref": "Crossref API"}
TIMEOUT = 30.0
MAX_BYTES = 8 * 1024 * 1024  # an answer about a few papers is kilobytes; more is not an answer


def base_url(kind: str) -> str:
    variable, default = BASES[kind]
    url = os.environ.get(variable) or default
    if urlsplit(url).scheme not in ("http", "https"):
        raise ReadingListError(f"{variable} must be an http(s) URL, not {url!r}", code=Code.BAD_CONFIG)
    return url


def get(url: str, kind: str, who: str) -> str:
    """The body of ``url`` as text; ``who`` (the ids asked for) starts every error."""
    service = SERVICES[kind]
    request = urllib.request.Request(url, headers={"User-Agent": _agent()})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            data: bytes = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise ReadingListError(f"not found by the {service} (HTTP 404)", who, code=Code.NOT_FOUND) from None
        raise ReadingListError(
            f"the {service} answered HTTP {exc.code} {exc.reason}; try again later", who, code=Code.BAD_ANSWER
        ) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise ReadingListError(f"cannot reach the {service} (offline?): {reason}", who, code=Code.UNREACHABLE) from None
    if len(data) > MAX_BYTES:
        raise ReadingListError(f"the {service} sent more than {MAX_BYTES} bytes; not read", who, code=Code.BAD_ANSWER)
    return data.decode("utf-8", errors="replace")


def _agent() -> str:
    # Crossref asks for a contact address in the User-Agent (its "polite pool"); give one if set.
    mailto = os.environ.get("READINGLIST_MAILTO", "")
    return f"readinglist/{__version__} (python-urllib" + (f"; mailto:{mailto})" if mailto else ")")
