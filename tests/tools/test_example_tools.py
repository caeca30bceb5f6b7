"""The studio example's MCP tools agree with its TypeScript node catalog.

The skill generator merges tool schemas into node skills by name, so the example must keep
the naming rule (kebab node type -> snake tool name, camelCase field -> snake parameter) and
the enums in step. The TypeScript is read with regexes on purpose: this guards the example
itself, independently of the extractor under test elsewhere.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent, Tool

STUDIO = Path(__file__).resolve().parents[2] / "examples" / "studio"
NODES_TS = STUDIO / "src" / "types" / "nodes.ts"
PROVIDERS_TS = STUDIO / "src" / "types" / "providers.ts"

# Smallest valid arguments per tool, so every handler can be called.
MINIMAL_ARGS: dict[str, dict[str, Any]] = {
    "generate_image": {"prompt": "a lighthouse at dusk"},
    "upscale_image": {"source_image_url": "https://example.test/a.png"},
    "image_to_video": {"source_image_url": "https://example.test/a.png"},
    "generate_music": {"prompt": "slow piano"},
    "text_to_speech": {"text": "Hello."},
    "create_workflow": {"name": "Trailer"},
    "update_workflow_json": {"workflow_id": "wf-1", "workflow": {"nodes": [], "edges": []}},
}


def _load_tools_module() -> ModuleType:
    # Loaded by path: `examples/` is not an importable package, and sys.path stays untouched.
    path = STUDIO / "tools" / "studio_tools.py"
    spec = importlib.util.spec_from_file_location("studio_tools_under_test", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _list_and_call(module: ModuleType) -> tuple[list[Tool], dict[str, CallToolResult]]:
    async with Client(module.build_server()) as client:
        tools = (await client.list_tools()).tools
        results = {name: await client.call_tool(name, args) for name, args in MINIMAL_ARGS.items()}
    return tools, results


@pytest.fixture(scope="module")
def served() -> tuple[dict[str, Tool], dict[str, CallToolResult]]:
    tools, results = asyncio.run(_list_and_call(_load_tools_module()))
    return {tool.name: tool for tool in tools}, results


def _node_categories() -> dict[str, str]:
    text = NODES_TS.read_text()
    pairs = re.findall(r'type: "([a-z0-9-]+)",\s*label: "[^"]*",\s*category: "(\w+)"', text)
    return dict(pairs)


def _literal_values(members: str) -> list[str | int]:
    # Members are JSON-compatible literals: "quoted strings" or integers.
    return [json.loads(token) for token in re.findall(r'"[^"]*"|-?\d+', members)]


def _provider_unions() -> dict[str, list[str | int]]:
    text = PROVIDERS_TS.read_text()
    unions = {
        name: _literal_values(body)
        for name, body in re.findall(r"export type (\w+) =\s*([^;(]+);", text)
    }
    arrays = dict(re.findall(r"export const (\w+) = \[([^\]]*)\] as const;", text))
    for alias, array in re.findall(r"export type (\w+) = \(typeof (\w+)\)\[number\];", text):
        unions[alias] = _literal_values(arrays[array])
    return unions


def _interface_bodies() -> dict[str, str]:
    text = NODES_TS.read_text()
    return dict(re.findall(r"export interface (\w+)[^{]*\{(.*?)\n\}", text, re.DOTALL))


def _snake_to_camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _pascal(node_type: str) -> str:
    return "".join(part.capitalize() for part in node_type.split("-"))


def _enum_params(schema: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """(property name, enum) for every enum property, following $ref into $defs."""
    defs = schema.get("$defs", {})
    found: list[tuple[str, list[Any]]] = []

    def visit(properties: dict[str, Any]) -> None:
        for name, prop in properties.items():
            options = [prop, *prop.get("anyOf", [])]
            for option in options:
                if "enum" in option:
                    found.append((name, option["enum"]))
                if "$ref" in option:
                    visit(defs[option["$ref"].rsplit("/", 1)[1]].get("properties", {}))

    visit(schema.get("properties", {}))
    return found


def test_catalog_regexes_find_the_nodes() -> None:
    categories = _node_categories()
    assert len(categories) >= 12
    assert {"text-prompt", "loop", "merge-video-audio"} <= categories.keys()


def test_every_ai_node_has_a_tool_named_by_the_convention(served: Any) -> None:
    tools, _ = served
    ai_types = sorted(t for t, category in _node_categories().items() if category == "ai")
    assert len(ai_types) >= 5
    missing = [t for t in ai_types if t.replace("-", "_") not in tools]
    assert missing == []


def test_workflow_tools_exist(served: Any) -> None:
    tools, _ = served
    assert {"create_workflow", "update_workflow_json"} <= tools.keys()


def test_tool_enums_equal_the_typescript_unions(served: Any) -> None:
    tools, _ = served
    unions = _provider_unions()
    bodies = _interface_bodies()
    checked = []
    for node_type, category in _node_categories().items():
        tool = tools.get(node_type.replace("-", "_"))
        if category != "ai" or tool is None:
            continue
        body = bodies[f"{_pascal(node_type)}Data"]
        for param, enum in _enum_params(tool.input_schema):
            field = _snake_to_camel(param)
            match = re.search(rf"\b{field}\??: (\w+);", body)
            assert match, f"{tool.name}.{param}: no field {field} in {_pascal(node_type)}Data"
            alias = match.group(1)
            assert alias in unions, f"{tool.name}.{param}: {alias} is not in providers.ts"
            assert enum == unions[alias], f"{tool.name}.{param} vs {alias}"
            checked.append(f"{tool.name}.{param}")
    # Guards against the walk silently matching nothing.
    assert {"generate_image.provider", "image_to_video.motion", "text_to_speech.voice"} <= set(
        checked
    )
    assert len(checked) >= 12


def test_generation_tool_declares_a_structured_return(served: Any) -> None:
    tools, _ = served
    output = tools["generate_image"].output_schema
    assert output is not None
    assert {"job_id", "status", "url"} <= output["properties"].keys()
    assert tools["create_workflow"].output_schema is None


@pytest.mark.parametrize("name", sorted(MINIMAL_ARGS))
def test_handler_says_it_does_no_work(served: Any, name: str) -> None:
    _, results = served
    result = results[name]
    assert not result.is_error
    text = "".join(c.text for c in result.content if isinstance(c, TextContent))
    assert "Schema-only example: this tool does no work" in text


def test_every_tool_is_exercised(served: Any) -> None:
    tools, _ = served
    assert sorted(tools) == sorted(MINIMAL_ARGS)
