"""Validation profiles: how much of what validation finds a caller wants reported.

- `strict`: everything; every required field of the TypeScript type must be present, even
  one the editor's default data leaves out (conventions `default_data_valid`).
- `runtime` (default): what the editor needs to load the node. When the editor is declared to
  fill in default data (conventions `editor_fills_defaults`), a required field missing from
  the workflow but present in the node's default data is not reported and one missing from
  both is a warning; otherwise a missing required field is an error. Every value present is
  checked. With `default_data_valid`, a required field a new node also lacks is a note.
- `minimal`: types and structure only (JSON shape, node types, ids, handles, value types).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Literal, get_args

from pygen.validation.findings import Finding

Profile = Literal["strict", "runtime", "minimal"]
PROFILES: tuple[str, ...] = get_args(Profile)
DEFAULT_PROFILE: Profile = "runtime"
# Every rule id a finding can carry, with the line `validate-workflow --rules` prints.
RULES: dict[str, str] = {
    "json": "the workflow is not valid JSON",
    "workflow-shape": "the document is not an object with its nodes array and its edges (an "
                      "array, or the declared connections map)",
    "workflow-key": "a top-level key the workflow type does not declare, or a bad value in one",
    "node-shape": "a node that is not an object, or has no data object",
    "unknown-node-type": "a node type the catalog does not have (a case slip is fixed)",
    "id": "a node or edge without a string id",
    "duplicate-id": "two nodes or two edges share an id",
    "edge-shape": "an edge that is not an object",
    "edge-node": "an edge names a node the workflow does not have",
    "edge-handle": "an edge names a handle its node does not have",
    "position": "a node needs `position` with numeric `x` and `y`",
    "required": "a required data field is missing or left at a value the editor treats as not "
                "set (runtime: unless the editor fills it in; a note where a new node lacks "
                "it too)",
    "required-empty": "a required field empty once defaults are applied (\"\", [], or left "
                      "out with an empty default), as the editor flags it (conventions "
                      "`required_nonempty`)",
    "type": "a value of the wrong JSON type",
    "enum": "a value outside the allowed set (a case slip is fixed)",
    "range": "a number outside the range a JSDoc tag or the tool parameter declares",
    "length": "a string or list too long or too short",
    "pattern": "a string that does not match the declared pattern",
    "schema": "any other data-schema violation",
    "unknown-field": "a data field the type does not declare (snake_case is renamed)",
    "variant-field": "a data field only another variant of the node's type has",
    "unknown-version": "a node names a version (node_version_key) its type does not have",
    "expression": "an expression (conventions `expression_prefix`) whose `{{` and `}}` do not "
                  "pair up",
    "deprecated": "a deprecated data field is set; the field its tag names replaces it",
    "runner-owned": "a field the runner writes (status, results) is set by hand",
    "completed-without-result": "a status says completed but no result field holds a value",
    "node-id-ref": "a field that holds node ids names a node the workflow does not have",
    "field-mapping-missing": "a wired input has no entry in the declared mapping field",
    "field-mapping-unknown-field": "a mapping entry names a data field that does not exist",
    "graph-cycle": "the edges form a cycle, in an editor declared acyclic",
    "graph-self-loop": "an edge from a node to itself, in an editor declared acyclic",
    "input-edge-limit": "more edges into one input than it takes",
    "connection-type": "an output of one declared type wired into an input of another",
    "connection-accepts": "an input does not accept what is wired into it (`accepts`)",
    "connection-connects-to": "an output is wired where it may not go (`connectsTo`)",
    "legacy-name": "a legacy node type or handle id the editor's load step rewrites (a "
                   "warning; write the current name)",
}
# What `minimal` keeps: the rules about shape and types.
STRUCTURE_RULES = frozenset({
    "json", "workflow-shape", "node-shape", "unknown-node-type", "id", "duplicate-id",
    "edge-shape", "edge-node", "edge-handle", "type", "enum", "position",
})


def apply_profile(findings: Iterable[Finding], profile: Profile,
                  fills_defaults: bool = False) -> list[Finding]:
    out: list[Finding] = []
    for finding in findings:
        if profile == "minimal" and finding.rule not in STRUCTURE_RULES:
            continue
        if profile == "strict" and finding.strict_error:
            # A field the default data leaves out (default_data): strict wants it written. Other
            # notes (a rule resting on a run-time value) stay notes.
            finding = replace(finding, level="error")
        if (profile == "runtime" and fills_defaults and finding.rule == "required"
                and finding.level != "info"):  # a note stays a note
            if _default_fills(finding):
                continue
            finding = Finding("warning", finding.path, finding.message, finding.suggestion,
                              finding.file, finding.line, finding.rule, finding.fix)
        out.append(finding)
    return out


def _default_fills(finding: Finding) -> bool:
    """A required-field finding whose fix sets the node's default value."""
    return finding.fix is not None and finding.fix.op == "set"
