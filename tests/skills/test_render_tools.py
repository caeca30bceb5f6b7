"""render_mcp_call: JSON Schema in, exact Markdown out, side by side."""

from __future__ import annotations

from typing import Any

import pytest

from pygen.model import ToolSchema
from pygen.skills.render_tools import render_mcp_call, type_text


def tool(input_schema: dict[str, Any], output_schema: dict[str, Any] | None = None,
         description: str = "Do the thing.\nSecond line is left out.") -> ToolSchema:
    return ToolSchema(name="do_thing", description=description, input_schema=input_schema,
                      output_schema=output_schema)


def test_parameters_table_with_enum_default_and_description() -> None:
    schema = {
        "type": "object",
        "properties": {
            "prompt": {"type": "string", "description": "What to draw"},
            "provider": {"enum": ["flux", "nano-banana-pro"], "default": "nano-banana-pro",
                         "description": "Backend"},
            "count": {"type": "integer", "minimum": 1, "maximum": 4, "default": 1},
        },
        "required": ["prompt"],
    }
    assert render_mcp_call(tool(schema)) == """\
**MCP tool:** `do_thing` — Do the thing.

**Parameters:**

| Name | Type | Required | Default | Description |
| --- | --- | --- | --- | --- |
| `prompt` | `string` | required | — | What to draw |
| `provider` | `"flux" \\| "nano-banana-pro"` | optional | `"nano-banana-pro"` | Backend |
| `count` | `integer` (1 to 4) | optional | `1` | |"""


