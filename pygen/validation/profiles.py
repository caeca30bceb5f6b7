"""Validation profiles: how much of what validation finds a caller wants reported.

- `strict`: everything; every required field of the TypeScript type must be present.
- `runtime` (default): what the editor needs to load the node. A required field missing from
  the workflow but present in the node's default data is filled in by the editor and not
  reported; one missing from both is a warning. Every value present is checked.
- `minimal`: types and structure only (JSON shape, node types, ids, handles, value types).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from pygen.validation.findings import Finding

Profile = Literal["strict", "runtime", "minimal"]
PROFILES: tuple[str, ...] = get_args(Profile)
DEFAULT_PROFILE: Profile = "runtime"
# What `minimal` keeps: the rules about shape and types.
STRUCTURE_RULES = frozenset({
    "json", "workflow-shape", "node-shape", "unknown-node-type", "id", "duplicate-id",
    "edge-node", "edge-handle", "type", "enum", "position",
})


def apply_profile(findings: Iterable[Finding], profile: Profile) -> list[Finding]:
    out: list[Finding] = []
    for finding in findings:
        if profile == "minimal" and finding.rule not in STRUCTURE_RULES:
            continue
        if profile == "runtime" and finding.rule == "required":
            if _default_fills(finding):
                continue
            finding = Finding("warning", finding.path, finding.message, finding.suggestion,
                              finding.file, finding.line, finding.rule, finding.fix)
        out.append(finding)
    return out


def _default_fills(finding: Finding) -> bool:
    """A required-field finding whose fix sets the node's default value."""
    return finding.fix is not None and finding.fix.op == "set"
