"""Checks of a node's schema read from a schema document: well-formed by the meta-schema, and
every local `$ref` pointing at a value."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pygen.validation.metaschema import well_formed


def malformed_errors() -> tuple[type[Exception], ...]:
    """What a malformed schema raises; jsonschema loads only then (one valid node's spec is
    all a `validate-workflow` of a clean file makes, and the import is a tenth of it)."""
    from jsonschema.exceptions import SchemaError

    return (SchemaError, TypeError, KeyError)


def check_schema(schema: Any) -> None:
    """Raise SchemaError when the schema breaks the meta-schema. jsonschema checks only what
    the fast walk cannot vouch for: its check is too slow for a large document."""
    if not well_formed(schema):
        from jsonschema import Draft202012Validator

        Draft202012Validator.check_schema(schema)


def refs(schema: Any) -> Iterator[str]:
    """Every $ref value in a schema, found without recursion."""
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if ref is not None:
                yield ref if isinstance(ref, str) else repr(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def resolves(schema: Any, ref: str) -> bool:
    """A local JSON pointer (`#/$defs/x`) that names a value; nothing else is followed."""
    if not ref.startswith("#"):
        return False
    target = schema
    for raw in filter(None, ref[1:].split("/")):
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(target, dict) and key in target:
            target = target[key]
        elif isinstance(target, list) and key.isdigit() and int(key) < len(target):
            target = target[int(key)]
        else:
            return False
    return True
