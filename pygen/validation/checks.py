"""The rules the skills promise, run over a whole workflow (after its schema checks).

Positions, deprecated and runner-owned fields, node-id references, field mappings,
connection compatibility, the declared graph rules and the workflow's own top-level keys: see
`rules`, `wiring`, `graph` and `workflow_keys`. Nodes of unknown types and edges to missing
nodes are skipped here; the schema checks already report them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pygen.validation.findings import Finding
from pygen.validation.graph import graph_findings
from pygen.validation.rules import node_rules, position
from pygen.validation.wiring import End, connection, field_mappings, wired_inputs
from pygen.validation.workflow_keys import workflow_key_findings

if TYPE_CHECKING:
    from pygen.validation.catalog import Catalog, NodeSpec


def workflow_rules(workflow: Mapping[str, Any], catalog: Catalog) -> Iterator[Finding]:
    nodes = [n if isinstance(n, dict) else {} for n in _list(workflow.get("nodes"))]
    ids = {n["id"]: i for i, n in enumerate(nodes) if isinstance(n.get("id"), str)}
    # Each node's spec: its variant's when its data names one (None for an unknown type).
    specs = [catalog.node_spec(node) for node in nodes]
    for i, node in enumerate(nodes):
        yield from position(node, ("nodes", i), i)
        spec = specs[i]
        if spec is not None:
            yield from node_rules(node.get("data"), ("nodes", i, "data"),
                                  catalog.resolved(spec.type), ids.keys())
    every = list(_edges(workflow, nodes, ids))
    ends = [(j, s, t) for j, s, t in every
            if specs[s.index] is not None and specs[t.index] is not None]
    for j, source, target in ends:
        yield from connection(("edges", j), source, target,
                              _known(specs[source.index]).handle_types,
                              _known(specs[target.index]).handle_types)
    # A handle the node does not have is reported on the edge; no mapping is owed for it.
    real = [(s, t) for _, s, t in ends if t.handle in _known(specs[t.index]).inputs]
    for index, wired in wired_inputs(real).items():
        yield from field_mappings(nodes[index], ("nodes", index),
                                  catalog.resolved(_known(specs[index]).type), wired,
                                  catalog.conventions)
    yield from graph_findings(every, catalog.conventions, lambda end: _limit(specs, end))
    yield from workflow_key_findings(workflow, catalog.workflow_schema)


def _edges(workflow: Mapping[str, Any], nodes: list[dict[str, Any]],
           ids: Mapping[str, int]) -> Iterator[tuple[int, End, End]]:
    """(edge index, source end, target end) of each edge between nodes of known types."""
    for j, edge in enumerate(_list(workflow.get("edges"))):
        if not isinstance(edge, dict):
            continue
        source = _end(edge, "source", "sourceHandle", nodes, ids)
        target = _end(edge, "target", "targetHandle", nodes, ids)
        if source is not None and target is not None:
            yield j, source, target


def _end(edge: Mapping[str, Any], key: str, handle_key: str, nodes: list[dict[str, Any]],
         ids: Mapping[str, int]) -> End | None:
    node_id = edge.get(key)
    index = ids.get(node_id) if isinstance(node_id, str) else None
    if index is None or not isinstance(nodes[index].get("type"), str):
        return None
    handle = edge.get(handle_key)
    return End(index, str(node_id), nodes[index]["type"],
               handle if isinstance(handle, str) else None)


def _limit(specs: list[NodeSpec | None], end: End) -> int | None:
    spec = specs[end.index]
    return spec.handle_types.limits.get(end.handle or "") if spec is not None else None


def _known(spec: NodeSpec | None) -> NodeSpec:
    assert spec is not None  # the ends kept are those of nodes of known types
    return spec


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []
