"""Stage 2, tools: MCP tool schemas from their sources, mapped onto the nodes they fill."""

from pygen.tools.mapping import (
    UnmappedReport,
    map_tools,
    needs_tool,
    tool_name_for,
    unmapped_report,
)
from pygen.tools.sources import load_source, load_tool_schemas, tools_from_wire

__all__ = [
    "UnmappedReport",
    "load_source",
    "load_tool_schemas",
    "map_tools",
    "needs_tool",
    "tool_name_for",
    "tools_from_wire",
    "unmapped_report",
]
