"""Fields inferred from default data, for a node whose code declares no data type: each key of
the default data becomes an optional field of its value's JSON type, with the value as its
default. Weaker than a declared type (no enums, no required fields) but never empty-handed.
"""

from __future__ import annotations

import json
from typing import Any

from pygen.model import DataField, NodeDef, TypeRef

_SCALARS: tuple[tuple[type, str], ...] = ((bool, "boolean"), (str, "string"),
                                          (int, "number"), (float, "number"))


def with_inferred_type(node: NodeDef) -> NodeDef:
    """The node with inferred fields when it has no data type but has default data."""
    if node.data_type.via != "none" or not node.default_data:
        return node
    inferred = node.data_type.model_copy(update={
        "via": "inferred", "fields": inferred_fields(node.default_data)})
    return node.model_copy(update={"data_type": inferred})


def inferred_fields(data: dict[str, Any]) -> tuple[DataField, ...]:
    return tuple(_field(key, value) for key, value in data.items())


def _field(name: str, value: Any) -> DataField:
    ref = inferred_ref(value)
    scalar = value is not None and not isinstance(value, dict | list)
    return DataField(name=name, type_text=_text(ref), type=ref, optional=True,
                     default_tag=json.dumps(value, ensure_ascii=False) if scalar else None)


def inferred_ref(value: Any) -> TypeRef:
    for cls, kind in _SCALARS:
        if isinstance(value, cls):
            return TypeRef(kind=kind)  # type: ignore[arg-type]
    if isinstance(value, dict):
        return TypeRef(kind="object", fields=inferred_fields(value))
    if isinstance(value, list):
        items = {inferred_ref(v) for v in value}
        # Elements of one JSON type say what the list holds; none or a mix say nothing.
        return TypeRef(kind="array", items=items.pop() if len(items) == 1 else
                       TypeRef(kind="unknown"))
    return TypeRef(kind="unknown")  # null: the value says nothing about the type


def _text(ref: TypeRef) -> str:
    if ref.kind == "array" and ref.items is not None:
        return f"{_text(ref.items)}[]"
    if ref.kind == "object":
        inner = "; ".join(f"{f.name}?: {f.type_text}" for f in ref.fields)
        return f"{{ {inner} }}" if inner else "object"
    return ref.kind
