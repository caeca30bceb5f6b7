"""render_protocol_blocks(): the shapes and the registry table of skills/protocol/skill-call.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pygen.protocol import Subject, load_registry, protocol_schema, render_protocol_blocks
from pygen.protocol.docs import ts_declaration, ts_type
from pygen.protocol.registry import parse_registry
from pygen.skills.markers import bodies, format_body

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "skills" / "protocol" / "skill-call.md"
REGISTRY = REPO / "skills" / "protocol" / "registry.toml"


def test_registry_table() -> None:
    registry = parse_registry({"skills": [
        {"name": "a", "asks": "x | y", "outputs": ["promptSet"],
         "optional_outputs": ["sceneAssets"], "also_returns": ["notes"], "ready": True},
        {"name": "b", "asks": "z", "outputs": ["editPlan"]},
    ]}, "r")
    assert render_protocol_blocks(registry)["protocol-registry"] == (
        "| Skill | Request | Expected return | `plan` answers |\n"
        "|---|---|---|---|\n"
        "| `a` | x \\| y | `promptSet`, optional `sceneAssets`, notes | `planned` |\n"
        "| `b` | z | `editPlan` | `dryRun` |\n"
    )


@pytest.mark.parametrize(
    ("schema", "text"),
    [
        ({"$ref": "#/$defs/SceneSpec"}, "SceneSpec"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "string"),
        ({"anyOf": [{"type": "integer"}, {"type": "number"}]}, "number"),
        ({"type": "array", "items": {"$ref": "#/$defs/Subject"}}, "Subject[]"),
        ({"type": "array", "items": {"enum": ["a", "b"]}}, "Array<'a' | 'b'>"),
        ({"const": "dryRun"}, "'dryRun'"),
        ({"type": "object"}, "Record<string, unknown>"),
        ({"type": "boolean"}, "boolean"),
        ({}, "unknown"),
    ],
)
def test_ts_type(schema: dict[str, Any], text: str) -> None:
    assert ts_type(schema) == text


def test_an_open_shape_ends_with_an_index_signature() -> None:
    assert ts_declaration("Subject", Subject.model_json_schema(by_alias=True)) == (
        "// Someone or something that appears in a scene; assets aim at it through `targetId`.\n"
        "export type Subject = {\n"
        "  // Unique within its scene; the value an asset's `targetId` must match.\n"
        "  id: string;\n"
        "  name?: string;\n"
        "  description?: string;\n"
        "  [key: string]: unknown;\n"
        "};"
    )


def test_shapes_declare_every_type_request_and_result_first() -> None:
    shapes = render_protocol_blocks(load_registry(REGISTRY))["protocol-shapes"]
    declared = [line.split()[2] for line in shapes.splitlines() if line.startswith("export type")]
    assert declared[:2] == ["SkillCallRequest", "SkillCallResult"]
    assert sorted(declared) == sorted(protocol_schema()["$defs"])
    assert shapes.startswith("```ts\n") and shapes.endswith("\n```\n")
    assert "  status: SkillCallStatus;" in shapes
    assert "export type SkillCallStatus = 'dryRun' | 'planned' | 'rendering' | 'done' | 'error';" \
        in shapes


def test_the_committed_doc_is_up_to_date() -> None:
    # Until `pygen gen` drift-gates this file, this test does.
    text = DOC.read_text(encoding="utf-8")
    expected = render_protocol_blocks(load_registry(REGISTRY))
    found = bodies(text, str(DOC))
    assert set(expected) <= set(found)
    for block_id, content in expected.items():
        assert found[block_id] == format_body(content, "\n"), f"{block_id} is stale"
