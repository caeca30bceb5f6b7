"""Node data that is valid by construction, for worked examples: the default data, with every
missing required field filled and every value that does not fit its field replaced by a
type-correct placeholder. Works on the node's JSON Schema, so the example passes exactly the
check `pygen check` runs on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pygen.conventions import Conventions
from pygen.model import NodeDef
from pygen.schema.fastcheck import compile_check
from pygen.schema.node_schema import Schema, node_data_schema
from pygen.skills import regex_sample

_PLACEHOLDERS: dict[str, Any] = {
    "string": "", "number": 0, "integer": 0, "boolean": False, "null": None,
}
_BRANCHES = ("oneOf", "anyOf")
# Placeholders counted as set, for a field whose zero value the editor treats as not set.
_SET_PLACEHOLDERS: tuple[Any, ...] = ("value", 1, True)


@dataclass(frozen=True)
class Notes:
    """Key paths (`size.width`) of what the example changed, for the rendered block to say."""

    filled: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.filled or self.replaced)


def example_data(node: NodeDef, unset: tuple[Any, ...] = ()) -> tuple[dict[str, Any], Notes]:
    """The node's default data made valid for its schema, and which fields that took.
    `unset`: the values the editor treats as not set (conventions `unset_values`); a required
    field left at one is set to a placeholder it counts as set."""
    schema = node_data_schema(node)
    filled: list[str] = []
    replaced: list[str] = []
    data = _fill(schema, dict(node.default_data), "", filled, replaced)
    # Variants: the fields of the one the data selects (by its discriminant) come on top.
    branch = _branch_for(schema, data)
    if branch is not schema:
        data = _fill(branch, data, "", filled, replaced)
    if unset:
        _set_required(branch, data, unset, filled)
    return data, Notes(tuple(filled), tuple(replaced))


def unset_to_fill(conv: Conventions) -> tuple[Any, ...]:
    """The unset values an example must not leave in a required field: none where the
    editor's default data is valid as it is (conventions `default_data_valid`)."""
    return () if conv.default_data_valid else conv.unset


def _set_required(schema: Schema, data: dict[str, Any], unset: tuple[Any, ...],
                  filled: list[str]) -> None:
    """Each field left at an unset value that the data needs (left out, it is invalid: a
    required field, or one a condition requires) gets a placeholder the editor counts as set."""
    props: dict[str, Schema] = schema.get("properties", {})
    for key, value in list(data.items()):
        if not _among(value, unset):
            continue
        if is_valid(schema, {k: v for k, v in data.items() if k != key}):
            continue
        sub = props.get(key, {})
        chosen = next((c for c in _SET_PLACEHOLDERS if is_valid(sub, c)
                       and not _among(c, unset)), None)
        if chosen is not None:
            data[key] = chosen
            filled.append(key)


def _among(value: Any, values: tuple[Any, ...]) -> bool:
    return any(isinstance(value, bool) == isinstance(v, bool) and value == v for v in values)


def is_valid(schema: Schema, value: Any) -> bool:
    check = _checker(schema)
    return check(value)


def _checker(schema: Schema) -> Callable[[Any], bool]:
    fast = compile_check(schema)
    if fast is not None:
        return fast
    # Keywords the fast path does not know: jsonschema, loaded only for them.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema).is_valid


def _branch_for(schema: Schema, value: Any) -> Schema:
    """The alternative of a `oneOf`/`anyOf` the value is meant for: the one it satisfies, else
    the one whose constants (a discriminant) it shares, else the first."""
    for keyword in _BRANCHES:
        branches = schema.get(keyword)
        if not branches:
            continue
        for branch in branches:
            if is_valid(branch, value):
                return _branch_for(branch, value)
        return _branch_for(max(branches, key=lambda b: _shared_constants(b, value)), value)
    return schema


def _shared_constants(schema: Schema, value: Any) -> int:
    if not isinstance(value, dict):
        return 0
    props = schema.get("properties", {})
    return sum(1 for k, sub in props.items() if "const" in sub and value.get(k) == sub["const"])


