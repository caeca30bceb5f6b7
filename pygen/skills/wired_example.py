"""Worked examples that show a node wired in: upstream → node → downstream.

The smallest workflow that uses the node's main (first) input and output, built from the
catalog: the upstream node is one whose output carries what the input takes (a declared handle
type, else the same handle id, singular or plural), the downstream node likewise, and the
connection rules of the definitions (`accepts`, `connectsTo`) allow the wire. Each wired
input gets its `fieldMappings` entry. A node's data shows only what differs from its default
data (the editor fills the rest; the node-data-shape block shows the defaults once), so the
example adds information instead of repeating it. `pygen check` validates it like any example.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pygen.model import Handle, Model, NodeDef, wire_allowed
from pygen.skills.example_data import example_data
from pygen.skills.fields import MAPPINGS, mapping_target, properties
from pygen.skills.neighbours import index_for
from pygen.skills.schema_doc import node_data_schema

# node → (valid example data, notes): skills.example_data.example_data.
ExampleData = Callable[[NodeDef], tuple[dict[str, Any], Any]]
_GRID = 320


def wired_example(node: NodeDef, model: Model,
                  data_for: ExampleData = example_data) -> dict[str, Any]:
    """The mini-workflow `{nodes, edges}` for one node type."""
    upstream = _neighbour(node, model, "upstream")
    downstream = _neighbour(node, model, "downstream")
    # (node, its input wired from the previous node, its output wired to the next)
    chain: list[tuple[NodeDef, str | None, str | None]] = []
    if upstream is not None:
        chain.append((upstream[0], None, upstream[1]))
    chain.append((node, node.inputs[0].id if upstream else None,
                  node.outputs[0].id if downstream else None))
    if downstream is not None:
        chain.append((downstream[0], downstream[1], None))
    ids = _ids([n for n, _, _ in chain])
    nodes = []
    for i, (member, in_handle, _) in enumerate(chain):
        source = chain[i - 1][2] if i else None
        data = _data(member, data_for(member)[0], in_handle, source)
        nodes.append({"id": ids[i], "type": member.type, "position": {"x": i * _GRID, "y": 0},
                      "data": data})
    edges = [{"id": f"e{i}", "source": ids[i - 1], "sourceHandle": chain[i - 1][2],
              "target": ids[i], "targetHandle": chain[i][1]} for i in range(1, len(chain))]
    return {"nodes": nodes, "edges": edges}


def _ids(chain: Sequence[NodeDef]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for member in chain:
        seen[member.type] = seen.get(member.type, 0) + 1
        out.append(f"{member.type}-{seen[member.type]}")
    return out


def _data(node: NodeDef, data: Mapping[str, Any], in_handle: str | None,
          source_handle: str | None) -> dict[str, Any]:
    """What differs from the defaults, the label, and the wired input's mapping."""
    shown = {k: v for k, v in data.items()
             if k == "label" or node.default_data.get(k) != v or k not in node.default_data}
    shown.setdefault("label", node.label)
    mappings = data.get(MAPPINGS)
    if in_handle is not None and isinstance(mappings, dict) and in_handle not in mappings:
        target = mapping_target(properties(node_data_schema(node)), in_handle, source_handle)
        if target is not None:
            shown[MAPPINGS] = {**mappings, in_handle: target}
    return shown


def _neighbour(node: NodeDef, model: Model, side: str) -> tuple[NodeDef, str | None] | None:
    """The first other node type that connects to the main handle, with its handle id."""
    mine = node.inputs if side == "upstream" else node.outputs
    if not mine:
        return None

    def allowed(other: NodeDef, theirs: Handle) -> bool:
        if side == "upstream":
            return wire_allowed(other, theirs, node, mine[0])
        return wire_allowed(node, mine[0], other, theirs)

    index = index_for(model)
    for other, handle in index.by_stem(side, mine[0].id or ""):
        if other.type != node.type and allowed(other, handle):
            return other, handle.id
    if side == "upstream":
        # An input no output is named after (a prompt's `in`): a source node feeds it.
        source = next((o for o in index.sources
                       if o.type != node.type and allowed(o, o.outputs[0])), None)
        return (source, source.outputs[0].id) if source is not None else None
    return None


def render_wired_example(workflow: Mapping[str, Any], node_type: str) -> list[str]:
    """The Markdown lines: a sentence and one compact JSON block (one line per node/edge)."""
    nodes, edges = workflow["nodes"], workflow["edges"]
    if len(nodes) == 1:
        intro = f"A `{node_type}` node on its own (it has no handles to wire):"
    else:
        intro = (f"`{node_type}` wired to its neighbours through its main handles. Each "
                 "node's `data` lists only what differs from its default data; the editor "
                 "fills in the rest:")
    lines = ["{", '  "nodes": [']
    lines += [f"    {_compact(n)}{',' if i < len(nodes) - 1 else ''}" for i, n in enumerate(nodes)]
    lines += ["  ],", '  "edges": [']
    lines += [f"    {_compact(e)}{',' if i < len(edges) - 1 else ''}" for i, e in enumerate(edges)]
    lines += ["  ]", "}"]
    return [intro, "", "```json", *lines, "```"]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
