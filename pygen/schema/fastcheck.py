"""A fast yes/no check for the JSON Schema keywords the node schemas use.

jsonschema spends most of its time building a validator per subschema; a plain closure tree
answers "is this valid?" several times faster. It is only a fast path: when it says no (or
meets a keyword it does not know) the caller runs jsonschema for the errors. It sits beside
the schema builder so that every stage from skills on (worked examples, validation) can use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pygen.jsonvalues import scalar_key
from pygen.schema.node_schema import Schema

Check = Callable[[Any], bool]
_ANNOTATIONS = frozenset({"title", "description", "default", "deprecated", "$comment", "$schema",
                          "examples"})
_TYPE_TESTS: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def compile_check(schema: object) -> Check | None:
    """A predicate equal to `Draft202012Validator(schema).is_valid`, or None if unsupported."""
    if isinstance(schema, bool):
        return (lambda v: True) if schema else (lambda v: False)
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        builder = _CHECK_BUILDERS.get(keyword)
        check = builder(value, schema) if builder else None
        if check is None:
            return None
        checks.append(check)
    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def check(v: Any) -> bool:
        return all(c(v) for c in checks)
    return check


def _subchecks(schemas: object) -> list[Check] | None:
    if not isinstance(schemas, list):
        return None
    checks = [compile_check(s) for s in schemas]
    return None if any(c is None for c in checks) else [c for c in checks if c is not None]


def _check_type(value: object, _: Schema) -> Check | None:
    names = value if isinstance(value, list) else [value]
    if not all(isinstance(n, str) and n in _TYPE_TESTS for n in names):
        return None
    tests = [_TYPE_TESTS[str(n)] for n in names]
    return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))


def _check_enum(value: object, _: Schema) -> Check | None:
    if not isinstance(value, list):
        return None
    keys = {scalar_key(v) for v in value}
    if None in keys:  # an object or array among the options: leave it to jsonschema
        return None
    return lambda v: scalar_key(v) in keys


def _check_const(value: object, schema: Schema) -> Check | None:
    return _check_enum([value], schema)


def _check_properties(value: object, _: Schema) -> Check | None:
    if not isinstance(value, dict):
        return None
    pairs: list[tuple[str, Check]] = []
    for name, sub in value.items():
        check_sub = compile_check(sub)
        if check_sub is None:
            return None
        pairs.append((name, check_sub))

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        return all(name not in v or c(v[name]) for name, c in pairs)
    return check


def _check_required(value: object, _: Schema) -> Check | None:
    if not isinstance(value, list):
        return None
    return lambda v: not isinstance(v, dict) or all(name in v for name in value)


def _check_additional(value: object, schema: Schema) -> Check | None:
    sub = compile_check(value)
    known = schema.get("properties", {})
    if sub is None or not isinstance(known, dict):
        return None
    return lambda v: not isinstance(v, dict) or all(
        k in known or sub(x) for k, x in v.items())


def _check_items(value: object, schema: Schema) -> Check | None:
    sub = compile_check(value)
    start = len(schema.get("prefixItems", ()))
    if sub is None:
        return None
    return lambda v: not isinstance(v, list) or all(sub(x) for x in v[start:])


def _check_prefix(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    if subs is None:
        return None
    return lambda v: not isinstance(v, list) or all(c(x) for c, x in zip(subs, v, strict=False))


def _check_one_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: sum(1 for c in subs if c(v)) == 1)


def _check_any_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: any(c(v) for c in subs))


def _check_all_of(value: object, _: Schema) -> Check | None:
    subs = _subchecks(value)
    return None if subs is None else (lambda v: all(c(v) for c in subs))


def _check_not(value: object, _: Schema) -> Check | None:
    sub = compile_check(value)
    return None if sub is None else (lambda v: not sub(v))


_CHECK_BUILDERS: dict[str, Callable[[object, Schema], Check | None]] = {
    "type": _check_type,
    "enum": _check_enum,
    "const": _check_const,
    "properties": _check_properties,
    "required": _check_required,
    "additionalProperties": _check_additional,
    "items": _check_items,
    "prefixItems": _check_prefix,
    "oneOf": _check_one_of,
    "anyOf": _check_any_of,
    "allOf": _check_all_of,
    "not": _check_not,
}
