"""Validation of workflows in the layout the editor saves (conventions: node envelope).

Validation reads nodes as `{id, type, position, data}` and React Flow edges; an editor that
saves them otherwise (`{type: "custom", data: {type, config}}`, an n8n connections map)
declares where each part lives, its workflow is read into that form, and every finding's path
and fix is written back in the saved layout.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pygen.connections import Handles, Origin, edge_path, read_edges
from pygen.conventions import (
    Conventions,
    as_pair,
    canonical_node,
    saved_node_path,
    saved_path,
)
from pygen.validation.findings import Finding, parts_of, path_of


def canonical_workflow(workflow: Mapping[str, Any], conv: Conventions, handles: Handles
                       ) -> tuple[dict[str, Any], list[Origin]]:
    """The workflow with its nodes (and edges) in the form validation reads, and where each
    edge read from a connections map came from."""
    out = dict(workflow)
    nodes = workflow.get("nodes")
    if conv.enveloped and isinstance(nodes, list):
        out["nodes"] = [canonical_node(n, conv) for n in nodes]
    if conv.connections_key is None:
        return out, []
    named: dict[str, tuple[str, str | None]] = {}
    for raw, node in zip(_list(nodes), _list(out.get("nodes")), strict=False):
        name = raw.get(conv.connection_node_key) if isinstance(raw, dict) else None
        if isinstance(name, str) and isinstance(node, dict) and isinstance(node.get("id"), str):
            kind = node.get("type")
            named[name] = (node["id"], kind if isinstance(kind, str) else None)
    edges, origins = read_edges(out.pop(conv.connections_key, None), named, conv, handles)
    if edges is not None:
        out["edges"] = edges
    return out, origins


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def in_saved_form(findings: Iterable[Finding], conv: Conventions, one_node: str | None = None,
                  origins: Sequence[Origin] = ()) -> list[Finding]:
    """Findings with paths (and fix paths) in the saved layout; `one_node`: the base path of a
    single node validated on its own; `origins`: where each edge of a connections map sits."""
    if not conv.enveloped and conv.connections_key is None:
        return list(findings)
    return [_moved(f, conv, one_node, origins) for f in findings]


def _moved(finding: Finding, conv: Conventions, one_node: str | None,
           origins: Sequence[Origin]) -> Finding:
    def move(parts: tuple[str | int, ...]) -> tuple[str | int, ...]:
        if one_node is None:
            return _edge_moved(parts, conv, origins) or saved_path(parts, conv)
        base = parts_of(one_node)
        if parts[:len(base)] != base:
            return parts
        return (*base, *saved_node_path(parts[len(base):], conv))
    fix = finding.fix
    if fix is not None:
        value = as_pair(fix.value) if finding.rule == "position" and conv.position_pair else (
            fix.value)
        fix = dataclasses.replace(fix, at=move(fix.at), value=value)
    return dataclasses.replace(finding, path=path_of("$", move(parts_of(finding.path))),
                               fix=fix)


def _edge_moved(parts: tuple[str | int, ...], conv: Conventions,
                origins: Sequence[Origin]) -> tuple[str | int, ...] | None:
    if conv.connections_key is None or parts[:1] != ("edges",):
        return None
    if len(parts) == 1:
        return (conv.connections_key,)
    j = parts[1]
    return edge_path(parts, origins[j]) if isinstance(j, int) and j < len(origins) else None