def test_returns_part_when_the_tool_declares_an_output_schema() -> None:
    output = {"type": "object",
              "properties": {"job_id": {"type": "string", "description": "Poll this"},
                             "url": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
              "required": ["job_id"]}
    assert render_mcp_call(tool({"type": "object", "properties": {}}, output)) == """\
**MCP tool:** `do_thing` — Do the thing.

**Parameters:** none.

**Returns** (structured content):

| Name | Type | Required | Description |
| --- | --- | --- | --- |
| `job_id` | `string` | required | Poll this |
| `url` | `string \\| null` | optional | |"""


def test_non_object_output_schema_is_one_line() -> None:
    rendered = render_mcp_call(tool({"type": "object"}, {"type": "array",
                                                         "items": {"type": "string"}},
                                    description=""))
    assert rendered == "**MCP tool:** `do_thing`\n\n**Parameters:** none.\n\n" \
                       "**Returns:** `string[]`"


def test_refs_resolve_against_defs_and_definitions_and_recursion_stops() -> None:
    schema = {
        "type": "object",
        "properties": {
            "tone": {"$ref": "#/definitions/Tone"},
            "outline": {"$ref": "#/$defs/Section"},
            "sections": {"type": "array", "items": {"$ref": "#/$defs/Section"}},
            "other": {"$ref": "#/$defs/Missing"},
        },
        "definitions": {"Tone": {"enum": ["plain", "playful"], "description": "How it sounds"}},
        "$defs": {"Section": {"type": "object", "required": ["title"], "properties": {
            "title": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Section"}}}}},
    }
    assert render_mcp_call(tool(schema)).split("\n")[6:] == [
        '| `tone` | `"plain" \\| "playful"` | optional | — | How it sounds |',
        "| `outline` | `{ title, children? }` | optional | — | |",
        "| `sections` | `{ title, children? }[]` | optional | — | |",
        "| `other` | `Missing` | optional | — | |",
    ]
    recursive = {"$ref": "#/$defs/Node", "$defs": {"Node": {
        "type": "array", "items": {"$ref": "#/$defs/Node"}}}}
    assert type_text(recursive) == "Node[]"


@pytest.mark.parametrize(("schema", "expected"), [
    ({"type": "string"}, "string"),
    ({}, "any"),
    (True, "any"),
    (False, "never"),
    ({"const": "completed"}, '"completed"'),
    ({"enum": [1, 2, None]}, "1 | 2 | null"),
    ({"type": ["string", "null"]}, "string | null"),
    ({"type": "string", "nullable": True}, "string | null"),
    ({"anyOf": [{"type": "number", "const": 2}, {"type": "number", "const": 4}]}, "2 | 4"),
    ({"oneOf": [{"type": "null"}, {"type": "integer"}, {"type": "integer"}]}, "integer | null"),
    ({"anyOf": [{"type": "string"}, {}]}, "any"),
    ({"allOf": [{"type": "object", "properties": {"a": {}}, "required": ["a"]}]}, "{ a }"),
    ({"type": "array", "items": {"enum": ["a", "b"]}}, '("a" | "b")[]'),
    ({"type": "array"}, "any[]"),
    ({"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}]},
     "[number, string]"),
    ({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}, "integer[][]"),
    ({"type": "object"}, "object"),
    ({"type": "object", "additionalProperties": {"type": "string"}}, "Record<string, string>"),
    ({"properties": {"b": {}, "a": {}}, "required": ["a"]}, "{ b?, a }"),
])
def test_type_text(schema: Any, expected: str) -> None:
    assert type_text(schema) == expected


def test_constraints_follow_the_type_outside_the_code_span() -> None:
    schema = {"type": "object", "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "speed": {"type": "number", "exclusiveMinimum": 0, "maximum": 4},
        "seed": {"anyOf": [{"type": "integer", "minimum": -1}, {"type": "null"}]},
        "url": {"type": "string", "format": "uri"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
        # Zod's int bounds carry no information.
        "n": {"type": "integer", "minimum": -9007199254740991, "maximum": 9007199254740991},
    }}
    rows = render_mcp_call(tool(schema)).split("\n")[6:]
    assert [row.split(" | ")[1] for row in rows] == [
        "`string` (length 1 to 120)",
        "`number` (> 0, ≤ 4)",
        "`integer \\| null` (≥ -1)",
        "`string` (format: uri)",
        "`string[]` (items ≤ 5)",
        "`integer`",
    ]


def test_cells_never_break_the_table() -> None:
    schema = {"type": "object", "properties": {
        "a|b": {"enum": ["x | y", "back`tick"], "default": "x | y",
                "description": "First line\n\nsecond | paragraph"},
    }}
    row = render_mcp_call(tool(schema)).split("\n")[-1]
    assert row == ('| `a\\|b` | ``"x \\| y" \\| "back`tick"`` | optional | `"x \\| y"` '
                   "| First line second \\| paragraph |")


def test_description_falls_back_to_the_referenced_model_and_marks_deprecated() -> None:
    schema = {"type": "object", "properties": {
        "camera": {"$ref": "#/$defs/Camera"},
        "old": {"type": "string", "deprecated": True, "description": "Use new."}},
        "$defs": {"Camera": {"type": "object", "description": "Camera move.",
                             "properties": {"motion": {"type": "string"}}}}}
    rows = render_mcp_call(tool(schema)).split("\n")[6:]
    assert rows == ["| `camera` | `{ motion? }` | optional | — | Camera move. |",
                    "| `old` | `string` | optional | — | Deprecated. Use new. |"]


def test_defaults_are_compact_json_in_declaration_order() -> None:
    schema = {"type": "object", "properties": {
        "camera": {"type": "object", "default": {"zoom": "in", "at": 0.5}},
        "tags": {"type": "array", "default": []},
        "on": {"type": "boolean", "default": False}}}
    rows = render_mcp_call(tool(schema)).split("\n")[6:]
    assert [row.split(" | ")[3] for row in rows] == [
        '`{"zoom": "in", "at": 0.5}`', "`[]`", "`false`"]



def test_rendering_is_deterministic() -> None:
    schema = {"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "string"}}}
    assert render_mcp_call(tool(schema)) == render_mcp_call(tool(dict(schema)))
    assert render_mcp_call(tool(schema)).index("`z`") < render_mcp_call(tool(schema)).index("`a`")
