"""Which MCP tool fills which node.

Convention: the kebab-case node type names its snake_case tool (`generate-image` →
`generate_image`). Config `tool_map` (node type → tool name) overrides the convention and adds
pairs it cannot guess; several node types may share a tool.

Which nodes need a tool is the app's to say: config `tool_categories` names the categories
whose every node a tool fills (compared case-insensitively); nothing is guessed from a node's
cost or name. `pygen doctor` reports the nodes of those categories without a tool, and tools
no node uses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from pygen.errors import ToolSchemaError
from pygen.model import NodeDef, ToolSchema
from pygen.suggest import did_you_mean


class UnmappedReport(NamedTuple):
    # Node types of a `tool_categories` category that no tool fills, sorted.
    nodes_without_tool: tuple[str, ...]
    # Tool names that no node type maps to, sorted.
    unused_tools: tuple[str, ...]


def tool_name_for(node_type: str) -> str:
    return node_type.replace("-", "_")


def map_tools(node_types: Iterable[str], tools: Iterable[ToolSchema],
              tool_map: Mapping[str, str]) -> dict[str, ToolSchema]:
    """Node type → its tool, for the node types that have one, in the order given."""
    types = list(node_types)
    by_name = {tool.name: tool for tool in tools}
    _check_tool_map(tool_map, set(types), by_name)
    mapping: dict[str, ToolSchema] = {}
    for node_type in types:
        tool = by_name.get(tool_map.get(node_type, tool_name_for(node_type)))
        if tool is not None:
            mapping[node_type] = tool
    return mapping


def _check_tool_map(tool_map: Mapping[str, str], node_types: set[str],
                    by_name: Mapping[str, ToolSchema]) -> None:
    for key, name in sorted(tool_map.items()):
        if key not in node_types:
            hint = (" (keys are node types, values tool names)" if key in by_name
                    else did_you_mean(key, node_types))
            raise ToolSchemaError(f"tool_map key '{key}' is not a node type{hint}")
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ToolSchemaError(
                f"tool_map key '{key}' names tool '{name}', which no source in `tools` declares"
                f"{did_you_mean(name, by_name)}; known tools: {known}"
            )


def needs_tool(node: NodeDef, categories: Collection[str]) -> bool:
    return (node.category or "").lower() in {category.lower() for category in categories}


def unmapped_report(nodes: Sequence[NodeDef], tools: Iterable[ToolSchema],
                    mapping: Mapping[str, ToolSchema],
                    categories: Collection[str]) -> UnmappedReport:
    without = sorted(node.type for node in nodes
                     if needs_tool(node, categories) and node.type not in mapping)
    used = {tool.name for tool in mapping.values()}
    unused = sorted({tool.name for tool in tools} - used)
    return UnmappedReport(tuple(without), tuple(unused))

