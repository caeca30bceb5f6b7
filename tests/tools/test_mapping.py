"""Node types to tools: the naming convention, tool_map, and what doctor reports."""

from __future__ import annotations

import pytest

from pygen.errors import ToolSchemaError
from pygen.model import Location, NodeDef, ToolSchema
from pygen.tools import (
    UnmappedReport,
    map_tools,
    needs_tool,
    tool_name_for,
    unmapped_report,
)

TOOLS = tuple(ToolSchema(name=name) for name in
              ("generate_image", "image_to_video", "upscale_image", "create_workflow"))
TYPES = ["generate-image", "image-to-video", "upscale", "text-input", "upscale-pro"]


def node(node_type: str, category: str | None = None, cost: float | None = None) -> NodeDef:
    return NodeDef(type=node_type, label=node_type, category=category, credit_cost=cost,
                   source=Location(file="nodes.ts", line=1))


def names(mapping: dict[str, ToolSchema]) -> dict[str, str]:
    return {node_type: tool.name for node_type, tool in mapping.items()}


@pytest.mark.parametrize(("node_type", "tool"), [
    ("generate-image", "generate_image"), ("upscale", "upscale"), ("a-b-c", "a_b_c")])
def test_tool_name_for(node_type: str, tool: str) -> None:
    assert tool_name_for(node_type) == tool


def test_convention_maps_kebab_to_snake_in_node_order() -> None:
    assert names(map_tools(TYPES, TOOLS, {})) == {
        "generate-image": "generate_image", "image-to-video": "image_to_video"}


def test_tool_map_overrides_adds_and_shares() -> None:
    tool_map = {"upscale": "upscale_image", "upscale-pro": "upscale_image",
                "image-to-video": "generate_image"}
    assert names(map_tools(TYPES, TOOLS, tool_map)) == {
        "generate-image": "generate_image", "image-to-video": "generate_image",
        "upscale": "upscale_image", "upscale-pro": "upscale_image"}


def test_tool_map_naming_a_missing_tool_names_the_key() -> None:
    with pytest.raises(ToolSchemaError) as info:
        map_tools(TYPES, TOOLS, {"upscale": "upscale_img"})
    assert str(info.value) == (
        "tool_map key 'upscale' names tool 'upscale_img', which no source in `tools` declares "
        "(did you mean 'upscale_image'?); known tools: create_workflow, generate_image, "
        "image_to_video, upscale_image")


def test_tool_map_without_any_tools() -> None:
    with pytest.raises(ToolSchemaError) as info:
        map_tools(TYPES, (), {"upscale": "upscale_image"})
    assert str(info.value) == ("tool_map key 'upscale' names tool 'upscale_image', which no "
                               "source in `tools` declares; known tools: none")


@pytest.mark.parametrize(("key", "expected"), [
    ("upscal", "tool_map key 'upscal' is not a node type (did you mean 'upscale'?)"),
    ("generate_image", "tool_map key 'generate_image' is not a node type "
                       "(keys are node types, values tool names)"),
    ("zzz", "tool_map key 'zzz' is not a node type"),
])
def test_tool_map_key_that_is_not_a_node_type(key: str, expected: str) -> None:
    with pytest.raises(ToolSchemaError) as info:
        map_tools(TYPES, TOOLS, {key: "upscale_image"})
    assert str(info.value) == expected


def test_a_node_needs_a_tool_only_in_a_declared_category() -> None:
    # A cost says nothing about tools: only the app's `tool_categories` does.
    assert not needs_tool(node("a", cost=5), ())
    assert needs_tool(node("a", category="AI"), ("ai",))
    assert not needs_tool(node("a", category="input", cost=3), ("ai",))
    assert not needs_tool(node("a"), ("ai",))
    assert needs_tool(node("a", category="audio"), ("audio",))


def test_unmapped_report() -> None:
    nodes = [node("generate-image", "ai", 5), node("upscale", "image", 2),
             node("image-to-video", "ai"), node("text-input", "input", 0),
             node("caption", "ai")]
    mapping = map_tools([n.type for n in nodes], TOOLS, {})
    assert unmapped_report(nodes, TOOLS, mapping, ("ai",)) == UnmappedReport(
        nodes_without_tool=("caption",),
        unused_tools=("create_workflow", "upscale_image"))
