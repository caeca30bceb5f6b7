"""Top-level keys of a workflow document beyond `nodes` and `edges`.

Which keys exist, and what their values hold, comes from the editor's workflow type (config
`workflow_type`, extracted like node data) as the schema document's `x-workflow`. An unknown
key is a warning with its likely meaning (`Settings` → `settings` is a mechanical rename); a
known key's value is checked against its schema. Without `x-workflow` nothing is checked here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pygen.names import guess
from pygen.skills.schema_doc import Schema
from pygen.validation.findings import Finding, Fix, path_of, warning_at

WORKFLOW_KEY = "x-workflow"
_CORE = ("nodes", "edges")


def workflow_key_findings(workflow: Mapping[str, Any],
                          schema: Schema | None) -> Iterator[Finding]:
    if not schema:
        return
    known = [*_CORE, *(k for k in schema.get("properties", {}) if k not in _CORE)]
    for key in workflow:
        if key in known:
            continue
        near = guess(key, [k for k in known if k not in workflow])
        at: tuple[str | int, ...] = (key,)
        yield warning_at(path_of("$", at), f"unknown top-level key; the workflow holds "
                         f"{', '.join(known)}", near.name if near else None,
                         rule="workflow-key",
                         fix=Fix("rename", at, to=near.name) if near and near.mechanical
                         else None)
