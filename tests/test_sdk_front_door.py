"""pygen drives the MCP SDK by its front door: no private SDK attribute and no SDK submodule
beyond the ones listed here, each with why. A new private reach or submodule import fails
until it is listed (and measured: see `python -m bench.serve_http --calls 500`)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pygen"
# The SDK's own private attributes pygen still reaches, where the SDK (mcp 2.x) has no
# public path. (module, attribute): why.
PRIVATE_ALLOWED = {
    ("server/replay.py", "_tool_manager"): "sync get_tool/list for the HTTP replay fast "
    "path; MCPServer.list_tools is async and returns wire types, not Tool objects",
    ("server/replay.py", "_resource_manager"): "sync resource lookup for the replay fast path",
    ("server/app.py", "_tool_manager"): "swap_content swaps tools and resources in place so "
    "live sessions see new content; MCPServer has add_tool/remove_tool but no bulk swap",
    ("server/app.py", "_resource_manager"): "as above; MCPServer has no remove_resource",
    ("server/direct.py", "_lifespan_state"): "the session manager's lifespan state, handed "
    "to serve_one for the direct first-call path (1.06 vs 2.24 ms server CPU, p99 52 vs 164 ms)",
}
PRIVATE_NAMES = {"_tool_manager", "_resource_manager", "_prompt_manager", "_lifespan_state",
                 "_mcp_server", "_session_manager", "_server", "_task_group"}
# Public: the package roots the SDK exports from (`__all__` of mcp, mcp.server,
# mcp.server.mcpserver, mcp.client) and the types package.
PUBLIC = {"mcp", "mcp.server", "mcp.server.mcpserver", "mcp.client", "mcp.types", "mcp_types"}
SUBMODULES_ALLOWED = {
    "mcp.server.mcpserver.exceptions": "ToolError: the documented way a tool reports an error",
    "mcp.server.mcpserver.tools": "Tool: built once and shared across server instances",
    "mcp.server.mcpserver.resources.types": "TextResource: no re-export at the root",
    "mcp.server.subscriptions": "resource subscriptions (list_changed notifications)",
    "mcp.server.transport_security": "TransportSecuritySettings for the HTTP transport",
    "mcp.client.session": "ClientSession for the capture client and tests' helpers",
    "mcp.client.stdio": "stdio client used to capture a served tool map",
    "mcp_types.version": "direct.py fast path (handshake protocol versions)",
    # direct.py: the HTTP first-call fast path, kept because it is measured to pay.
    "mcp.server.connection": "direct.py fast path",
    "mcp.server.runner": "direct.py fast path (serve_one)",
    "mcp.server.streamable_http": "direct.py fast path (accept-header check, content type)",
    "mcp.server.streamable_http_manager": "direct.py fast path (session manager)",
    "mcp.shared.dispatcher": "direct.py fast path",
    "mcp.shared.exceptions": "direct.py fast path",
    "mcp.shared.inbound": "direct.py fast path (protocol version header)",
    "mcp.shared.jsonrpc_dispatcher": "direct.py fast path",
    "mcp.shared.message": "direct.py fast path",
    "mcp.shared.transport_context": "direct.py fast path",
}


@functools.cache
def nodes() -> tuple[tuple[str, ast.AST], ...]:
    """Every syntax node of the package with its module, parsed and walked once for both
    tests (parsing ~220 modules is most of their cost)."""
    return tuple((p.relative_to(PACKAGE).as_posix(), node)
                 for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts
                 for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))


def test_no_private_sdk_attribute_beyond_the_listed_ones() -> None:
    found = {(name, node.attr) for name, node in nodes()
             if isinstance(node, ast.Attribute) and node.attr in PRIVATE_NAMES
             and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
    assert found <= set(PRIVATE_ALLOWED), sorted(found - set(PRIVATE_ALLOWED))
    assert set(PRIVATE_ALLOWED) <= found, ("listed but gone, drop from the list",
                                           sorted(set(PRIVATE_ALLOWED) - found))


def test_sdk_submodules_imported_are_public_or_listed() -> None:
    modules = {node.module for _, node in nodes()
               if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
               and node.module.split(".")[0] in ("mcp", "mcp_types")}
    modules |= {alias.name for _, node in nodes()
                if isinstance(node, ast.Import) for alias in node.names
                if alias.name.split(".")[0] in ("mcp", "mcp_types")}
    assert modules - PUBLIC <= set(SUBMODULES_ALLOWED), sorted(
        modules - PUBLIC - set(SUBMODULES_ALLOWED))
    assert set(SUBMODULES_ALLOWED) <= modules, sorted(set(SUBMODULES_ALLOWED) - modules)
