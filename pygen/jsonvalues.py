"""JSON values as JSON sees them: type names, equality and short display."""

from __future__ import annotations

import json

# 1 and 1.0 are one JSON number; True is not the number 1.
ScalarKey = tuple[str, object]


def type_name(value: object) -> str:
    """`object`, `array`, `null`, `boolean`, `number` or `string`."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "string"


def same(a: object, b: object) -> bool:
    """JSON equality: 1 and 1.0 are the same number, True and 1 are not the same value."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def scalar_key(value: object) -> ScalarKey | None:
    """A hashable key with JSON equality for scalars; None for objects and arrays."""
    if isinstance(value, dict | list):
        return None
    return (type_name(value), value)


def show(value: object, limit: int = 60) -> str:
    """The value as compact JSON, cut to `limit` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def variant_text(value: object) -> str | None:
    """A string or number as JavaScript's `String()` writes it (how the extractor names a
    variant); None for any other value."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
