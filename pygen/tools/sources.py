"""Tool schemas from the sources in config `tools`: Python server objects, stdio servers, JSON.

Each source yields the `tools` of a `tools/list` answer in wire form (`inputSchema`, ...);
`load_tool_schemas` turns them into ToolSchema and combines the sources. Every failure is a
one-line ToolSchemaError that starts with the source as written in the config.

One module per source kind reads it (json_source, python_source, stdio_source); this one
picks the reader and checks what comes back. The entry's grammar and what the readers share
are in source_entry, so no reader imports this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pygen.errors import ToolSchemaError
from pygen.model import ToolSchema

# The MCP SDK is imported inside stdio_source's functions, so importing it here costs nothing.
from pygen.tools import json_source, python_source, stdio_source
from pygen.tools.source_entry import SOURCE_HELP, RawTools, parse_source

Loader = Callable[[str, Path, float, str], RawTools]
LOADERS: dict[str, Loader] = {"python": python_source.load, "stdio": stdio_source.load,
                              "json": json_source.load}


def load_tool_schemas(sources: Sequence[str], root: Path, timeout: float) -> tuple[ToolSchema, ...]:
    """Every tool of every source, sorted by name; a name declared twice is an error."""
    seen: dict[str, ToolSchema] = {}
    for source in sources:
        for tool in load_source(source, root, timeout):
            other = seen.get(tool.name)
            if other is not None:
                where = (f"twice by {source}" if other.source == source
                         else f"by both {other.source} and {source}")
                raise ToolSchemaError(f"tool '{tool.name}' is declared {where}; keep one")
            seen[tool.name] = tool
    return tuple(sorted(seen.values(), key=lambda tool: tool.name))


def load_source(source: str, root: Path, timeout: float) -> tuple[ToolSchema, ...]:
    kind, rest = parse_source(source)
    loader = LOADERS.get(kind)
    if loader is None:
        raise ToolSchemaError(f"tools entry '{source}': unknown source kind; {SOURCE_HELP}")
    if not rest:
        # Only blanks follow the colon, so this is the entry up to and with its colon.
        raise ToolSchemaError(f"tools entry '{source}': nothing after '{source.rstrip()}'; "
                              f"{SOURCE_HELP}")
    return tools_from_wire(loader(rest, root, timeout, source), source)


def tools_from_wire(raw: RawTools, source: str) -> tuple[ToolSchema, ...]:
    """ToolSchemas from `tools/list` entries, checking the fields pygen reads."""
    return tuple(_tool(entry, index, source) for index, entry in enumerate(raw))


def _tool(entry: Any, index: int, source: str) -> ToolSchema:
    name = entry.get("name") if isinstance(entry, dict) else None
    if not isinstance(name, str) or not name:
        raise ToolSchemaError(f"{source}: tool #{index + 1} has no name")
    input_schema = entry.get("inputSchema", {})
    output_schema = entry.get("outputSchema")
    description = entry.get("description") or ""
    if not isinstance(input_schema, dict):
        raise ToolSchemaError(f"{source}: tool '{name}': inputSchema is not an object")
    if output_schema is not None and not isinstance(output_schema, dict):
        raise ToolSchemaError(f"{source}: tool '{name}': outputSchema is not an object")
    if not isinstance(description, str):
        raise ToolSchemaError(f"{source}: tool '{name}': description is not a string")
    return ToolSchema(name=name, description=description, input_schema=input_schema,
                      output_schema=output_schema, source=source)
