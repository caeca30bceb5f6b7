"""Disjointness of two data schemas, so that `oneOf` is only used where it cannot reject
valid data: a value matching two branches of a `oneOf` fails it."""

from __future__ import annotations

import json
from typing import Any

from pygen.jsonvalues import type_name

Schema = dict[str, Any]


def _json_types(schema: Schema) -> set[str] | None:
    """The JSON types a schema can accept, or None when it is not known."""
    if "const" in schema:
        return {type_name(schema["const"])}
    if "enum" in schema:
        return {type_name(v) for v in schema["enum"]}
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return set(kind)
    return None


def disjoint(a: Schema, b: Schema) -> bool:
    """Whether no JSON value can match both schemas (not known counts as not disjoint)."""
    types_a, types_b = _json_types(a), _json_types(b)
    if types_a is None or types_b is None:
        return False
    # Every integer is a number (0 and 0.0 are one JSON value).
    common = {_numeric(t) for t in types_a} & {_numeric(t) for t in types_b}
    if not common:
        return True
    if common == {"object"}:
        return _discriminated(a, b)
    if "const" in a or "enum" in a:
        return ("const" in b or "enum" in b) and not (_values(a) & _values(b))
    return False


def _discriminated(a: Schema, b: Schema) -> bool:
    """Both objects require a property whose literal values differ."""
    shared = set(a.get("required", ())) & set(b.get("required", ()))
    for name in shared:
        prop_a = a.get("properties", {}).get(name, {})
        prop_b = b.get("properties", {}).get(name, {})
        if _is_literal(prop_a) and _is_literal(prop_b) and not (_values(prop_a) & _values(prop_b)):
            return True
    return False


def _is_literal(schema: Schema) -> bool:
    return "const" in schema or "enum" in schema


def _numeric(kind: str) -> str:
    return "number" if kind == "integer" else kind


def _values(schema: Schema) -> set[tuple[str, Any]]:
    values = [schema["const"]] if "const" in schema else schema.get("enum", [])
    return {_value_key(v) for v in values}


def _value_key(value: Any) -> tuple[str, Any]:
    """A value as JSON Schema compares it: numbers by value (a float may merge two large
    integers, which only makes the union `anyOf`)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("number", float(value))
    return (type_name(value), json.dumps(value))
