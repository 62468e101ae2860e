"""Front matter values that PyYAML or Python refuse to build are one-line errors, not tracebacks.

PyYAML's timestamp constructor raises ``ValueError`` for an impossible date (``2024-02-30``,
``0000-00-00``) or time-zone offset, and Python's ``int()`` refuses more than 4,300 digits
(issue 31, item 8). Each must be ``KEY.md:LINE: … [readinglist.bad-front-matter]`` with the
line of the key, as the other front-matter errors are.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.errors import Code, ReadingListError
from readinglist.render import frontmatter
from readinglist.render.notes import read_note

HUGE = "9" * 5000  # past Python's 4,300-digit limit for int()


@pytest.mark.parametrize(
    ("front", "line", "words"),
    [
        ("added: 2024-02-30", 2, "'added': "),
        ("added: 0000-00-00", 2, "'added': "),
        ("status: read\nadded: 2024-05-01 10:00:00 +99:00", 3, "'added': "),
        (f"rating: {HUGE}", 2, "'rating': "),
        (f"status: read\ntags: [a]\nmine: [1, {HUGE}]", 4, "'mine': "),
        ("priority: 2023-13-01", 2, "'priority': "),
        (f"title: x\npriority: -{HUGE}", 3, "'priority': "),
    ],
)
def test_values_python_cannot_build_are_one_line_errors(tmp_path: Path, front: str, line: int, words: str) -> None:
    note = tmp_path / "key.md"
    note.write_text(f"---\n{front}\n---\nBody.\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_note(note)
    assert (info.value.file, info.value.line, info.value.code) == (str(note), line, Code.BAD_FRONT_MATTER)
    assert words in info.value.message
    shown = str(info.value)
    assert "\n" not in shown and len(shown) < 400  # one line, and the 5,000 digits are not repeated


def test_a_long_number_that_python_builds_is_shown_shortened(tmp_path: Path) -> None:
    note = tmp_path / "key.md"
    note.write_text(f"---\nrating: {'7' * 4000}\n---\n", encoding="utf-8")
    with pytest.raises(ReadingListError) as info:
        read_note(note)
    assert "must be a whole number from 1 to 5" in info.value.message and len(info.value.message) < 200


KEYS = [*frontmatter.RULES, "mine"]
# Scalars shaped like YAML 1.1's typed scalars (dates, times, numbers in bases 2 to 60) with any
# digits in them, and plain text: whatever PyYAML resolves them to, building them must not crash.
DIGITS = st.text("0123456789", min_size=1, max_size=6)
SHAPED = st.one_of(
    st.builds("{}-{}-{}".format, DIGITS, DIGITS, DIGITS),
    st.builds(
        "{}-{}-{}T{}:{}:{}{}{}:{}".format,
        DIGITS,
        DIGITS,
        DIGITS,
        DIGITS,
        DIGITS,
        DIGITS,
        st.sampled_from("+-"),
        DIGITS,
        DIGITS,
    ),
    st.builds(
        "{} {}:{}:{}.{} {}".format,
        st.just("2024-01-01"),
        DIGITS,
        DIGITS,
        DIGITS,
        DIGITS,
        st.sampled_from(["Z", "+1", "-12:60", "+99"]),
    ),
    st.builds(
        "{}{}".format,
        st.sampled_from(["", "-", "+", "0x", "0b", "0o", "0", "1_"]),
        st.text("0123456789abcdef_:.", min_size=1, max_size=12),
    ),
    st.integers(min_value=4000, max_value=6000).map(lambda n: "1" * n),
    st.sampled_from([".inf", "-.NaN", "1e999", "1:2:3:4", "~", "null", "yes", "On", "2024-02-29", "2023-02-29"]),
    st.text(max_size=20).map(lambda s: s.replace("\n", " ")),
)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(KEYS), value=SHAPED, listed=st.booleans())
def test_parse_raises_nothing_but_reading_list_errors(key: str, value: str, listed: bool) -> None:
    text = f"{key}: [{value}]" if listed else f"{key}: {value}"
    try:
        meta = frontmatter.parse(text, Path("notes/key.md"), 2)
    except ReadingListError as exc:
        assert exc.code == Code.BAD_FRONT_MATTER and "\n" not in str(exc)
    else:
        assert frontmatter.check(key, meta[key]) is None
