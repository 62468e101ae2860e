"""The one rule for what counts as a year: a plausible publication year, else unknown.

Every reader and every output asks ``plausible_year`` so that a Mendeley ``year = {6}``, a typo
such as ``20201`` or a hand-written ``²⁰²⁰`` is an unknown year everywhere, never a chart axis
that starts at 0 or a crash in ``int()``.
"""

from __future__ import annotations

import datetime
import re

EARLIEST = 1400
"""Printed works before this are not what a reading list holds; earlier numbers are typos."""

# ASCII digits only: ``str.isdigit`` and ``int`` also accept superscripts and other scripts'
# digits ("²⁰²⁰", "٢٠٢٠"), which are not a year a person typed as one.
_DIGITS = re.compile(r"[0-9]{1,4}")


def latest(today: datetime.date | None = None) -> int:
    """Next year: a paper accepted now may carry next year's date."""
    return (today or datetime.date.today()).year + 1


def plausible_year(value: str | int | None, today: datetime.date | None = None) -> int | None:
    """``value`` as a year from 1400 to next year inclusive, else None.

    A string is a year when, around spaces, it is one to four ASCII digits: " 2020 " is 2020.
    "2020a" (a disambiguation suffix), "2020-05", "forthcoming", "²⁰²⁰" and "" are None: a date
    is read by the caller (BibLaTeX ``date``), and a suffix is kept as written by the store, not
    guessed at here. ``True``/``False`` are not years.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        match = _DIGITS.fullmatch(value.strip(" \t\r\n"))
        if not match:
            return None
        value = int(match.group(0))
    return value if EARLIEST <= value <= latest(today) else None
