"""schema.constraints: a node's fields inherit the ranges of the tool parameters they map to."""

from __future__ import annotations

from typing import Any

from pygen.schema.constraints import tool_limits, with_tool_limits

TOOL: dict[str, Any] = {
    "type": "object",
    "$defs": {"Camera": {"type": "object", "properties": {
        "strength": {"type": "number", "minimum": 0, "maximum": 1}}}},
    "properties": {
        "duration_seconds": {"type": "integer", "minimum": 5, "maximum": 240},
        "prompt": {"type": "string", "minLength": 1, "maxLength": 2000},
        "seed": {"anyOf": [{"type": "integer", "minimum": -1}, {"type": "null"}]},
        "camera": {"$ref": "#/$defs/Camera"},
        "speed": {"type": "number", "exclusiveMinimum": 0, "maximum": 4},
    },
}
DATA: dict[str, Any] = {"type": "object", "properties": {
    "durationSeconds": {"type": "number"},
    "prompt": {"type": "string"},
    "seed": {"type": "number"},
    "camera": {"type": "object", "properties": {"strength": {"type": "number"}}},
    "speed": {"type": "number"},
}}


def test_limits_follow_the_case_convention_and_nested_objects() -> None:
    out = with_tool_limits(DATA, tool_limits(TOOL), {"speed": 1})
    props = out["properties"]
    assert props["durationSeconds"] == {"type": "number", "minimum": 5, "maximum": 240}
    assert props["camera"]["properties"]["strength"] == {"type": "number", "minimum": 0,
                                                         "maximum": 1}
    assert props["seed"] == {"type": "number", "minimum": -1}  # from inside Optional[...]
    # minLength is never taken: an empty prompt means "filled by an edge at run time".
    assert props["prompt"] == {"type": "string", "maxLength": 2000}
    assert DATA["properties"]["durationSeconds"] == {"type": "number"}  # input untouched


def test_a_limit_the_default_breaks_is_not_applied() -> None:
    out = with_tool_limits(DATA, tool_limits(TOOL), {"durationSeconds": 300, "speed": 0})
    assert "maximum" not in out["properties"]["durationSeconds"]
    assert out["properties"]["speed"] == {"type": "number", "maximum": 4}
