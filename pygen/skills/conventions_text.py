"""What the workflow editor skill says about the editor's declared conventions: one sentence
per declared key (config `conventions`), none for what is not declared."""

from __future__ import annotations

import json

from pygen.conventions import Conventions, saved_node
from pygen.skills.markdown import code


def conventions_lines(conv: Conventions, declared_default: bool = False) -> list[str]:
    """Sentences for agents, in the order they build a workflow; [] when nothing is declared.
    `declared_default`: some node type names its default version (`default_variant`)."""
    lines: list[str] = []
    if conv.enveloped:
        shape = saved_node({"id": "…", "type": "<node type>", "position": {"x": 0, "y": 0},
                            "data": {"…": "…"}}, conv)
        lines.append(f"Each node is saved as {code(json.dumps(shape, ensure_ascii=False))}.")
    if conv.connections_key:
        lines.append(f"Edges are kept under {code(conv.connections_key)}, keyed by the source "
                     f"node's {code(conv.connection_node_key)}, then the connection kind "
                     f"({code(conv.connection_kind)}), then the output's index: a list of "
                     "`{\"node\", \"type\", \"index\"}` targets, `index` being the input's.")
    if conv.label_key:
        lines.append(f"A node's label goes in {code(conv.label_key)}.")
    if conv.node_version_key:
        fallback = ("the node type's default version applies (the latest where it names "
                    "none)" if declared_default else "the latest apply")
        lines.append(f"A node's version goes in {code(conv.node_version_key)}: it chooses the "
                     f"data fields of a node type with versions; without it {fallback}.")
    if conv.editor_fills_defaults:
        lines.append("A node's data may list only what differs from its default data; the "
                     "editor fills in the rest.")
    if conv.mapping_field:
        need = " Every wired input needs an entry." if conv.mapping_required else ""
        lines.append(f"{code(conv.mapping_field)} maps a wired input handle to the data field "
                     f"it fills.{need}")
    if conv.acyclic:
        lines.append("The graph must be acyclic: no cycles, no edge from a node to itself.")
    if conv.edges_per_input is not None:
        many = "one edge" if conv.edges_per_input == 1 else f"{conv.edges_per_input} edges"
        lines.append(f"An input takes at most {many}.")
    return [" ".join(lines), ""] if lines else []
