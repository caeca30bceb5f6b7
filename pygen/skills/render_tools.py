"""The body of a node's `mcp-call` block: its tool, parameters and result, from JSON Schema.

Pure and deterministic: rows follow the schema's property order, nothing depends on the
machine. Types read like the TypeScript the node data shapes use (`"a" | "b"`, `string[]`,
`{ url, width? }`, `Record<string, number>`); a `$ref` is expanded from `$defs` /
`definitions` and shown by name only when it refers to itself. Table cells never break the
table: newlines are collapsed and pipes escaped, inside code spans too (GFM allows `\\|`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from pygen.model import ToolSchema
from pygen.skills.markdown import cell
from pygen.skills.markdown import code as _code

NO_DEFAULT = "—"
# Zod writes these bounds on every `.int()`; they say nothing to the reader.
_SAFE_INTEGER = 2**53 - 1


class _Type(NamedTuple):
    text: str
    # A top-level union (or intersection) needs parentheses inside `[]`.
    compound: bool = False


def render_mcp_call(tool: ToolSchema) -> str:
    """Markdown for the tool: heading line, parameter table, and what it returns if declared."""
    parts = [_heading(tool), _parameters(tool.input_schema)]
    if tool.output_schema is not None:
        parts.append(_returns(tool.output_schema))
    return "\n\n".join(parts)


def _heading(tool: ToolSchema) -> str:
    summary = next((line.strip() for line in tool.description.splitlines() if line.strip()), "")
    heading = f"**MCP tool:** {table_code(tool.name)}"
    return f"{heading} — {cell(summary)}" if summary else heading


def _parameters(schema: Mapping[str, Any]) -> str:
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        return "**Parameters:**\n\n" + _table(schema, defaults=True)
    if _is_plain_object(schema):
        return "**Parameters:** none."
    return f"**Parameters:** {_type_cell(schema, _defs(schema))}"


def _returns(schema: Mapping[str, Any]) -> str:
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        return "**Returns** (structured content):\n\n" + _table(schema, defaults=False)
    return f"**Returns:** {_type_cell(schema, _defs(schema))}"


def _is_plain_object(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") in ("object", None) and not any(
        key in schema for key in ("anyOf", "oneOf", "allOf", "$ref", "additionalProperties"))


def _table(schema: Mapping[str, Any], defaults: bool) -> str:
    defs = _defs(schema)
    required = set(schema.get("required") or ())
    header = ["Name", "Type", "Required", *(["Default"] if defaults else []), "Description"]
    lines = [_row(header), _row(["---"] * len(header))]
    for name, prop in schema["properties"].items():
        row = [table_code(name), _type_cell(prop, defs),
               "required" if name in required else "optional"]
        if defaults:
            row.append(_default(prop))
        row.append(cell(_description(prop, defs)))
        lines.append(_row(row))
    return "\n".join(lines)


def _row(cells: list[str]) -> str:
    return "|" + "|".join(f" {text} " if text else " " for text in cells) + "|"


def _default(prop: Any) -> str:
    if isinstance(prop, Mapping) and "default" in prop:
        return table_code(_json(prop["default"]))
    return NO_DEFAULT


def _description(prop: Any, defs: Mapping[str, Any]) -> str:
    text = ""
    if isinstance(prop, Mapping):
        text = prop.get("description") or ""
        if not text:
            # A parameter typed by a model inherits that model's description (its docstring).
            target = _deref(prop, defs)
            text = (target.get("description") or "") if isinstance(target, Mapping) else ""
        if prop.get("deprecated") is True:
            text = f"Deprecated. {text}".strip()
    return text if isinstance(text, str) else ""


# --- types ---------------------------------------------------------------------------------

def type_text(schema: Any, defs: Mapping[str, Any] | None = None) -> str:
    """One-line type of a JSON Schema; refs resolved against `defs` (or the schema's own)."""
    if defs is None:
        defs = _defs(schema) if isinstance(schema, Mapping) else {}
    return _type(schema, defs, frozenset()).text


def _type_cell(schema: Any, defs: Mapping[str, Any]) -> str:
    notes = _constraints(_deref(schema, defs), defs)
    text = table_code(_type(schema, defs, frozenset()).text)
    return f"{text} ({'; '.join(notes)})" if notes else text


def _type(schema: Any, defs: Mapping[str, Any], seen: frozenset[str]) -> _Type:
    if schema is False:
        return _Type("never")
    if not isinstance(schema, Mapping):
        return _Type("any")
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _ref_type(ref, defs, seen)
    result = _type_of(schema, defs, seen)
    if schema.get("nullable") is True and result.text != "null":
        return _union([result, _Type("null")])
    return result


def _type_of(schema: Mapping[str, Any], defs: Mapping[str, Any], seen: frozenset[str]) -> _Type:
    if "const" in schema:
        return _Type(_json(schema["const"]))
    if isinstance(schema.get("enum"), list):
        return _union([_Type(_json(value)) for value in schema["enum"]])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return _union([_type(member, defs, seen) for member in schema[key]])
    if isinstance(schema.get("allOf"), list):
        members = [_type(member, defs, seen) for member in schema["allOf"]]
        return _join(members, " & ")
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([_typed(schema, k, defs, seen) for k in kind])
    return _typed(schema, kind, defs, seen)


def _typed(schema: Mapping[str, Any], kind: Any, defs: Mapping[str, Any],
           seen: frozenset[str]) -> _Type:
    if kind == "array" or (kind is None and ("items" in schema or "prefixItems" in schema)):
        return _array(schema, defs, seen)
    if kind == "object" or (kind is None and "properties" in schema):
        return _object(schema, defs, seen)
    return _Type(kind if isinstance(kind, str) else "any")


def _array(schema: Mapping[str, Any], defs: Mapping[str, Any], seen: frozenset[str]) -> _Type:
    tuple_items = schema.get("prefixItems", schema.get("items"))
    if isinstance(tuple_items, list):
        return _Type("[" + ", ".join(_type(item, defs, seen).text for item in tuple_items) + "]")
    item = _type(schema.get("items", True), defs, seen)
    return _Type(f"({item.text})[]" if item.compound else f"{item.text}[]")


def _object(schema: Mapping[str, Any], defs: Mapping[str, Any], seen: frozenset[str]) -> _Type:
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        required = set(schema.get("required") or ())
        keys = [key if key in required else f"{key}?" for key in properties]
        return _Type("{ " + ", ".join(keys) + " }")
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping) and extra:
        return _Type(f"Record<string, {_type(extra, defs, seen).text}>")
    return _Type("object")


