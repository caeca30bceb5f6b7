"""Unknown-field warnings: which keys an object may hold, and the walk that flags the others.

JSON Schema allows extra properties here (the editor keeps unknown keys), so the validator
reports them itself, as warnings, from a `Shape` derived once per node type's schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pygen.schema.node_schema import Schema
from pygen.suggest import guess
from pygen.validation.findings import Finding, Fix, child, parts_of, warning_at

_COMBINATORS = ("oneOf", "anyOf", "allOf")


@dataclass(frozen=True)
class Shape:
    """Which keys an object may hold, for the unknown-field warnings JSON Schema leaves to us."""

    fields: frozenset[str] | None  # None: any key is fine here
    props: Mapping[str, Shape] = field(default_factory=dict)
    items: Shape | None = None  # array items or record values

    @cached_property
    def has_limits(self) -> bool:
        """Whether any key here or below can be unknown (else the walk can skip it)."""
        return self.fields is not None or any(
            s.has_limits for s in (*self.props.values(), *([self.items] if self.items else [])))


def shape_of(schema: Schema) -> Shape:
    fields: set[str] | None = set()
    props: dict[str, list[Schema]] = {}
    items: list[Schema] = []
    listed = False  # some branch lists an object's properties
    for branch in _alternatives(schema):
        if "properties" in branch:
            listed = True
            for name, sub in branch["properties"].items():
                props.setdefault(name, []).append(sub)
        elif _any_object(branch):
            fields = None
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            items.append(extra)
        elif extra is True:
            fields = None  # an index signature or inferred fields: other keys are expected
        if isinstance(branch.get("items"), dict):
            items.append(branch["items"])
    if fields is not None:
        # An object where no object belongs is a type error already; no key is "unknown".
        fields = set(props) if listed else None
    return Shape(
        frozenset(fields) if fields is not None else None,
        {name: _merged(subs) for name, subs in props.items()},
        _merged(items) if items else None,
    )


def _alternatives(schema: Schema) -> Iterator[Schema]:
    yield schema
    for keyword in _COMBINATORS:
        for branch in schema.get(keyword, ()):
            yield from _alternatives(branch)


def _any_object(schema: Schema) -> bool:
    """Could this branch accept an object with any keys (no properties listed, not a combinator)?
    A condition (`if`/`then`: a field shown only for some values) narrows, it lists no keys."""
    if "not" in schema or "if" in schema or any(k in schema for k in _COMBINATORS):
        return False
    if "const" in schema or "enum" in schema:
        return False
    kind = schema.get("type")
    return kind is None or kind == "object" or (isinstance(kind, list) and "object" in kind)


def _merged(schemas: list[Schema]) -> Shape:
    return shape_of(schemas[0] if len(schemas) == 1 else {"anyOf": schemas})


def unknown_fields(shape: Shape, value: object, path: str, label: str = "") -> Iterator[Finding]:
    """A warning for each key of `value` (at any depth) that its shape does not list."""
    # Paths are built only where needed: this walk runs over every node's data.
    if isinstance(value, dict):
        for key, item in value.items():
            if shape.fields is not None and key not in shape.fields:
                yield _unknown(key, [f for f in shape.fields if f not in value], path, label)
                continue
            sub = shape.props.get(key, shape.items)
            if sub is not None and isinstance(item, dict | list) and sub.has_limits:
                yield from unknown_fields(sub, item, child(path, key))
    elif isinstance(value, list) and shape.items is not None and shape.items.has_limits:
        for i, item in enumerate(value):
            yield from unknown_fields(shape.items, item, f"{path}[{i}]")


def _unknown(key: str, candidates: list[str], path: str, label: str) -> Finding:
    """`aspect_ratio` where `aspectRatio` is free: the rename is mechanical."""
    near = guess(key, candidates)
    where = child(path, key)
    fix = Fix("rename", parts_of(where), to=near.name) if near and near.mechanical else None
    return warning_at(where, f"unknown field {label}".rstrip(), near.name if near else None,
                      rule="unknown-field", fix=fix)
