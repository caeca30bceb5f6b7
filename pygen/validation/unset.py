"""Values as the editor reads them: what it treats as "not set", and numbers saved as strings.

Conventions `unset_values` name the values an editor treats as not set (Flowise writes `""`
for every input a person has not touched, and its own check counts `undefined`, `null` and
`""` as missing); a field holding one is judged as if it were absent: no type, enum or range
rule judges it, and where it is required it is reported as a required field not set. With
`numeric_strings`, a string that reads as a number stands for that number in a field typed
number (the editor parses it when the node runs). Validation checks the editor's view of
the data built here; paths are the saved data's, as no key is renamed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pygen.conventions import Conventions
from pygen.jsonvalues import same, show
from pygen.schema.node_schema import Schema
from pygen.validation.findings import Finding, child

# What JavaScript's parseFloat reads whole, as JSON numbers are written (no hex, no Infinity).
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass
class View:
    """The data as the editor reads it, and the paths of the fields it treats as not set."""

    data: object
    unset: dict[str, Any] = field(default_factory=dict)  # path -> the saved value


def is_unset(value: object, unset: Iterable[Any]) -> bool:
    return any(same(value, u) for u in unset)


def editor_view(data: object, schema: Schema, conv: Conventions, path: str) -> View:
    """The data with unset fields left out and numeric strings read as numbers (in fields the
    schema types as numbers only), as the conventions declare; the data itself when neither
    is declared."""
    view = View(data)
    if not conv.unset and not conv.numeric_strings:
        return view
    view.data = _read(data, schema, conv, path, view)
    return view


def _read(value: object, schema: Schema, conv: Conventions, path: str, view: View) -> object:
    if isinstance(value, dict):
        props = _properties(schema)
        out: dict[str, Any] = {}
        for key, item in value.items():
            where = child(path, key)
            if is_unset(item, conv.unset):
                view.unset[where] = item
                continue
            out[key] = _read(item, props.get(key, {}), conv, where, view)
        return out
    if isinstance(value, list):
        items = schema.get("items")
        items = items if isinstance(items, dict) else {}
        return [_read(v, items, conv, child(path, i), view) for i, v in enumerate(value)]
    if conv.numeric_strings and isinstance(value, str) and _numbers_only(schema):
        number = _number(value)
        if number is not None:
            return number
    return value


def _properties(schema: Schema) -> dict[str, Schema]:
    """The property schemas of an object schema, its union branches' too (a key two branches
    type differently is left out: neither reading is safe)."""
    out: dict[str, Schema] = {}
    clash: set[str] = set()
    parts = [schema, *(b for k in ("oneOf", "anyOf", "allOf") for b in schema.get(k, ())
                       if isinstance(b, dict))]
    for part in parts:
        props = part.get("properties")
        for key, prop in (props.items() if isinstance(props, dict) else ()):
            if key in out and out[key].get("type") != prop.get("type"):
                clash.add(key)
            out.setdefault(key, prop if isinstance(prop, dict) else {})
    return {k: v for k, v in out.items() if k not in clash}


def _numbers_only(schema: Schema) -> bool:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return bool(kinds) and all(k in ("number", "integer") for k in kinds)


def _number(text: str) -> int | float | None:
    stripped = text.strip()
    if not _NUMBER.fullmatch(stripped):
        return None
    number = float(stripped)
    return int(number) if number.is_integer() and not re.search(r"[.eE]", stripped) else number


def name_unset(findings: Iterable[Finding], view: View, unset_texts: list[str]) -> list[Finding]:
    """A required field left at an unset value is reported as not set, naming the value."""
    out = []
    for finding in findings:
        if finding.rule == "required" and finding.path in view.unset:
            values = ", ".join(unset_texts)
            finding = replace(finding, message=(
                f"required but not set: {show(view.unset[finding.path])} is a value the "
                f"editor treats as not set ({values}); {finding.message}"))
        out.append(finding)
    return out


def default_at(defaults: Mapping[str, Any], base: tuple[str | int, ...],
               parts: tuple[str | int, ...]) -> tuple[bool, Any]:
    """(found, value) of the default data at a finding's path (below the data's own path)."""
    if parts[:len(base)] != base:
        return False, None
    value: Any = defaults
    for part in parts[len(base):]:
        in_object = isinstance(value, dict) and isinstance(part, str) and part in value
        in_list = isinstance(value, list) and isinstance(part, int) and part < len(value)
        if not (in_object or in_list):
            return False, None
        value = value[part]
    return True, value
