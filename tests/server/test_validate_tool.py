"""server.validate_tool: the validate_workflow_json MCP tool, through a real client session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

from pygen.errors import PygenError
from pygen.model import Model
from pygen.server.validate_tool import register_validate_tool
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.findings import report
from pygen.validation.workflow import validate_workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
MODEL = Model(nodes=STUDIO.nodes + EXOTIC.nodes, conventions=STUDIO.conventions)
CATALOG = build_catalog(MODEL)


def call(server: MCPServer, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any], str]:
    async def go() -> tuple[bool, dict[str, Any], str]:
        async with Client(server) as client:
            result = await client.call_tool("validate_workflow_json", arguments)
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            return bool(result.is_error), result.structured_content or {}, text
    return anyio.run(go)


def server_for(provider: Any) -> MCPServer:
    server = MCPServer("test")
    register_validate_tool(server, provider)
    return server


def test_mcp_tool_is_listed_read_only() -> None:
    async def go() -> Any:
        async with Client(server_for(lambda: CATALOG)) as client:
            return (await client.list_tools()).tools
    (tool,) = anyio.run(go)
    assert tool.name == "validate_workflow_json"
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert tool.input_schema["required"] == ["workflow"]
    assert set(tool.output_schema["properties"]) == {"valid", "errors", "warnings", "findings"}


def test_mcp_tool_reports_findings() -> None:
    doc = json.loads((FIXTURES / "invalid" / "bad-target-handle.json").read_text(encoding="utf-8"))
    is_error, structured, text = call(server_for(lambda: MODEL), {"workflow": doc["workflow"]})
    assert is_error is False
    assert structured == report(validate_workflow(doc["workflow"], CATALOG))
    assert structured["valid"] is False
    assert json.loads(text) == structured


def test_mcp_tool_accepts_a_json_string_and_reports_bad_json() -> None:
    server = server_for(lambda: CATALOG)
    _, structured, _ = call(server, {"workflow": '{"nodes": [], "edges": []}'})
    assert structured == {"valid": True, "errors": 0, "warnings": 0, "findings": []}
    _, structured, _ = call(server, {"workflow": '{"nodes": ['})
    assert structured["findings"] == [{"level": "error", "path": "$", "suggestion": None,
                                       "rule": "json",
                                       "message": "workflow:1:12: invalid JSON: "
                                                  "Expecting value"}]


def test_mcp_tool_error_when_the_schemas_cannot_be_loaded() -> None:
    def provider() -> Catalog:
        raise PygenError("skills/schemas/nodes.schema.json: cannot read; run `pygen gen`")
    is_error, _, text = call(server_for(provider), {"workflow": {"nodes": [], "edges": []}})
    assert is_error is True
    assert "skills/schemas/nodes.schema.json: cannot read; run `pygen gen`" in text


def test_mcp_tool_builds_the_catalog_once_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = [MODEL, MODEL, STUDIO]
    built: list[Model] = []

    def counting_build(model: Model) -> Catalog:
        built.append(model)
        return build_catalog(model)
    monkeypatch.setattr("pygen.validation.catalog.build_catalog", counting_build)
    server = server_for(lambda: sources.pop(0))

    async def go() -> None:
        async with Client(server) as client:
            for _ in range(3):
                await client.call_tool("validate_workflow_json",
                                       {"workflow": {"nodes": [], "edges": []}})
    anyio.run(go)
    # Asked each call (a reloaded schema file is picked up), rebuilt only when it changed.
    assert sources == [] and built == [MODEL, STUDIO]
