"""The command line's JSON text (commands/_json.py) is exactly ``json.dumps(value, ensure_ascii=False, indent=2)``."""

from __future__ import annotations

import json
from enum import IntEnum

from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.commands._json import dumps

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "\n", '"', "\\", "\u2028", "中文", "\x00", "\ud800", "💾"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=5), inner, max_size=4),
        st.dictionaries(st.integers(-3, 3), inner, max_size=3),  # keys the library turns into text
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_same_text_as_the_library(value: object) -> None:
    assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)


class Level(IntEnum):
    LOW = 1


def test_int_subclasses_and_nesting() -> None:
    value = {"a": [Level.LOW, True, 1.5, {"b": {1: [2.0, {}]}, "c": []}], "d": {}}
    assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)
