"""Facts about a node's data fields, read from its data schema (the schema document's form).

Which properties a schema names (across union variants), which ones the runner owns, and which
field an input handle fills: the validator checks workflows with these, and the worked examples
are built with them, so both read the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pygen.suggest import words

Schema = dict[str, Any]
_EXAMPLE_PAIR = re.compile(r"\"([\w-]+)\"\s*:\s*\"(\w+)\"")


def properties(schema: Schema) -> dict[str, Schema]:
    """Every property a data schema names, across discriminated-union variants too."""
    props: dict[str, Schema] = dict(schema.get("properties", {}))
    for keyword in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(keyword, ()):
            if isinstance(branch, dict):
                for name, sub in properties(branch).items():
                    props.setdefault(name, sub)
    return props


def is_runner_owned(prop: Schema) -> bool:
    """`x-runner: true`, or a result field not marked `x-runner: false`."""
    marked = prop.get("x-runner")
    return bool(marked) if marked is not None else bool(prop.get("x-result"))


@dataclass(frozen=True)
class MappingShape:
    """The declared mapping field (conventions `mapping_field`) and its value type, read from
    its schema: `Record<string, string>` names the data field; `Record<string, X>` with an
    object X names it under `value_key` (conventions `mapping_value_key`), else pygen cannot
    tell which data field an entry fills."""

    field: str
    values: Literal["string", "object", "unknown"]
    value_key: str | None = None

    def target_of(self, entry: object) -> str | None:
        """The data field one entry names, when its value type says where."""
        if self.values == "string":
            return entry if isinstance(entry, str) else None
        if self.values == "object" and self.value_key and isinstance(entry, dict):
            named = entry.get(self.value_key)
            return named if isinstance(named, str) else None
        return None

    def entry_for(self, target: str) -> Any:
        """The entry value that names a data field (None when the value type does not say)."""
        if self.values == "string":
            return target
        if self.values == "object" and self.value_key:
            return {self.value_key: target}
        return None


def mapping_shape(props: Mapping[str, Schema], field: str | None,
                  value_key: str | None = None) -> MappingShape | None:
    """The mapping field's shape, when the conventions name one and the data type has it."""
    if field is None or field not in props:
        return None
    values = props[field].get("additionalProperties")
    values = values if isinstance(values, dict) else {}
    if values.get("type") == "string":
        return MappingShape(field, "string")
    if values.get("type") == "object" or "properties" in values:
        return MappingShape(field, "object", value_key)
    return MappingShape(field, "unknown")


def mapping_target(props: Mapping[str, Schema], handle: str,
                   source_handle: str | None = None,
                   mapping: MappingShape | None = None) -> str | None:
    """The data field an input handle fills, when the catalog makes it unambiguous.

    In order: the entry in the mapping field's default; an example pair in that field's
    description (`{ "in": "prompt" }`); a field named like the handle or the source handle;
    the one writable string field whose name contains the handle's words.
    """
    own = props.get(mapping.field, {}) if mapping is not None else {}
    default = own.get("default")
    default = default.get(handle) if isinstance(default, dict) else None
    named = mapping.target_of(default) if mapping is not None else None
    if named is not None and named in props:
        return named
    for key, value in _EXAMPLE_PAIR.findall(str(own.get("description", ""))):
        if key == handle and value in props and mapping is not None and (
                mapping.values == "string"):
            return str(value)
    skip = mapping.field if mapping is not None else None
    writable = {n: p for n, p in props.items()
                if n != skip and not is_runner_owned(p) and not p.get("deprecated")}
    for name in (handle, source_handle):
        if name and name in writable:
            return name
    wanted = set(words(handle))
    containing = [n for n, p in writable.items()
                  if p.get("type") == "string" and wanted <= set(words(n))]
    return containing[0] if len(containing) == 1 else None
