"""The Zotero Web API v3, read only: what changed in a library since a version, page by page.

On urllib, as ``web.py`` is, not pyzotero: pyzotero's base address is fixed (the public API or
the local one), it sends no ``If-Modified-Since-Version`` on item reads (the one header that
makes an unchanged library a single 304 answer), and it waits out ``Backoff`` with the real
``time.sleep``, which tests cannot replace. The API is small; the rules it states are here:
``Zotero-API-Version: 3``, ``since=`` with ``If-Modified-Since-Version``, pages of at most 100
(``Total-Results``, ``Link: <…>; rel="next"``), ``Backoff`` (wait before the next request) and
``Retry-After`` on 429/503 (wait, then ask again).
"""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from .. import __version__
from ..errors import Code, ReadingListError

PUBLIC = "https://api.zotero.org"
LOCAL = "http://localhost:23119/api"  # Zotero 7's local API (Settings → Advanced → allow other applications)
PAGE = 100  # the API's largest page
TIMEOUT = 60.0
MAX_BYTES = 64 * 1024 * 1024  # a page of 100 items with long notes is a few megabytes
RETRIES = 5  # 429/503 answers in a row before the sync gives up
WHO = "zotero"  # how errors start: "readinglist: error: zotero: …"
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: Any  # the decoded JSON; None for a 304

    @property
    def version(self) -> int:
        """The library's version this answer reflects (``Last-Modified-Version``), 0 if not said."""
        value = self.headers.get("last-modified-version", "")
        return int(value) if value.isdigit() else 0


@dataclass
class Client:
    """One library (``users/123`` or ``groups/456``) at one base address. ``sleep`` and ``clock``
    are the waits' (tests pass their own); ``requests`` counts what was asked."""

    base: str
    library: str
    key: str = ""
    sleep: Callable[[float], None] = field(default=lambda seconds: time.sleep(seconds))  # looked up at each wait
    clock: Callable[[], float] = time.monotonic
    requests: int = 0
    _quiet_until: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if urlsplit(self.base).scheme not in ("http", "https"):
            raise ReadingListError(f"--api-url must be an http(s) URL, not {self.base!r}", WHO, code=Code.BAD_ARGUMENT)
        self.base = self.base.rstrip("/")

    def url(self, path: str, **params: object) -> str:
        query = urlencode({k: v for k, v in params.items() if v is not None})
        return f"{self.base}/{self.library}/{path}" + (f"?{query}" if query else "")

    def get(self, url: str, since_version: int | None = None) -> Answer:
        """One answer, waiting out ``Backoff`` and retrying 429/503 after ``Retry-After``."""
        for _ in range(RETRIES):
            self._wait(self._quiet_until - self.clock())
            answer = self._once(url, since_version)
            self._backoff(answer.headers.get("backoff", ""))
            if answer.status not in (429, 503):
                return answer
            # One wait covers both: the longer of Retry-After and Backoff, before the next try.
            self._backoff(answer.headers.get("retry-after", "") or "1")
        raise ReadingListError(
            f"the Zotero API asked to wait {RETRIES} times in a row (HTTP 429/503); try again later",
            WHO,
            code=Code.BAD_ANSWER,
        )

    def pages(self, url: str, since_version: int | None = None) -> Iterator[tuple[Answer, int]]:
        """Each page of a listing and the total the API announced, following ``Link: rel="next"``.
        The first page alone may be a 304 (nothing changed since ``since_version``)."""
        next_url: str | None = url
        while next_url:
            answer = self.get(next_url, since_version)
            total = answer.headers.get("total-results", "")
            yield answer, int(total) if total.isdigit() else 0
            if answer.status == 304:
                return
            next_url, since_version = _next(answer.headers.get("link", "")), None

    def _once(self, url: str, since_version: int | None) -> Answer:
        headers = {"Zotero-API-Version": "3", "User-Agent": f"readinglist/{__version__} (python-urllib)"}
        if self.key:
            headers["Zotero-API-Key"] = self.key
        if since_version is not None:
            headers["If-Modified-Since-Version"] = str(since_version)
        self.requests += 1
        request = urllib.request.Request(url, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return _answer(response.status, response.headers, response.read(MAX_BYTES + 1))
        except urllib.error.HTTPError as exc:
            if exc.code in (304, 429, 503):
                return Answer(exc.code, _lower(exc.headers), None)
            raise self._refused(exc.code, exc.reason) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            raise ReadingListError(
                f"cannot reach the Zotero API at {self.base} (offline?): {reason}", WHO, code=Code.UNREACHABLE
            ) from None

    def _refused(self, status: int, reason: object) -> ReadingListError:
        if status in (401, 403):
            return ReadingListError(
                f"the Zotero API refused the key for {self.library} (HTTP {status}): set ZOTERO_API_KEY to a key "
                "that may read this library",
                WHO,
                code=Code.BAD_ARGUMENT,
            )
        if status == 404:
            return ReadingListError(
                f"no library {self.library} at {self.base} (HTTP 404): check --user/--group and --collection",
                WHO,
                code=Code.NOT_FOUND,
            )
        return ReadingListError(
            f"the Zotero API answered HTTP {status} {reason}; try again later", WHO, code=Code.BAD_ANSWER
        )

    def _backoff(self, value: str) -> None:
        seconds = _seconds(value)
        if seconds:
            self._quiet_until = max(self._quiet_until, self.clock() + seconds)

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self.sleep(seconds)


def _answer(status: int, headers: Any, data: bytes) -> Answer:
    if len(data) > MAX_BYTES:
        raise ReadingListError(f"the Zotero API sent more than {MAX_BYTES} bytes; not read", WHO, code=Code.BAD_ANSWER)
    try:
        body = json.loads(data.decode("utf-8")) if data.strip() else None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReadingListError(f"the Zotero API sent what is not JSON: {exc}", WHO, code=Code.BAD_ANSWER) from None
    return Answer(status, _lower(headers), body)


def _lower(headers: Any) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in (headers.items() if headers is not None else [])}


def _seconds(value: str) -> float:
    """A ``Backoff`` or ``Retry-After`` number of seconds (at most an hour); 0 for anything else."""
    try:
        return min(max(float(value), 0.0), 3600.0)
    except ValueError:
        return 0.0


def _next(link: str) -> str | None:
    match = _NEXT.search(link)
    return match.group(1) if match else None
