"""Top-level keys of a workflow document beyond `nodes` and `edges`.

Which keys exist, and what their values hold, comes from the editor's workflow type (config
`workflow_type`, extracted like node data) as the schema document's `x-workflow`. An unknown
key is a warning with its likely meaning (`Settings` → `settings` is a mechanical rename); a
known key's value is checked against its schema, like node data. Without `x-workflow` nothing
is checked here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pygen.schema.node_schema import Schema
from pygen.suggest import guess
from pygen.validation.findings import Finding, Fix, path_of, warning_at
from pygen.validation.schema_errors import error_findings

WORKFLOW_KEY = "x-workflow"
_CORE = ("nodes", "edges")


def workflow_key_findings(workflow: Mapping[str, Any],
                          schema: Schema | None) -> Iterator[Finding]:
    if not schema:
        return
    props = schema.get("properties", {})
    known = [*_CORE, *(k for k in props if k not in _CORE)]
    for key in workflow:
        if key in props and key not in _CORE:
            yield from _value_findings(props[key], workflow[key], key)
        if key in known:
            continue
        near = guess(key, [k for k in known if k not in workflow])
        at: tuple[str | int, ...] = (key,)
        yield warning_at(path_of("$", at), f"unknown top-level key; the workflow holds "
                         f"{', '.join(known)}", near.name if near else None,
                         rule="workflow-key",
                         fix=Fix("rename", at, to=near.name) if near and near.mechanical
                         else None)


def _value_findings(schema: Schema, value: Any, key: str) -> Iterator[Finding]:
    from jsonschema import Draft202012Validator

    for error in Draft202012Validator(schema).iter_errors(value):
        yield from error_findings(error, path_of("$", (key,)))