def _fill(schema: Schema, data: dict[str, Any], at: str,
          filled: list[str], replaced: list[str]) -> dict[str, Any]:
    """`data` (an object) with its invalid values replaced and required keys filled."""
    props: dict[str, Schema] = schema.get("properties", {})
    for key, value in list(data.items()):
        sub = props.get(key)
        if sub is None or is_valid(sub, value):
            continue
        target = _branch_for(sub, value)
        if isinstance(value, dict) and _object_like(target):
            data[key] = _fill(target, dict(value), f"{at}{key}.", filled, replaced)
        if not is_valid(sub, data[key]):
            data[key] = placeholder(sub)
            replaced.append(at + key)
    for key in schema.get("required", ()):
        if key not in data:
            data[key] = placeholder(props.get(key, {}))
            filled.append(at + key)
    for extra in schema.get("allOf", ()):
        # A conditional rule (a field required when others have given values) holds when
        # its condition does.
        if "if" in extra and _object_like(extra.get("then", {})):
            if is_valid(extra["if"], data):  # its fields are the object's own
                then = {**extra["then"], "properties": {
                    **props, **extra["then"].get("properties", {})}}
                data = _fill(then, data, at, filled, replaced)
        elif _object_like(extra):
            data = _fill(extra, data, at, filled, replaced)
    for key, value in list(data.items()):
        # A field the editor reports as missing when empty (`x-nonempty`) gets a value.
        sub = props.get(key, {})
        if sub.get("x-nonempty") is True and value == "" and is_valid(sub, key):
            data[key] = key
            replaced.append(at + key)
    return data


def _object_like(schema: Schema) -> bool:
    return schema.get("type") == "object" or "properties" in schema or "required" in schema


def placeholder(schema: Schema) -> Any:
    """A simple value the schema accepts: its default when valid, the first constant, or the
    zero value of its type (objects filled recursively)."""
    if "default" in schema and is_valid(schema, schema["default"]):
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for keyword in (*_BRANCHES, "allOf"):
        if schema.get(keyword):
            return _first_placeholder(schema, keyword)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if kind == "array":
        return _array_placeholder(schema)
    if kind == "object" or _object_like(schema):
        return _fill(schema, {}, "", [], [])
    return _within_bounds(schema, _PLACEHOLDERS.get(str(kind)))


def _array_placeholder(schema: Schema) -> list[Any]:
    """The tuple's items, then as many items as `minItems` asks (an example never breaks a
    count the same schema states)."""
    value = [placeholder(item) for item in schema.get("prefixItems", ())]
    fewest, item = schema.get("minItems"), schema.get("items")
    if isinstance(fewest, int) and isinstance(item, dict) and len(value) < fewest:
        value += [placeholder(item) for _ in range(fewest - len(value))]
    return value


def _within_bounds(schema: Schema, value: Any) -> Any:
    """The zero value moved inside the field's declared bounds (`minLength: 1`, `minimum: 1`),
    so an example never breaks a rule the same schema states."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(low, int | float) and value < low:
            return low
        if isinstance(high, int | float) and value > high:
            return high
    if not isinstance(value, str):
        return value
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not _matches(pattern, value):
        value = regex_sample.sample(pattern) or value
    shortest = schema.get("minLength")
    if isinstance(shortest, int) and len(value) < shortest:
        longer = value + "x" * (shortest - len(value))
        value = longer if not isinstance(pattern, str) or _matches(pattern, longer) else value
    return value


def _matches(pattern: str, value: str) -> bool:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return True  # a pattern that does not compile is not checked either


def _first_placeholder(schema: Schema, keyword: str) -> Any:
    branches: list[Schema] = schema[keyword]
    if keyword == "allOf":
        value = placeholder(branches[0])
        for extra in branches[1:]:
            if isinstance(value, dict) and _object_like(extra):
                value = _fill(extra, value, "", [], [])
        return value
    # A branch that admits nothing (`not: {}`) yields no placeholder; skip it.
    usable = [b for b in branches if "not" not in b] or branches
    for branch in usable:
        value = placeholder(branch)
        if is_valid(schema, value):
            return value
    return placeholder(usable[0])
