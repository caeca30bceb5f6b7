"""Worked examples that show a node wired in: upstream → node → downstream.

The smallest workflow that uses the node's main (first) input and output, built from the
catalog: the upstream node is one whose output carries what the input takes (a declared handle
type, else the same handle id, singular or plural), the downstream node likewise, and the
declared handle types and connection rules of the definitions (`accepts`, `connectsTo`) allow
the wire. With a declared mapping field (conventions), each wired input gets its entry, of the
field's declared value type. When the editor is declared to fill in default data, a node's data
shows only what differs from its default data (the node-data-shape block shows the defaults
once); otherwise it is the full example data. Nodes are written in the declared envelope, with
the label where the conventions keep it. `pygen check` validates it like any example.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from pygen.connections import write_connections
from pygen.conventions import Conventions, saved_node, set_path, split
from pygen.model import Handle, Model, NodeDef, wire_allowed
from pygen.schema.fields import mapping_shape, mapping_target, properties
from pygen.schema.node_schema import node_data_schema
from pygen.skills.example_data import example_data, unset_to_fill
from pygen.skills.neighbours import HandleIndex, build_index, first_allowed

# node → (valid example data, notes): skills.example_data.example_data.
ExampleData = Callable[[NodeDef], tuple[dict[str, Any], Any]]
_GRID = 320


def wired_example(node: NodeDef, model: Model, data_for: ExampleData | None = None,
                  index: HandleIndex | None = None) -> dict[str, Any]:
    """The mini-workflow `{nodes, edges}` for one node type; `index`: the model's handles,
    built once for a run that renders every node (else built here)."""
    if data_for is None:
        data_for = partial(example_data, unset=unset_to_fill(model.conventions))
    index = index if index is not None else build_index(model)
    upstream = _neighbour(node, index, "upstream")
    downstream = _neighbour(node, index, "downstream")
    conv = model.conventions
    if upstream is not None and not _mappable(node, node.inputs[0].id, upstream[1], conv,
                                              data_for):
        upstream = None
    if downstream is not None and not _mappable(downstream[0], downstream[1],
                                                node.outputs[0].id, conv, data_for):
        downstream = None
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
        data = _data(member, data_for(member)[0], in_handle, source, conv)
        canonical = {"id": ids[i], "type": member.type, "position": {"x": i * _GRID, "y": 0},
                     "data": data}
        nodes.append(_saved(canonical, member, conv))
    edges = [{"id": f"e{i}", "source": ids[i - 1], "sourceHandle": chain[i - 1][2],
              "target": ids[i], "targetHandle": chain[i][1]} for i in range(1, len(chain))]
    return _saved_edges(nodes, [n for n, _, _ in chain], edges, model)


def _saved_edges(nodes: list[dict[str, Any]], members: Sequence[NodeDef],
                 edges: list[dict[str, Any]], model: Model) -> dict[str, Any]:
    """`{nodes, edges}`, or `{nodes, <connections_key>: {...}}` where the conventions keep
    edges as a connections map; there the nodes are named by their id."""
    conv = model.conventions
    if conv.connections_key is None:
        return {"nodes": nodes, "edges": edges}
    by_type = {m.type: m for m in members}

    def handles(node_type: str, side: str) -> tuple[str | None, ...]:
        return tuple(h.id for h in getattr(by_type[node_type], side))
    canonical = [{"id": n["id"], "type": m.type} for n, m in zip(nodes, members, strict=True)]
    nodes = [{"id": n["id"], conv.connection_node_key: n["id"], **n} for n in nodes]
    return {"nodes": nodes,
            conv.connections_key: write_connections(canonical, edges, conv, handles)}


def _ids(chain: Sequence[NodeDef]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for member in chain:
        seen[member.type] = seen.get(member.type, 0) + 1
        out.append(f"{member.type}-{seen[member.type]}")
    return out


def _data(node: NodeDef, data: Mapping[str, Any], in_handle: str | None,
          source_handle: str | None, conv: Conventions) -> dict[str, Any]:
    """The data an agent writes: what differs from the defaults when the editor fills them
    in (else all of it), plus the wired input's mapping entry when one is declared."""
    label = split(conv.label_key)[-1] if conv.label_key else None
    shown = dict(data) if not conv.editor_fills_defaults else {
        k: v for k, v in data.items()
        if k == label or node.default_data.get(k) != v or k not in node.default_data}
    if in_handle is not None:
        shown.update(_mapping_entry(node, data, in_handle, source_handle, conv))
    return shown


def _mapping_entry(node: NodeDef, data: Mapping[str, Any], in_handle: str,
                   source_handle: str | None, conv: Conventions) -> dict[str, Any]:
    """{mapping field: mapping with the input's entry}, when the conventions declare a mapping
    field, the node has it and its value type says how an entry names the data field."""
    props = properties(node_data_schema(node))
    shape = mapping_shape(props, conv.mapping_field, conv.mapping_value_key)
    mappings = data.get(shape.field, {}) if shape is not None else None
    if shape is None or not isinstance(mappings, dict) or in_handle in mappings:
        return {}
    target = mapping_target(props, in_handle, source_handle, shape)
    entry = shape.entry_for(target) if target is not None else None
    return {shape.field: {**mappings, in_handle: entry}} if entry is not None else {}


