"""Limits a node's data inherits from the MCP tool that fills it (ranges, lengths, patterns).

A tool parameter maps to the data field of the same name in another case convention
(`duration_seconds` ↔ `durationSeconds`), nested objects included (`camera.strength`). Its
numeric range, maximum length and pattern become JSON Schema keywords on that field, so the
validator reports a duration of 500 where the tool takes 5 to 240. Two limits are never taken:
`minLength` (an empty prompt is how a node says "filled by an edge at run time"), and any
limit the node's own default value breaks (the editor evidently accepts that value).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pygen.model import DataField
from pygen.schema.fields import Schema
from pygen.suggest import normalised

LIMITS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "maxLength", "pattern",
          "maxItems", "minItems")
_MISSING = object()


def tool_limits(tool_schema: Mapping[str, Any]) -> dict[str, Schema]:
    """Normalised parameter path (`camera.strength` → "camera.strength" words) → its limits."""
    defs = {**tool_schema.get("$defs", {}), **tool_schema.get("definitions", {})}
    out: dict[str, Schema] = {}
    _collect(tool_schema, defs, "", out, 0)
    return out


def _collect(schema: Mapping[str, Any], defs: Mapping[str, Any], prefix: str,
             out: dict[str, Schema], depth: int) -> None:
    if depth > 4:
        return
    for name, prop in schema.get("properties", {}).items():
        prop = _deref(prop, defs)
        key = f"{prefix}{normalised(name)}"
        limits = {k: prop[k] for k in LIMITS if k in prop}
        for member in prop.get("anyOf", ()):  # Optional[...] wraps the limits in a union
            member = _deref(member, defs)
            limits.update({k: member[k] for k in LIMITS if k in member})
        if limits:
            out[key] = limits
        if "properties" in prop:
            _collect(prop, defs, key + ".", out, depth + 1)


def _deref(schema: Any, defs: Mapping[str, Any]) -> Any:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str):
        return defs.get(ref.rsplit("/", 1)[-1], {})
    return schema


def with_tool_limits(data_schema: Schema, limits: Mapping[str, Schema],
                     defaults: Mapping[str, Any], prefix: str = "") -> Schema:
    """A copy of the data schema with each mapped field carrying the tool's limits."""
    props = data_schema.get("properties")
    if not isinstance(props, dict) or not limits:
        return data_schema
    updated: dict[str, Any] = {}
    for name, prop in props.items():
        key = f"{prefix}{normalised(name)}"
        default = defaults.get(name, _MISSING) if isinstance(defaults, Mapping) else _MISSING
        if not isinstance(prop, dict):
            updated[name] = prop
            continue
        prop = {**prop, **_fitting(prop, limits.get(key, {}), default)}
        if "properties" in prop:
            inner = default if isinstance(default, Mapping) else {}
            prop = with_tool_limits(prop, limits, inner, key + ".")
        updated[name] = prop
    return {**data_schema, "properties": updated}


def _fitting(prop: Schema, limits: Schema, default: Any) -> Schema:
    """The limits that suit the field's JSON type and that its default value meets."""
    kind = prop.get("type")
    numeric = kind in ("number", "integer")
    keep: Schema = {}
    for key, value in limits.items():
        is_number_limit = key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
        if (is_number_limit and not numeric) or (key in ("maxLength", "pattern")
                                                  and kind != "string"):
            continue
        if key in ("minItems", "maxItems") and kind != "array":
            continue
        if key in prop or (default is not _MISSING and not _meets(default, key, value)):
            continue
        keep[key] = value
    return keep


def _meets(value: Any, key: str, limit: Any) -> bool:
    try:
        if key == "pattern":
            return re.search(limit, value) is not None
        measured = len(value) if key in ("maxLength", "minItems", "maxItems") else value
        low = key in ("minimum", "minItems")
        if key == "exclusiveMinimum":
            return bool(measured > limit)
        if key == "exclusiveMaximum":
            return bool(measured < limit)
        return bool(measured >= limit) if low else bool(measured <= limit)
    except (TypeError, re.error):
        return False


_NUMBER_TAGS = ("minimum", "maximum")
# Item counts come from zod (`z.array(x).min(1)`); JSDoc declares lengths only.
_COUNT_TAGS = ("minLength", "maxLength", "minItems", "maxItems")


def tag_keywords(field: DataField) -> Schema:
    """JSON Schema keywords from a field's JSDoc rule tags; an unreadable value is skipped
    (the field is then checked as if the tag were absent)."""
    out: Schema = {}
    for tag, text in field.tags:
        value = text.strip()
        if tag in _NUMBER_TAGS and _is_number(value):
            number = float(value)
            out[tag] = int(number) if number.is_integer() else number
        elif tag in _COUNT_TAGS and value.isdigit():
            out[tag] = int(value)
        elif tag == "pattern" and value and _compiles(value):
            out["pattern"] = value
        elif tag == "runner":
            out["x-runner"] = value.lower() != "false"
        elif tag == "nodeIds":
            out["x-nodeIds"] = True
        elif tag == "nonempty":
            out["x-nonempty"] = True
        elif tag == "handled" and isinstance(handled := _json_list(value), list):
            out["x-handled"] = handled
    return out


def _json_list(text: str) -> object:
    """A JSON list tag value (`handled`); None when it is not one."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, list) else None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True
