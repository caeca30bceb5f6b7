"""The `minimal` detail level of a node skill: ~200 tokens an agent can build a node from.

Rendered from one node's entry in the schema document (its data schema, handles and the
`x-nodes` line), so the server needs no model. One line per writable field with its type,
enum values and default; runner-owned fields are named on one line, since an agent leaves them
out; the MCP tool by name (`get_node_skill(detail="full")` shows its parameters).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pygen.output import visible_line
from pygen.schema.fields import is_runner_owned
from pygen.skills.render_tools import type_text

_DEFAULT_LIMIT = 24  # longer defaults are cut: the standard skill shows them whole


DATA_LEGEND = "data (* required, = default):"
LATER_LEGEND = "data:"  # a batch's later skills: the legend was said by the first


def render_minimal(node_type: str, schema: Mapping[str, Any], handles: Mapping[str, Any],
                   meta: Mapping[str, Any], tool_word: str = "MCP tool") -> str:
    """One type's block; `tool_word` names where the node's tool lives for the reader (a
    package read without the skills server says "app tool")."""
    props: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    owned = [n for n, p in props.items() if is_runner_owned(p)]
    lines = [_header(node_type, schema, meta), _handles_line(handles, meta, tool_word)]
    rules = _rules_line(handles)
    if rules:
        lines.append(rules)
    lines.append(DATA_LEGEND)
    lines += [_field_line(n, p, n in required) for n, p in props.items()
              if n not in owned and not p.get("deprecated")]
    deprecated = [n for n, p in props.items() if p.get("deprecated")]
    if deprecated:
        lines.append(f"deprecated, leave out: {', '.join(deprecated)}")
    if owned:
        lines.append(f"runner sets: {', '.join(owned)}")
    return "\n".join(lines) + "\n"


def _header(node_type: str, schema: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    label = meta.get("label")
    category = meta.get("category")
    named = f"{node_type} ({label}{', ' + category if category else ''})" if label else node_type
    description = str(schema.get("description", "")).strip()
    return f"{named}: {description}" if description else named


def _handles_line(handles: Mapping[str, Any], meta: Mapping[str, Any], tool_word: str) -> str:
    """`in: a (text, ≤1) → out: b (image)`: ids, with their declared types and the most edges
    an input takes."""
    limits = handles.get("inputLimits")
    inputs = _ids(handles.get("inputs"), handles.get("inputTypes"),
                  limits if isinstance(limits, dict) else {})
    outputs = _ids(handles.get("outputs"), handles.get("outputTypes"), {})
    text = f"in: {inputs} → out: {outputs}"
    tool = meta.get("tool")
    return f"{text} · {tool_word}: {tool}" if tool else text


def _rules_line(handles: Mapping[str, Any]) -> str | None:
    """The connection rules (`accepts`, `connectsTo`) as `wire only: in ← a|b; out → c`."""
    parts = [f"{k} ← {'|'.join(v)}" for k, v in _lists(handles.get("accepts"))]
    parts += [f"{'outputs' if k == '*' else k} → {'|'.join(v)}"
              for k, v in _lists(handles.get("connectsTo"))]
    return f"wire only: {'; '.join(parts)}" if parts else None


def _lists(value: object) -> list[tuple[str, list[str]]]:
    items = value.items() if isinstance(value, dict) else ()
    return [(str(k), [str(x) for x in v]) for k, v in items if isinstance(v, list)]


def _ids(values: object, types: object, limits: Mapping[str, Any]) -> str:
    # One line each (a newline spelled `\n`): an id cannot start a line of the answer.
    ids = [str(v) for v in values] if isinstance(values, list) else []
    typed = types if isinstance(types, dict) else {}
    shown = []
    for handle in ids:
        notes = [str(typed[handle])] if handle in typed else []
        limit = limits.get(handle)
        if isinstance(limit, int):
            notes.append(f"≤{limit}")
        text = visible_line(handle)
        shown.append(f"{text} ({', '.join(notes)})" if notes else text)
    return ", ".join(shown) if shown else "none"


def _field_line(name: str, prop: Mapping[str, Any], required: bool,
                default: Any = None, depth: int = 0) -> str:
    """`name*: type bounds =default`; an object's fields inline, each the same way (with its
    part of the object's default), so every nested enum's values are there."""
    nested = _nested(prop, default if depth else prop.get("default"), depth)
    line = f"{name}{'*' if required else ''}: {nested or _values(prop)}"
    line += "".join(f" {key}={prop[key]}" for key in _BOUNDS if key in prop)
    shown_default = prop.get("default", default)
    if nested is None and shown_default not in (None, "", [], {}):
        shown = json.dumps(shown_default, ensure_ascii=False, separators=(",", ":"))
        line += f" ={shown if len(shown) <= _DEFAULT_LIMIT else shown[:_DEFAULT_LIMIT] + '…'}"
    return line


def _nested(prop: Mapping[str, Any], default: Any, depth: int) -> str | None:
    """`{ a*: …, b: … }` for an object with declared fields (two levels deep at most)."""
    inner = prop.get("properties")
    if prop.get("type") != "object" or not isinstance(inner, dict) or not inner \
            or depth >= _MAX_DEPTH:
        return None
    required = set(prop.get("required", ()))
    defaults = default if isinstance(default, dict) else {}
    parts = [_field_line(n, p if isinstance(p, dict) else {}, n in required, defaults.get(n),
                         depth + 1) for n, p in inner.items()]
    return "{ " + ", ".join(parts) + " }"


def _values(prop: Mapping[str, Any]) -> str:
    """The type, an enum's values capped at _ENUM_LIMIT with a count of the rest."""
    values = prop.get("enum")
    if isinstance(values, list) and len(values) > _ENUM_LIMIT:
        shown = " | ".join(json.dumps(v, ensure_ascii=False) for v in values[:_ENUM_LIMIT])
        return f"{shown} | … ({len(values) - _ENUM_LIMIT} more: detail=\"standard\")"
    return type_text(prop)


_MAX_DEPTH = 2
_ENUM_LIMIT = 16
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
           "maxLength", "minItems", "maxItems")
