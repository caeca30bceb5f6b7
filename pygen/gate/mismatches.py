"""Node data ↔ tool input schema: the fields where a node and its MCP tool disagree.

A data field is matched to a tool parameter by name (as is, snake_case, or normalised) and
compared by enum values, else by JSON type; object fields are compared recursively.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pygen.jsonvalues import type_name
from pygen.model import DataField, Model, NodeDef, ToolSchema, TypeRef
from pygen.suggest import normalised


@dataclass(frozen=True)
class Mismatch:
    node_type: str
    field: str
    tool: str
    param: str
    kind: Literal["enum", "type"]
    node_side: str
    tool_side: str

    def text(self) -> str:
        return (f"{self.node_type}.{self.field} ↔ {self.tool}.{self.param}: {self.kind} "
                f"differs: node {self.node_side}, tool {self.tool_side}")


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).replace("-", "_").lower()


_TS_KINDS = {"string": "string", "number": "number", "boolean": "boolean", "null": "null",
             "array": "array", "tuple": "array", "object": "object", "record": "object"}


def ts_types(ref: TypeRef) -> frozenset[str] | None:
    """The JSON types a TypeScript type admits; None when that is not known (any, unresolved)."""
    if ref.kind == "literal":
        return frozenset({type_name(ref.value)})
    if ref.kind == "undefined":
        return frozenset()
    if ref.kind == "union":
        parts = [ts_types(member) for member in ref.types]
        return None if any(p is None for p in parts) else frozenset().union(*parts)  # type: ignore[arg-type]
    kind = _TS_KINDS.get(ref.kind)
    return frozenset({kind}) if kind else None


def resolve(schema: Any, root: Mapping[str, Any]) -> Any:
    """Follow a local `$ref` (`#/$defs/X`, `#/definitions/X`) once or more."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 20:
        parts = schema["$ref"].removeprefix("#/").split("/")
        target: Any = root
        for part in parts:
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            return schema
        schema, seen = target, seen + 1
    return schema


def _members(schema: Mapping[str, Any], root: Mapping[str, Any]) -> list[Any] | None:
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return [resolve(m, root) for m in schema[key]]
    return None


def schema_types(schema: Any, root: Mapping[str, Any]) -> frozenset[str] | None:
    schema = resolve(schema, root)
    if not isinstance(schema, dict):
        return None
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({"number" if declared == "integer" else declared})
    if isinstance(declared, list):
        return frozenset("number" if t == "integer" else str(t) for t in declared)
    if "const" in schema:
        return frozenset({type_name(schema["const"])})
    if isinstance(schema.get("enum"), list):
        return frozenset(type_name(v) for v in schema["enum"])
    members = _members(schema, root)
    if members is None:
        return None
    parts = [schema_types(m, root) for m in members]
    return None if any(p is None for p in parts) else frozenset().union(*parts)  # type: ignore[arg-type]


def schema_enum(schema: Any, root: Mapping[str, Any]) -> frozenset[Any] | None:
    """The values a schema allows when it is an enum (null aside), else None."""
    schema = resolve(schema, root)
    if not isinstance(schema, dict):
        return None
    if isinstance(schema.get("enum"), list):
        return frozenset(v for v in schema["enum"] if v is not None) or None
    if "const" in schema:
        return frozenset({schema["const"]}) if schema["const"] is not None else None
    members = _members(schema, root)
    if members is None:
        return None
    values: set[Any] = set()
    for member in members:
        if isinstance(member, dict) and member.get("type") == "null":
            continue
        sub = schema_enum(member, root)
        if sub is None:
            return None
        values |= sub
    return frozenset(values) or None


def _shown(values: Iterable[Any]) -> str:
    return " | ".join(sorted(repr(v) if not isinstance(v, str) else f'"{v}"' for v in values))


def param_for(name: str, properties: Mapping[str, Any]) -> str | None:
    for candidate in (name, snake(name)):
        if candidate in properties:
            return candidate
    return next((p for p in properties if normalised(p) == normalised(name)), None)


def compare_field(node: NodeDef, tool: ToolSchema, data_field: DataField, param: str,
                  schema: Any) -> Mismatch | None:
    root = tool.input_schema
    mine = data_field.type.literal_values()
    theirs = schema_enum(schema, root)
    if mine is not None and theirs is not None and set(mine) != set(theirs):
        only_node, only_tool = set(mine) - set(theirs), set(theirs) - set(mine)
        return Mismatch(node.type, data_field.name, tool.name, param, "enum",
                        f"only {_shown(only_node)}" if only_node else "—",
                        f"only {_shown(only_tool)}" if only_tool else "—")
    node_types = ts_types(data_field.type)
    tool_types = schema_types(schema, root)
    if node_types is None or tool_types is None:
        return None
    node_types, tool_types = node_types - {"null"}, tool_types - {"null"}
    if node_types and tool_types and node_types != tool_types:
        return Mismatch(node.type, data_field.name, tool.name, param, "type",
                        " | ".join(sorted(node_types)), " | ".join(sorted(tool_types)))
    return None


def node_fields(node: NodeDef) -> list[DataField]:
    fields = list(node.data_type.fields)
    for variant in node.data_type.variants:
        fields += [f for f in variant.fields if f.name not in {g.name for g in fields}]
    return fields


def compare_fields(node: NodeDef, tool: ToolSchema, fields: Iterable[DataField],
                   schema: Any, prefix: tuple[str, str] = ("", "")) -> list[Mismatch]:
    """Mismatches between data fields and the properties of an object schema, recursively
    into object-typed fields (`camera.motion` ↔ `camera.motion`)."""
    schema = resolve(schema, tool.input_schema)
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    found = []
    for data_field in fields:
        param = param_for(data_field.name, properties)
        if param is None:
            continue
        named = data_field.model_copy(update={"name": prefix[0] + data_field.name})
        mismatch = compare_field(node, tool, named, prefix[1] + param, properties[param])
        if mismatch is not None:
            found.append(mismatch)
        elif data_field.type.kind == "object" and data_field.type.fields:
            found += compare_fields(node, tool, data_field.type.fields, properties[param],
                                    (f"{named.name}.", f"{prefix[1]}{param}."))
    return found


def mismatches(model: Model) -> list[Mismatch]:
    found = []
    for node in model.nodes:
        if node.tool is not None:
            found += compare_fields(node, node.tool, node_fields(node), node.tool.input_schema)
    return found
