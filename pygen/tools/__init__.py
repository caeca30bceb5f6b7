"""Stage 2, tools: MCP tool schemas from their sources, mapped onto the nodes they fill."""

from pygen.tools.mapping import (
    GENERATION_CATEGORIES,
    UnmappedReport,
    is_generation_node,
    map_tools,
    tool_name_for,
    unmapped_report,
)
from pygen.tools.sources import load_source, load_tool_schemas, tools_from_wire

__all__ = [
    "GENERATION_CATEGORIES",
    "UnmappedReport",
    "is_generation_node",
    "load_source",
    "load_tool_schemas",
    "map_tools",
    "tool_name_for",
    "tools_from_wire",
    "unmapped_report",
]
