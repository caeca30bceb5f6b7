"""How much work one MCP call may ask for, and how much it may answer.

An agent's call should never cost the server minutes or answer megabytes: a batch of
300,000 node types, or a workflow of 15,000 nodes, is refused with one line that says the
limit and what to do instead. Limits are far above what a real call needs (a workflow an
editor shows, the node types one task uses).
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

# get_node_skill: types per call, characters per type name.
MAX_NODE_TYPES = 100
MAX_NAME_LENGTH = 64
# search_nodes: characters per query.
MAX_QUERY_LENGTH = 500
# validate_workflow_json, autofix_workflow, validate_node: the workflow or data as JSON text.
MAX_WORKFLOW_BYTES = 5_000_000
MAX_WORKFLOW_NODES = 2_000
MAX_WORKFLOW_EDGES = 10_000
# Characters of text in one reply.
MAX_REPLY_CHARS = 1_000_000


def check_workflow_text(text: str, what: str = "workflow") -> None:
    """Refuse a workflow (or node data) whose JSON text is larger than one call checks."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_WORKFLOW_BYTES:
        raise ToolError(f"{what}: {size} bytes of JSON, more than the {MAX_WORKFLOW_BYTES} one "
                        f"call checks; check it in parts")


def check_workflow_counts(workflow: Any) -> None:
    """Refuse a parsed workflow with more nodes or edges than one call checks."""
    if not isinstance(workflow, dict):
        return
    for key, limit in (("nodes", MAX_WORKFLOW_NODES), ("edges", MAX_WORKFLOW_EDGES)):
        items = workflow.get(key)
        if isinstance(items, list) and len(items) > limit:
            raise ToolError(f"workflow.{key}: {len(items)} {key}, more than the {limit} one "
                            f"call checks; check it in parts")


def capped_parts(parts: list[str], separator: str) -> tuple[str, int]:
    """The parts joined while they fit the reply budget, and how many were left out."""
    out: list[str] = []
    used = 0
    for i, part in enumerate(parts):
        cost = len(part) + (len(separator) if out else 0)
        if out and used + cost > MAX_REPLY_CHARS:
            return separator.join(out), len(parts) - i
        out.append(part)
        used += cost
    return separator.join(out), 0


def capped_result(result: CallToolResult) -> CallToolResult:
    """A reply whose text is past the budget becomes one error saying so."""
    size = sum(len(c.text) for c in result.content if isinstance(c, TextContent))
    if size <= MAX_REPLY_CHARS:
        return result
    text = (f"The reply would be {size} characters, more than the {MAX_REPLY_CHARS} one call "
            "returns; ask for less (fewer node types, a lower detail).")
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
