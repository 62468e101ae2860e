"""The one year rule: 1400 to next year, ASCII digits only."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.years import plausible_year

TODAY = datetime.date(2026, 6, 1)


@pytest.mark.parametrize(
    ("value", "year"),
    [
        ("2020", 2020),
        (" 2020 ", 2020),
        (2020, 2020),
        ("1400", 1400),
        ("2027", 2027),
        ("2028", None),
        ("1399", None),
        ("6", None),
        (6, None),
        ("2020a", None),
        ("2020-05", None),
        ("²⁰²⁰", None),
        ("٢٠٢٠", None),
        ("", None),
        (None, None),
        (True, None),
        ("20201", None),
        ("-2020", None),
    ],
)
def test_plausible_year(value: str | int | None, year: int | None) -> None:
    assert plausible_year(value, today=TODAY) == year


def test_next_year_moves_with_today() -> None:
    assert plausible_year("2031", today=datetime.date(2030, 1, 1)) == 2031
    assert plausible_year("2031", today=datetime.date(2029, 12, 31)) is None


@given(st.text(max_size=12) | st.integers() | st.none())
def test_never_raises_and_stays_in_range(value: str | int | None) -> None:
    year = plausible_year(value, today=TODAY)
    assert year is None or 1400 <= year <= 2027
