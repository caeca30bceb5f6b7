"""pygen.jsonvalues.pretty writes what json.dumps(indent=2, ensure_ascii=False) writes."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pygen.jsonvalues import pretty, pretty_at, pretty_split

_KEYS = st.one_of(st.text(max_size=8), st.integers(), st.floats(allow_nan=True),
                  st.booleans(), st.none())
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                     st.text())
VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner),
    st.dictionaries(_KEYS, inner, max_size=5)), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_pretty_is_json_dumps_indented(value: object) -> None:
    assert pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [
    {}, [], "", 0, -0.0, 10**40, math.inf, -math.inf, math.nan, "\u2028\x00\"\\é",
    {2: [], 1.5: {}, None: [[]], True: "x", False: ()},
])
def test_pretty_edges(value: object) -> None:
    assert pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [{"a": {1, 2}}, [object()], {(1, 2): 3}])
def test_pretty_refuses_what_json_refuses(value: object) -> None:
    with pytest.raises(TypeError):
        json.dumps(value, indent=2, ensure_ascii=False)
    with pytest.raises(TypeError):
        pretty(value)


DOCS = st.dictionaries(st.sampled_from(["$defs", "x-handles", "other", "x"]), VALUES,
                       max_size=4)


@settings(max_examples=300, deadline=None)
@given(DOCS)
def test_pretty_split_is_pretty(value: dict[str, object]) -> None:
    """Entries written apart, at their pad, make the same text as the whole."""
    assert pretty_split(value, ("$defs", "x-handles"), pretty_at) == pretty(value)
