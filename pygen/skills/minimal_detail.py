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


def render_minimal(node_type: str, schema: Mapping[str, Any], handles: Mapping[str, Any],
                   meta: Mapping[str, Any]) -> str:
    props: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    owned = [n for n, p in props.items() if is_runner_owned(p)]
    lines = [_header(node_type, schema, meta), _handles_line(handles, meta)]
    rules = _rules_line(handles)
    if rules:
        lines.append(rules)
    lines.append("data (* required, = default):")
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


def _handles_line(handles: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    inputs = _ids(handles.get("inputs"))
    outputs = _ids(handles.get("outputs"))
    text = f"in: {inputs} → out: {outputs}"
    tool = meta.get("tool")
    return f"{text} · MCP tool: {tool}" if tool else text


def _rules_line(handles: Mapping[str, Any]) -> str | None:
    """The connection rules (`accepts`, `connectsTo`) as `wire only: in ← a|b; out → c`."""
    parts = [f"{k} ← {'|'.join(v)}" for k, v in _lists(handles.get("accepts"))]
    parts += [f"{'outputs' if k == '*' else k} → {'|'.join(v)}"
              for k, v in _lists(handles.get("connectsTo"))]
    return f"wire only: {'; '.join(parts)}" if parts else None


def _lists(value: object) -> list[tuple[str, list[str]]]:
    items = value.items() if isinstance(value, dict) else ()
    return [(str(k), [str(x) for x in v]) for k, v in items if isinstance(v, list)]


def _ids(values: object) -> str:
    # One line each (a newline spelled `\n`): an id cannot start a line of the answer.
    ids = [visible_line(str(v)) for v in values] if isinstance(values, list) else []
    return ", ".join(ids) if ids else "none"


def _field_line(name: str, prop: Mapping[str, Any], required: bool) -> str:
    line = f"{name}{'*' if required else ''}: {type_text(prop)}"
    line += "".join(f" {key}={prop[key]}" for key in _BOUNDS if key in prop)
    if "default" in prop and prop["default"] not in ("", [], {}):
        shown = json.dumps(prop["default"], ensure_ascii=False, separators=(",", ":"))
        line += f" ={shown if len(shown) <= _DEFAULT_LIMIT else shown[:_DEFAULT_LIMIT] + '…'}"
    return line


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
           "maxLength", "minItems", "maxItems")