def _ref_type(ref: str, defs: Mapping[str, Any], seen: frozenset[str]) -> _Type:
    name = ref.rsplit("/", 1)[-1]
    target = _resolve(ref, defs)
    if target is None or ref in seen:
        # Unknown, or the type refers to itself: its name is all that can be said.
        return _Type(name)
    return _type(target, defs, seen | {ref})


def _union(members: list[_Type]) -> _Type:
    # Each alternative once (zod writes `2 | 4` as two `number` consts, say).
    texts = list(dict.fromkeys(member.text for member in members))
    if "null" in texts:  # nullable reads best at the end: `string | null`
        texts = [*(t for t in texts if t != "null"), "null"]
    if "any" in texts:
        return _Type("any")
    return _Type(" | ".join(texts), compound=len(texts) > 1)


def _join(members: list[_Type], separator: str) -> _Type:
    texts = list(dict.fromkeys(m.text for m in members))
    return _Type(separator.join(texts), compound=len(texts) > 1)


# --- refs ----------------------------------------------------------------------------------

def _defs(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Named definitions a `$ref` may point to, under both keywords."""
    found: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        table = schema.get(key)
        if isinstance(table, Mapping):
            found.update({f"#/{key}/{name}": value for name, value in table.items()})
    return found


def _resolve(ref: str, defs: Mapping[str, Any]) -> Any:
    return defs.get(ref)


def _deref(schema: Any, defs: Mapping[str, Any]) -> Any:
    """The schema behind a chain of `$ref`s (stopping at a cycle)."""
    seen: set[str] = set()
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        if ref in seen or ref not in defs:
            break
        seen.add(ref)
        schema = defs[ref]
    return schema


# --- constraints ---------------------------------------------------------------------------

def _constraints(schema: Any, defs: Mapping[str, Any]) -> list[str]:
    """Short notes on bounds and format, from the schema or its one non-null alternative."""
    if not isinstance(schema, Mapping):
        return []
    members = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(members, list):
        real = [m for m in members if not (isinstance(m, Mapping) and m.get("type") == "null")]
        return _constraints(_deref(real[0], defs), defs) if len(real) == 1 else []
    notes = [_range(schema, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", ""),
             _range(schema, "minLength", "maxLength", None, None, "length "),
             _range(schema, "minItems", "maxItems", None, None, "items ")]
    if isinstance(schema.get("format"), str):
        notes.append(f"format: {schema['format']}")
    return [note for note in notes if note]


def _range(schema: Mapping[str, Any], low_key: str, high_key: str, low_x: str | None,
           high_x: str | None, label: str) -> str:
    """`1 to 10`, `≥ 0`, `> 0, ≤ 4`; with a label for lengths and counts: `length ≤ 120`."""
    low, high = _bound(schema.get(low_key)), _bound(schema.get(high_key))
    low_open = _bound(schema.get(low_x)) if low_x else None
    high_open = _bound(schema.get(high_x)) if high_x else None
    if low is not None and high is not None:
        return f"{label}{_num(low)} to {_num(high)}"
    parts = []
    if low is not None:
        parts.append(f"≥ {_num(low)}")
    if low_open is not None:
        parts.append(f"> {_num(low_open)}")
    if high is not None:
        parts.append(f"≤ {_num(high)}")
    if high_open is not None:
        parts.append(f"< {_num(high_open)}")
    return label + ", ".join(parts) if parts else ""


def _bound(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if abs(value) >= _SAFE_INTEGER else value


def _num(value: int | float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


# --- Markdown ------------------------------------------------------------------------------

def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def table_code(text: str) -> str:
    # Most spans here sit in table cells; the few that do not render the same escaped text.
    return _code(text, table=True)
