"""Tool descriptions name an editor's conventions only where its config declares them."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer

from pygen.conventions import Conventions
from pygen.server.node_tools import autofix_description
from pygen.server.validate_tool import WORKFLOW_ARG, register_validate_tool, tool_description
from pygen.validation.catalog import Catalog

DECLARED = Conventions(mapping_field="wires", connections_key="connections")


def test_undeclared_conventions_are_not_mentioned() -> None:
    for text in (tool_description(), autofix_description(), WORKFLOW_ARG):
        assert "mapping" not in text.lower()
        assert "{nodes, edges" not in text
        assert "fills in" not in text


def test_declared_conventions_are_named() -> None:
    assert "the `wires` mapping" in tool_description(DECLARED)
    assert "the `connections` map" in tool_description(DECLARED)
    assert "`wires` entries" in autofix_description(DECLARED)


def test_the_served_description_follows_the_conventions() -> None:
    server = MCPServer("test")
    register_validate_tool(server, lambda: Catalog([]), DECLARED)

    async def go() -> Any:
        async with Client(server) as client:
            return (await client.list_tools()).tools
    (tool,) = anyio.run(go)
    assert tool.description == tool_description(DECLARED)
