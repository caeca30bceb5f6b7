"""Disjointness decides `oneOf` against `anyOf`: two schemas are disjoint only when no JSON
value can match both."""

from __future__ import annotations

from pygen.schema.disjoint import disjoint


def test_an_integer_and_a_float_of_one_value_are_one_json_value() -> None:
    assert not disjoint({"const": 0}, {"const": 0.0})
    assert not disjoint({"type": "integer"}, {"type": "number"})
    assert not disjoint({"enum": [1, 2]}, {"const": 2.0})


def test_different_values_and_types_are_disjoint() -> None:
    assert disjoint({"const": 0}, {"const": 1.5})
    assert disjoint({"type": "string"}, {"type": "number"})
    assert disjoint({"const": True}, {"const": 1})


def test_objects_are_disjoint_only_by_a_required_tag() -> None:
    tagged = {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "a"}}}
    other = {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}}}
    assert disjoint(tagged, other)
    assert not disjoint(tagged, {"type": "object"})
    assert not disjoint({}, {"type": "string"})
