"""Facts about a node's data fields, read from its data schema (the schema document's form).

Which properties a schema names (across union variants), which ones the runner owns, and which
field an input handle fills: the validator checks workflows with these, and the worked examples
are built with them, so both read the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pygen.suggest import words

Schema = dict[str, Any]
MAPPINGS = "fieldMappings"
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


def mapping_target(props: Mapping[str, Schema], handle: str,
                   source_handle: str | None = None) -> str | None:
    """The data field an input handle fills, when the catalog makes it unambiguous.

    In order: the entry in the node's default `fieldMappings`; an example pair in that
    field's description (`{ "in": "prompt" }`); a field named like the handle or the source
    handle; the one writable string field whose name contains the handle's words.
    """
    mappings = props.get(MAPPINGS, {})
    default = mappings.get("default")
    default = default.get(handle) if isinstance(default, dict) else None
    if isinstance(default, str) and default in props:
        return default
    for key, value in _EXAMPLE_PAIR.findall(str(mappings.get("description", ""))):
        if key == handle and value in props:
            return str(value)
    writable = {n: p for n, p in props.items()
                if n != MAPPINGS and not is_runner_owned(p) and not p.get("deprecated")}
    for name in (handle, source_handle):
        if name and name in writable:
            return name
    wanted = set(words(handle))
    containing = [n for n, p in writable.items()
                  if p.get("type") == "string" and wanted <= set(words(n))]
    return containing[0] if len(containing) == 1 else None
