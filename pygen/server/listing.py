"""The tool list as agents read it, kept small: every agent reads it on every connection.

`compact` runs over each registered tool once the server is built: it drops the `title`
pydantic adds to every schema (it repeats the name beside it), the annotation hints the MCP
spec calls meaningful only for tools that are not read-only (`idempotentHint`,
`destructiveHint`), and cuts each output schema to `{"type": "object"}`: every description
already names the keys a tool returns, and the result still carries them as structured content.
`compact_answer` writes a structured answer's text as compact JSON, not indented: the same
content, a third shorter, for agents that read the text.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from pygen import jsonread
from pygen.jsonread import JsonInputError

# Every tool this server lists only reads.
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_OUTPUT = {"type": "object"}


def compact(tool: Tool) -> None:
    """Shrink one registered tool's listing in place (its behaviour is unchanged)."""
    drop_titles(tool.parameters)
    annotations = tool.annotations
    if annotations is not None and annotations.read_only_hint:
        tool.annotations = annotations.model_copy(
            update={"idempotent_hint": None, "destructive_hint": None})
    if tool.fn_metadata.output_schema:
        tool.fn_metadata.output_schema = dict(_OUTPUT)
        # Tool caches the schema it read first; the listing reads that cache.
        tool.__dict__.pop("output_schema", None)


def drop_titles(schema: Any) -> None:
    """Remove the `title` keyword pydantic adds to every schema, in place."""
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("title"), str):
        del schema["title"]
    for key in ("properties", "$defs"):
        for sub in (schema.get(key) or {}).values():
            drop_titles(sub)
    for key in ("items", "additionalProperties", "not"):
        drop_titles(schema.get(key))
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for sub in schema.get(key) or ():
            drop_titles(sub)


def compact_answer(result: Any) -> Any:
    """The answer with its one text block, when that is its structured content as JSON, in
    compact JSON; any other answer as it is."""
    if not isinstance(result, CallToolResult) or result.structured_content is None or len(
            result.content) != 1 or not isinstance(result.content[0], TextContent):
        return result
    try:
        same = jsonread.loads(result.content[0].text, "a tool's answer") == \
            result.structured_content
    except JsonInputError:
        return result
    if not same:
        return result
    text = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
    return result.model_copy(update={"content": [TextContent(type="text", text=text)]})
