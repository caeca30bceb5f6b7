"""The MCP tools through the SDK's in-process client: plan every registry skill, validate its
hand-written fixture. The stdio end-to-end run belongs to `pygen serve`'s tests."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent

from pygen.protocol import load_registry
from pygen.protocol.tools import register_protocol_tools

REPO = Path(__file__).resolve().parents[2]
REGISTRY = load_registry(REPO / "skills" / "protocol" / "registry.toml")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "protocol"


def server() -> MCPServer:
    built = MCPServer("protocol-test")
    register_protocol_tools(built, REGISTRY)
    return built


def with_client(body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(server()) as client:
            return await body(client)

    return anyio.run(main)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def test_every_registry_skill_has_a_fixture() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == sorted(REGISTRY.names())


def test_tools_are_listed_read_only_and_point_at_the_one_schema_resource() -> None:
    async def body(client: Client) -> Any:
        tools = (await client.list_tools()).tools
        schema = await client.read_resource("skill://protocol/schema")
        shapes = await client.read_resource("skill://protocol/shapes")
        return tools, schema, shapes

    listed, schema, shapes = with_client(body)
    tools = {tool.name: tool for tool in listed}
    assert sorted(tools) == ["list_callable_skills", "plan_skill_call", "validate_skill_result"]
    plan_tool = tools["plan_skill_call"]
    assert plan_tool.annotations is not None and plan_tool.annotations.read_only_hint is True
    # The shapes are served once, as a resource; the tools refer to them instead of repeating.
    assert all("$defs" not in tool.input_schema for tool in listed)
    assert "SkillCallRequest; shapes: skill://protocol/shapes" in json.dumps(
        plan_tool.input_schema)
    # The compact shapes: the request and result an agent writes, about 2k characters.
    compact = shapes.contents[0].text
    assert len(compact) <= 2500 and compact.startswith("SkillCallRequest {requestId: string;")
    assert "MusicBrief {mode?: 'exploration' | 'locked';" in compact
    defs = json.loads(schema.contents[0].text)["$defs"]
    assert defs["SkillCallRequest"]["required"] == [
        "requestId", "skillName", "purpose", "expectedOutputs"]
    assert tools["validate_skill_result"].input_schema["required"] == [
        "result", "request", "scene_specs"
    ]


def test_list_callable_skills_and_the_registry_resource_say_the_same() -> None:
    async def body(client: Client) -> tuple[CallToolResult, Any]:
        return (await client.call_tool("list_callable_skills", {}),
                await client.read_resource("skill://protocol/registry"))

    listed, resource = with_client(body)
    skills = listed.structured_content["skills"]
    assert skills == json.loads(resource.contents[0].text)["skills"]
    assert [s["name"] for s in skills] == list(REGISTRY.names())
    blind = next(s for s in skills if s["name"] == "blind-editing-workflow")
    assert blind == {"name": "blind-editing-workflow", "asks": "edit/cut plan after timing/media "
                     "exists", "outputs": ["editPlan"], "optionalOutputs": [], "ready": False}


def test_plan_and_validate_each_skill_through_mcp() -> None:
    scenes = load(FIXTURES / "scenes.json")

    async def body(client: Client) -> list[tuple[str, Any, Any, Any]]:
        out = []
        for skill in REGISTRY.skills:
            request = load(FIXTURES / skill.name / "request.json")
            fixture = load(FIXTURES / skill.name / "result.json")
            planned = await client.call_tool("plan_skill_call", {"request": request})
            checked = await client.call_tool("validate_skill_result", {
                "result": fixture, "request": request, "scene_specs": scenes})
            out.append((skill.name, planned, checked, fixture))
        return out

    for name, planned, checked, fixture in with_client(body):
        assert not planned.is_error, name
        assert planned.structured_content["skillName"] == name
        assert planned.structured_content["status"] == fixture["status"], name
        assert json.loads(text_of(planned)) == planned.structured_content
        assert checked.structured_content == {"valid": True, "violations": []}, name


def test_validate_reports_violations_as_data() -> None:
    request = load(FIXTURES / "prompt-master" / "request.json")
    result = load(FIXTURES / "prompt-master" / "result.json")
    result["status"] = "done"
    del result["outputs"]["promptSet"][0]["sceneId"]

    async def body(client: Client) -> CallToolResult:
        return await client.call_tool("validate_skill_result", {
            "result": result, "request": request, "scene_specs": load(FIXTURES / "scenes.json")})

    checked = with_client(body)
    assert not checked.is_error
    assert checked.structured_content["valid"] is False
    assert [(v["path"], v["rule"]) for v in checked.structured_content["violations"]] == [
        ("$.status", "status-v1"), ("$.outputs.promptSet[0].sceneId", "scene-id-missing")
    ]


def test_protocol_problems_come_back_as_findings_never_as_tool_errors() -> None:
    request = {"requestId": "r", "skillName": "nope", "purpose": "p",
               "expectedOutputs": ["promptSet"]}

    async def body(client: Client) -> tuple[CallToolResult, CallToolResult]:
        unknown = await client.call_tool("plan_skill_call", {"request": request})
        dupes = await client.call_tool("validate_skill_result", {
            "result": {"requestId": "r", "skillName": "prompt-master", "status": "planned",
                       "summary": "s"},
            "request": {**request, "skillName": "prompt-master"},
            "scene_specs": [{"id": "a"}, {"id": "a"}]})
        return unknown, dupes

    unknown, dupes = with_client(body)
    assert not unknown.is_error and unknown.structured_content["status"] == "error"
    assert unknown.structured_content["violations"][0]["message"].startswith(
        "unknown skill 'nope'; callable skills: ai-short-film-breakdown,")
    assert not dupes.is_error
    assert dupes.structured_content["violations"] == [{
        "path": "$[1].id", "rule": "scene-id-duplicate",
        "message": "in scene_specs: duplicate scene id 'a'"}]


def test_arguments_that_break_the_shapes_are_refused_naming_every_field() -> None:
    request = {"requestId": "r", "skillName": "prompt-master", "purpose": "p",
               "expectedOutputs": ["clips"], "extra": 1}
    result = {"requestId": "r", "skillName": "prompt-master", "status": "done", "summary": "s",
              "outputs": {"musicBrief": {"mode": "loud"}}}

    async def body(client: Client) -> tuple[CallToolResult, CallToolResult]:
        return (await client.call_tool("plan_skill_call", {"request": request}),
                await client.call_tool("validate_skill_result", {
                    "result": result, "request": {**request, "expectedOutputs": ["promptSet"]},
                    "scene_specs": []}))

    refused, checked = with_client(body)
    assert not refused.is_error
    assert [(v["path"], v["rule"]) for v in refused.structured_content["violations"]] == [
        ("$.expectedOutputs[0]", "request-shape"), ("$.extra", "request-shape")]
    # Shape and rule problems of a result come back together.
    assert [(v["path"], v["rule"]) for v in checked.structured_content["violations"]] == [
        ("$.outputs.musicBrief.mode", "shape"), ("$.extra", "request-shape"),
        ("$.status", "status-v1"), ("$.outputs.musicBrief", "kind-not-expected"),
        ("$.outputs.musicBrief", "kind-not-allowed")]
    text = text_of(refused) + text_of(checked)
    # No validation library's wording or links, no path on the server's disk.
    assert "http" not in text and "pydantic" not in text and str(REPO) not in text


def test_every_wrong_output_kind_is_named_and_no_server_path_is() -> None:
    wrong = {"requestId": "r", "skillName": "prompt-master", "purpose": "p",
             "expectedOutputs": ["promptSet", "editPlan", "musicBrief"]}
    unknown = {**wrong, "skillName": "nope"}

    async def body(client: Client) -> tuple[CallToolResult, CallToolResult]:
        return (await client.call_tool("plan_skill_call", {"request": wrong}),
                await client.call_tool("plan_skill_call", {"request": unknown}))

    kinds, missing = with_client(body)
    assert "$.expectedOutputs[1], $.expectedOutputs[2]: skill 'prompt-master' does not return " \
        "'editPlan', 'musicBrief'" in text_of(kinds)
    assert not missing.is_error and missing.structured_content["status"] == "error"
    assert [v["rule"] for v in missing.structured_content["violations"]] == ["skill-unknown"]
    assert "registry" not in text_of(missing)
    assert str(REPO) not in text_of(missing)