def _mappable(node: NodeDef, in_handle: str | None, source_handle: str | None,
              conv: Conventions, data_for: ExampleData) -> bool:
    """Whether wiring this input leaves the example valid: a wired input needs a mapping
    entry only when declared (`mapping_required`), and then pygen must know what to write."""
    if not conv.mapping_required or in_handle is None:
        return True
    props = properties(node_data_schema(node))
    shape = mapping_shape(props, conv.mapping_field, conv.mapping_value_key)
    if shape is None:
        return True
    data = data_for(node)[0]
    present = data.get(shape.field)
    if isinstance(present, dict) and in_handle in present:
        return True
    return bool(_mapping_entry(node, data, in_handle, source_handle, conv))


def _saved(node: Mapping[str, Any], member: NodeDef, conv: Conventions) -> dict[str, Any]:
    """A node in the declared envelope, its label where the conventions keep it."""
    out = saved_node(node, conv)
    if conv.label_key:
        set_path(out, split(conv.label_key), member.label)
    if conv.node_version_key and member.variant is not None:
        set_path(out, split(conv.node_version_key), version_value(member.variant))
    return out


def version_value(text: str) -> int | float | str:
    """A variant value as the node writes it: `2` as a number, `beta` as a string."""
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() else number


def neighbours(node: NodeDef, index: HandleIndex
               ) -> tuple[tuple[NodeDef, str | None] | None, tuple[NodeDef, str | None] | None]:
    """The nodes (and their handles) the worked example may wire upstream and downstream:
    with the node itself, all its worked example is made of."""
    return _neighbour(node, index, "upstream"), _neighbour(node, index, "downstream")


def _neighbour(node: NodeDef, index: HandleIndex, side: str
               ) -> tuple[NodeDef, str | None] | None:
    """The first other node type that connects to the main handle, with its handle id."""
    mine = node.inputs if side == "upstream" else node.outputs
    if not mine:
        return None

    def allowed(other: NodeDef, theirs: Handle) -> bool:
        if other.type == node.type:
            return False
        if side == "upstream":
            return wire_allowed(other, theirs, node, mine[0])
        return wire_allowed(node, mine[0], other, theirs)

    # The rule this side states about the other end; the other end's own is tried one by one.
    rule = mine[0].accepts if side == "upstream" else (mine[0].connects_to or node.connects_to)
    found = first_allowed(index.matching(side, mine[0], rule), allowed)
    if found is None and side == "upstream":
        # An input no output is named after (a prompt's `in`): a source node feeds it.
        found = first_allowed(index.sources.allowed_by(mine[0].type, rule), allowed)
    return (found[0], found[1].id) if found is not None else None


def render_wired_example(workflow: Mapping[str, Any], node_type: str,
                         fills_defaults: bool = False, has_handles: bool = False) -> list[str]:
    """The Markdown lines: a sentence and one compact JSON block (one line per node/edge).
    The sentence about default data is said only when the editor is declared to fill it."""
    nodes = workflow["nodes"]
    if len(nodes) == 1 and has_handles:
        intro = (f"A `{node_type}` node on its own (no other node type wires to its main "
                 "handles in a way every rule allows):")
    elif len(nodes) == 1:
        intro = f"A `{node_type}` node on its own (it has no handles to wire):"
    elif fills_defaults:
        intro = (f"`{node_type}` wired to its neighbours through its main handles. Each "
                 "node's `data` lists only what differs from its default data; the editor "
                 "fills in the rest:")
    else:
        intro = f"`{node_type}` wired to its neighbours through its main handles:"
    lines = ["{", '  "nodes": [']
    lines += [f"    {_compact(n)}{',' if i < len(nodes) - 1 else ''}" for i, n in enumerate(nodes)]
    lines += _edge_lines(workflow)
    return [intro, "", "```json", *lines, "```"]


def _edge_lines(workflow: Mapping[str, Any]) -> list[str]:
    """One line per edge, or per source node of a connections map."""
    key = next(k for k in workflow if k != "nodes")
    edges = workflow[key]
    if isinstance(edges, list):
        items = [_compact(e) for e in edges]
        return ["  ],", f"  {_compact(key)}: [", *_joined(items), "  ]", "}"]
    items = [f"{_compact(k)}: {_compact(v)}" for k, v in edges.items()]
    return ["  ],", f"  {_compact(key)}: {{", *_joined(items), "  }", "}"]


def _joined(items: list[str]) -> list[str]:
    return [f"    {item}{',' if i < len(items) - 1 else ''}" for i, item in enumerate(items)]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
