"""Edges kept as a connections map (n8n's layout), read into and written from React Flow
edges `{id, source, sourceHandle, target, targetHandle}`.

`{<source node>: {<kind>: [[{"node": <target node>, "type": <kind>, "index": <input>}]]}}`:
the outer list is indexed by the source's output, `index` is the target's input; nodes are
named by `connection_node_key`. A handle is the catalog's handle at that index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pygen.conventions import Conventions

# (node type, "inputs" | "outputs") → the type's handle ids, in order; () when unknown.
Handles = Callable[[str, str], Sequence[str | None]]
# Where an edge read from the map sits in the saved document: (key, source, kind, i, k).
Origin = tuple[str, str, str, int, int]


def read_edges(connections: object, named: Mapping[str, tuple[str, str | None]],
               conv: Conventions, handles: Handles) -> tuple[list[Any] | None, list[Origin]]:
    """The edges a connections map holds and where each came from; None when it is not a
    map. `named`: node name → (node id, node type)."""
    if not isinstance(connections, dict):
        return None, []
    edges: list[Any] = []
    origins: list[Origin] = []
    for source, kinds in connections.items():
        for kind, outputs in (kinds.items() if isinstance(kinds, dict) else ()):
            for i, targets in enumerate(outputs if isinstance(outputs, list) else ()):
                for k, target in enumerate(targets if isinstance(targets, list) else ()):
                    origins.append((str(conv.connections_key), source, kind, i, k))
                    edges.append(_edge(source, kind, i, k, target, named, handles))
    return edges, origins


def _edge(source: str, kind: str, i: int, k: int, target: object,
          named: Mapping[str, tuple[str, str | None]], handles: Handles) -> Any:
    if not isinstance(target, dict):
        return target  # reported as an edge that is not an object
    into = target.get("node")
    index = target.get("index", 0)
    src_id, src_type = named.get(source, (source, None))
    dst_id, dst_type = named.get(into, (into, None)) if isinstance(into, str) else (into, None)
    return {"id": f"{source}.{kind}[{i}][{k}]", "source": src_id,
            "sourceHandle": _handle(handles, src_type, "outputs", i, kind),
            "target": dst_id,
            "targetHandle": _handle(handles, dst_type, "inputs", index, kind)}


def _handle(handles: Handles, node_type: str | None, side: str, index: object,
            kind: str) -> str | None:
    if node_type is None or not isinstance(index, int):
        return None
    ids = handles(node_type, side)
    return ids[index] if 0 <= index < len(ids) else f"{kind}[{index}]"


def edge_path(parts: tuple[str | int, ...], origin: Origin) -> tuple[str | int, ...]:
    """A path below `edges[j]` as a path in the connections map."""
    key, source, kind, i, k = origin
    rest = parts[2:]
    if rest[:1] == ("source",):
        return (key, source)
    if rest[:1] == ("sourceHandle",):
        return (key, source, kind, i)
    if rest[:1] == ("target",):
        return (key, source, kind, i, k, "node")
    if rest[:1] == ("targetHandle",):
        return (key, source, kind, i, k, "index")
    return (key, source, kind, i, k, *rest[1:]) if rest[:1] != ("id",) else (
        key, source, kind, i, k)


def write_connections(nodes: Sequence[Mapping[str, Any]], edges: Sequence[Mapping[str, Any]],
                      conv: Conventions, handles: Handles) -> dict[str, Any]:
    """The connections map for canonical nodes and edges (nodes named by their id)."""
    types = {str(n["id"]): str(n["type"]) for n in nodes}
    out: dict[str, Any] = {}
    for edge in edges:
        source, target = str(edge["source"]), str(edge["target"])
        outputs = list(handles(types[source], "outputs"))
        inputs = list(handles(types[target], "inputs"))
        i = outputs.index(edge["sourceHandle"]) if edge["sourceHandle"] in outputs else 0
        index = inputs.index(edge["targetHandle"]) if edge["targetHandle"] in inputs else 0
        lists = out.setdefault(source, {}).setdefault(conv.connection_kind, [])
        lists.extend([] for _ in range(i + 1 - len(lists)))
        lists[i].append({"node": target, "type": conv.connection_kind, "index": index})
    return out
