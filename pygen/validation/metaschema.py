"""A fast meta-schema check for the node schemas of a schema document.

jsonschema's `check_schema` spends ~13 µs per byte of schema (n8n's 18 MB document took
~110 s to load). This walks a schema once, iteratively, and vouches for it when every keyword
it meets is one it models and holds a value the draft 2020-12 meta-schema accepts; keywords
named `x-…` are the document's own annotations, which the meta-schema allows with any value.
It is only a fast path: when it cannot vouch (a keyword it does not model, a bad value) the
caller runs jsonschema's check, which gives the error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
# A local reference as pygen writes them (`#/$defs/<percent-encoded name>`), and any other
# URI fragment made of the characters a fragment may hold.
_FRAGMENT = re.compile(r"#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    """A non-negative integer as JSON Schema counts them (2.0 is one)."""
    return _is_number(value) and value >= 0 and float(value).is_integer()


def _is_names(value: Any) -> bool:
    """An array of distinct strings (`required`)."""
    return (isinstance(value, list) and all(isinstance(v, str) for v in value)
            and len(set(value)) == len(value))


def _is_type(value: Any) -> bool:
    if isinstance(value, str):
        return value in _SIMPLE_TYPES
    return (isinstance(value, list) and bool(value) and _is_names(value)
            and all(v in _SIMPLE_TYPES for v in value))


# Keywords whose value is a plain value of a given form (nothing to walk into).
_VALUES: dict[str, Callable[[Any], bool]] = {
    "title": lambda v: isinstance(v, str),
    "description": lambda v: isinstance(v, str),
    "$comment": lambda v: isinstance(v, str),
    "format": lambda v: isinstance(v, str),
    "default": lambda v: True,
    "const": lambda v: True,
    "examples": lambda v: isinstance(v, list),
    "enum": lambda v: isinstance(v, list),
    "deprecated": lambda v: isinstance(v, bool),
    "readOnly": lambda v: isinstance(v, bool),
    "writeOnly": lambda v: isinstance(v, bool),
    "uniqueItems": lambda v: isinstance(v, bool),
    "type": _is_type,
    "required": _is_names,
    "$ref": lambda v: isinstance(v, str) and _FRAGMENT.fullmatch(v) is not None,
    "minimum": _is_number,
    "maximum": _is_number,
    "exclusiveMinimum": _is_number,
    "exclusiveMaximum": _is_number,
    "multipleOf": lambda v: _is_number(v) and v > 0,
    **{k: _is_count for k in ("minLength", "maxLength", "minItems", "maxItems",
                              "minProperties", "maxProperties", "minContains", "maxContains")},
}
# Keywords whose value is one schema, a map of schemas, or a non-empty list of schemas.
_ONE = frozenset({"not", "if", "then", "else", "items", "additionalProperties", "contains",
                  "propertyNames", "unevaluatedItems", "unevaluatedProperties"})
_MAP = frozenset({"properties", "$defs", "dependentSchemas"})
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def well_formed(schema: Any) -> bool:
    """True when the schema is surely valid under the draft 2020-12 meta-schema; False when
    it is not, or when this check cannot tell (ask jsonschema then)."""
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            continue
        if not isinstance(item, dict):
            return False
        for keyword, value in item.items():
            if not _keyword_ok(keyword, value, stack):
                return False
    return True


def _keyword_ok(keyword: str, value: Any, stack: list[Any]) -> bool:
    """Whether one keyword's value is well formed; the schemas inside it go on the stack."""
    check = _VALUES.get(keyword)
    if check is not None:
        return check(value)
    if keyword in _ONE:
        stack.append(value)
    elif keyword in _MAP:
        if not isinstance(value, dict):
            return False
        stack.extend(value.values())
    elif keyword in _LIST:
        if not isinstance(value, list) or not value:
            return False
        stack.extend(value)
    else:
        # The document's own annotations; any other keyword is left to jsonschema.
        return keyword.startswith("x-")
    return True
