"""Validation of workflows in the layout the editor saves (conventions: node envelope).

Validation reads nodes as `{id, type, position, data}`; an editor that saves them otherwise
(`{type: "custom", data: {type, config}}`) declares where each part lives, its nodes are read
into that form, and every finding's path and fix is written back in the saved layout.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from pygen.conventions import Conventions, canonical_node, saved_node_path, saved_path
from pygen.validation.findings import Finding, parts_of, path_of


def canonical_workflow(workflow: Mapping[str, Any], conv: Conventions) -> dict[str, Any]:
    """The workflow with its nodes in the form validation reads."""
    nodes = workflow.get("nodes")
    if not conv.enveloped or not isinstance(nodes, list):
        return dict(workflow)
    return {**workflow, "nodes": [canonical_node(n, conv) for n in nodes]}


def in_saved_form(findings: Iterable[Finding], conv: Conventions, one_node: str | None = None
                  ) -> list[Finding]:
    """Findings with paths (and fix paths) in the saved layout; `one_node`: the base path of a
    single node validated on its own."""
    if not conv.enveloped:
        return list(findings)
    return [_moved(f, conv, one_node) for f in findings]


def _moved(finding: Finding, conv: Conventions, one_node: str | None) -> Finding:
    def move(parts: tuple[str | int, ...]) -> tuple[str | int, ...]:
        if one_node is None:
            return saved_path(parts, conv)
        base = parts_of(one_node)
        if parts[:len(base)] != base:
            return parts
        return (*base, *saved_node_path(parts[len(base):], conv))
    fix = finding.fix
    if fix is not None:
        fix = dataclasses.replace(fix, at=move(fix.at))
    return dataclasses.replace(finding, path=path_of("$", move(parts_of(finding.path))),
                               fix=fix)
