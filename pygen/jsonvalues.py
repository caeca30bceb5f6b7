"""JSON values as JSON sees them: type names, equality and short display."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping

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


def pretty(value: object) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, the same text, about three times
    faster: the standard encoder's indented form is Python generators, one per container,
    and the schema document holds a few hundred thousand of them at 2,000 nodes."""
    out: list[str] = []
    _pretty(value, out, "\n")
    return "".join(out)


_STRING = json.encoder.encode_basestring


def _scalar(value: object) -> str | None:
    """A scalar's text as json.dumps writes it (in its order of tests); None otherwise."""
    if isinstance(value, str):
        return str(_STRING(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    return None


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    """A dict key as json.dumps turns it into a string."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    text = _scalar(key) if key is None or isinstance(key, int) else None
    if text is None:
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
    return text


def _pretty(value: object, out: list[str], pad: str) -> None:
    text = _scalar(value)
    if text is not None:
        out.append(text)
        return
    inner = pad + "  "
    if isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        out.append("[")
        joint = inner
        for item in value:
            kind = type(item)  # the common scalars without a call: a third of the time
            if kind is str:
                out.append(joint + _STRING(item))
            else:
                out.append(joint)
                _pretty(item, out, inner)
            joint = "," + inner
        out.append(pad + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{")
        joint = inner
        for key, item in value.items():
            head = f"{joint}{_STRING(key if type(key) is str else _key(key))}: "
            kind = type(item)
            if kind is str:
                out.append(head + _STRING(item))
            else:
                out.append(head)
                _pretty(item, out, inner)
            joint = "," + inner
        out.append(pad + "}")
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def pretty_at(value: object, pad: str) -> str:
    """`pretty(value)` as it is written nested at `pad` (a newline and its indentation)."""
    out: list[str] = []
    _pretty(value, out, pad)
    return "".join(out)


_ENTRY_PAD = "\n    "  # an entry of a top-level object


def pretty_split(value: Mapping[str, object], split: Collection[str],
                 entry: Callable[[object, str], str]) -> str:
    """`pretty(value)`, with each entry of the top-level objects named in `split` written by
    `entry(item, pad)`, which must return `pretty_at(item, pad)` (from a memo, say)."""
    if not value:
        return "{}"
    out, joint = ["{"], "\n  "
    for key, item in value.items():
        out.append(f"{joint}{_STRING(_key(key))}: ")
        joint = ",\n  "
        if key not in split or not isinstance(item, dict) or not item:
            _pretty(item, out, "\n  ")
            continue
        out.append("{")
        inner = _ENTRY_PAD
        for name, part in item.items():
            out.append(f"{inner}{_STRING(_key(name))}: {entry(part, _ENTRY_PAD)}")
            inner = "," + _ENTRY_PAD
        out.append("\n  }")
    out.append("\n}")
    return "".join(out)
