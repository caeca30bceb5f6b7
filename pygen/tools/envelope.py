"""The saved node's envelope and the edges' form, read from the declared workflow type.

With `workflow_type` configured, the type of its `nodes` items says where a saved node keeps
its type, data and position, and the workflow's own keys say how edges are kept: an `edges`
array (React Flow's) or, without one, the single map-typed key (a connections map, n8n's).
A key set in `[tool.pygen.conventions]` always wins over what is read here; what the type does
not say stays as configured (or React Flow's default).
"""

from __future__ import annotations

from typing import Any

from pygen.conventions import Conventions
from pygen.model import DataType, TypeRef

_OBJECTS = ("object", "record", "union", "intersection", "unknown", "any")


def declared_envelope(workflow: DataType | None, conv: Conventions) -> Conventions:
    """`conv` with the envelope keys the workflow type states, where the config is silent."""
    if workflow is None:
        return conv
    fields = {f.name: f.type for f in workflow.fields}
    nodes = fields.get("nodes")
    found = _node_keys(nodes.items) if nodes is not None and nodes.kind == "array" and (
        nodes.items is not None and nodes.items.kind == "object") else {}
    maps = [k for k, t in fields.items() if k != "nodes" and t.kind == "record"]
    if "edges" not in fields and len(maps) == 1:
        found["connections_key"] = maps[0]
    kept = {k: v for k, v in found.items() if k not in conv.model_fields_set}
    return Conventions.model_validate({**conv.model_dump(exclude_unset=True), **kept}) if (
        kept) else conv


def _node_keys(node: TypeRef) -> dict[str, Any]:
    """Envelope keys read from a saved node's type: a tuple position is `[x, y]`; a constant
    `type` means the node type sits in a `type` of one of the node's objects, its data in that
    object's one object-typed field; without a `data` key, the node's one object-typed field
    holds the data."""
    own = {f.name: f.type for f in node.fields}
    out: dict[str, Any] = {}
    position = own.get("position")
    if position is not None and position.kind in ("tuple", "array"):
        out["position_pair"] = True
    kind = own.get("type")
    if kind is not None and kind.kind == "literal" and isinstance(kind.value, str):
        for name, inner in own.items():
            inner_fields = {f.name: f.type for f in inner.fields} if inner.kind == "object" else {}
            if "type" not in inner_fields:
                continue
            out["node_constants"] = {"type": kind.value}
            out["node_type_key"] = f"{name}.type"
            held = _objects(inner_fields)
            if len(held) == 1:
                out["node_data_key"] = f"{name}.{held[0]}"
            break
    elif "data" not in own:
        held = _objects({k: t for k, t in own.items() if k != "position"})
        if len(held) == 1:
            out["node_data_key"] = held[0]
    return out


def _objects(fields: dict[str, TypeRef]) -> list[str]:
    return [name for name, t in fields.items() if t.kind in _OBJECTS]
