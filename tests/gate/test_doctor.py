"""`pygen doctor`: each finding, the node ↔ tool schema cross-check, and the exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pygen.cli import main
from pygen.gate import gate as doctor
from pygen.model import DataField, DataType, Location, Model, NodeDef, ToolSchema, TypeRef

STRING = TypeRef(kind="string")
NUMBER = TypeRef(kind="number")


def literals(*values: str | int) -> TypeRef:
    return TypeRef(kind="union", types=tuple(TypeRef(kind="literal", value=v) for v in values))


def field(name: str, ref: TypeRef, optional: bool = False) -> DataField:
    return DataField(name=name, type_text="t", type=ref, optional=optional)


def node(*fields: DataField, tool: ToolSchema | None = None, node_type: str = "render") -> NodeDef:
    return NodeDef(type=node_type, label="R", source=Location(file="n.ts", line=1), tool=tool,
                   data_type=DataType(name="RenderData", via="name", fields=fields))


def tool(properties: dict[str, Any], **extra: Any) -> ToolSchema:
    return ToolSchema(name="render", input_schema={"type": "object", "properties": properties,
                                                   **extra})


def found(*fields: DataField, properties: dict[str, Any], **extra: Any) -> list[str]:
    model = Model(nodes=(node(*fields, tool=tool(properties, **extra)),))
    return [m.text() for m in doctor.mismatches(model)]


# --- node data ↔ tool input schema ------------------------------------------------------------

def test_agreeing_fields_in_either_case_style_are_not_listed() -> None:
    assert found(field("aspectRatio", literals("1:1", "16:9")), field("steps", NUMBER),
                 field("seed", NUMBER, optional=True), field("label", STRING),
                 properties={
                     "aspect_ratio": {"type": "string", "enum": ["16:9", "1:1"]},
                     "steps": {"type": "integer"},
                     "seed": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                 }) == []


def test_enum_values_that_disagree_are_listed_both_ways() -> None:
    assert found(field("quality", literals("draft", "final")),
                 properties={"quality": {"enum": ["final", "ultra", None]}}) == [
        'render.quality ↔ render.quality: enum differs: node only "draft", tool only "ultra"']


def test_enum_behind_a_ref_and_a_nullable_any_of() -> None:
    assert found(field("provider", literals("flux", "kling")),
                 properties={"provider": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
                 **{"$defs": {"P": {"enum": ["flux"], "type": "string"}}}) == [
        'render.provider ↔ render.provider: enum differs: node only "kling", tool —']


def test_types_that_disagree_are_listed() -> None:
    assert found(field("steps", NUMBER), field("fast", TypeRef(kind="boolean")),
                 properties={"steps": {"type": "string"}, "fast": {"const": True}}) == [
        "render.steps ↔ render.steps: type differs: node number, tool string"]


def test_nested_object_fields_are_compared_too() -> None:
    camera = TypeRef(kind="object", fields=(field("motion", literals("pan", "zoom")),
                                            field("strength", NUMBER)))
    assert found(field("camera", camera), properties={"camera": {"$ref": "#/$defs/Camera"}},
                 **{"$defs": {"Camera": {"type": "object", "properties": {
                     "motion": {"enum": ["pan", "zoom", "tilt"]},
                     "strength": {"type": "number"}}}}}) == [
        'render.camera.motion ↔ render.camera.motion: enum differs: node —, tool only "tilt"']


def test_unknown_types_are_not_guessed() -> None:
    assert found(field("extra", TypeRef(kind="unresolved", text="Foo")),
                 field("meta", TypeRef(kind="any")),
                 properties={"extra": {"type": "string"}, "meta": {}}) == []


def test_snake_case_of_camel_and_acronyms() -> None:
    assert doctor.snake("aspectRatio") == "aspect_ratio"
    assert doctor.snake("sourceImageURL") == "source_image_url"
    assert doctor.snake("gain-db") == "gain_db"


# --- prose coverage and tokens ---------------------------------------------------------------

FILLED = "# R\n\n## When to use\n\nFor stills.\n\n## Common gotchas\n\n- Slow.\n"
EMPTY = ("# R\n\n## When to use\n\n<!-- write here -->\n\n## Common gotchas\n\n"
         "<!-- AUTO-GEN:START examples -->\nx\n<!-- AUTO-GEN:END examples -->\n")


def test_prose_gaps_and_coverage() -> None:
    nodes = [node(node_type="a"), node(node_type="b"), node(node_type="c")]
    texts: dict[str, tuple[Path, str | None]] = {
        "a": (Path("a.md"), FILLED), "b": (Path("b.md"), EMPTY), "c": (Path("c.md"), None)}
    gaps = doctor.prose_gaps(nodes, texts)
    assert [(g.node_type, g.empty) for g in gaps] == [
        ("b", ("When to use", "Common gotchas")), ("c", ("When to use", "Common gotchas"))]
    assert doctor.coverage(3, gaps) == pytest.approx(33.3)
    assert doctor.coverage(0, []) == 100.0
    assert doctor.section_text(FILLED, "common GOTCHAS") == "- Slow."
    assert doctor.section_text(FILLED, "Missing") is None


def test_token_sizes_are_chars_over_four_largest_first() -> None:
    sizes = doctor.token_sizes({Path("a.md"): "x" * 9, Path("b.md"): "x" * 40,
                                Path("c.md"): ""})
    assert [(s.path.name, s.tokens) for s in sizes] == [("b.md", 10), ("a.md", 3), ("c.md", 0)]


def test_tools_named_in_backticks_count_as_mentioned() -> None:
    texts = ["Save with `update_workflow_json`.", "Call `create_workflow({ name })`."]
    assert doctor.mentioned(["update_workflow_json", "create_workflow", "delete"], texts) == {
        "update_workflow_json", "create_workflow"}


# --- the command, end to end through Node ----------------------------------------------------

NODES_TS = """\
export interface RenderData {
  prompt: string;
  quality: "draft" | "final";
  steps: number;
}
export interface NoteData { body: string; }
export const NODE_DEFINITIONS = [
  { type: "render", label: "Render", category: "ai", creditCost: 2, inputs: ["in"],
    outputs: ["image"], defaultData: { prompt: "", quality: "draft", steps: 4 } },
  { type: "upscale", label: "Upscale", category: "ai", creditCost: 1, inputs: [],
    outputs: [], defaultData: { factor: 2 } },
  { type: "note", label: "Note", category: "utility", inputs: [], outputs: [],
    defaultData: { body: "" } },
];
"""
TOOLS = {"tools": [
    {"name": "render", "inputSchema": {"type": "object", "properties": {
        "prompt": {"type": "string"}, "quality": {"enum": ["draft", "final", "ultra"]},
        "steps": {"type": "string"}}}},
    {"name": "publish", "inputSchema": {"type": "object"}},
    {"name": "purge", "inputSchema": {"type": "object"}},
]}


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS))
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\ntools = ["json:tools.json"]\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    editor = tmp_path / "skills" / "workflow-editor.md"
    editor.write_text(editor.read_text() + "\nPublish with `publish`.\n")
    render = tmp_path / "skills" / "nodes" / "render.md"
    render.write_text(render.read_text().replace(
        "## When to use\n\n", "## When to use\n\nFor stills; keep `qualty` low.\n"))
    return tmp_path


def test_doctor_json_lists_every_finding_and_exits_1(project: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(project, "doctor", "--json", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["unresolved_data_types"] == ["upscale"]
    assert report["nodes_without_tool"] == ["upscale"]
    assert report["tools_without_node"] == ["publish", "purge"]
    assert report["tools_without_node_or_mention"] == ["purge"]
    assert report["prose_coverage_percent"] == pytest.approx(16.7)
    assert [g["node_type"] for g in report["empty_prose"]] == ["render", "upscale", "note"]
    assert [(s["name"], s["suggestion"]) for s in report["stale_prose"]] == [
        ("qualty", "quality")]
    assert report["orphans"] == [] and report["hand_edits"] == [] and report["drift"] == []
    assert [(m["field"], m["kind"], m["node"], m["tool_side"])
            for m in report["schema_mismatches"]] == [
        ("quality", "enum", "—", 'only "ultra"'), ("steps", "type", "number", "string")]
    files = report["tokens"]["files"]
    assert [f["tokens"] for f in files] == sorted((f["tokens"] for f in files), reverse=True)
    assert report["tokens"]["total"] == sum(f["tokens"] for f in files)
    assert files[0]["path"] == "skills/workflow-editor.md" or files[0]["tokens"] > 0


def test_doctor_table_names_what_to_fix(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(project, "doctor", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    out = result.stdout
    assert "unresolved: upscale" in out
    assert "publish, purge (named by no skill: purge)" in out
    assert "render.steps" in out and "Token size, largest first" in out
    assert "stale name '`qualty`' (did you mean '`quality`'?)" in out
    assert result.stderr == ""


def test_doctor_is_clean_on_a_healthy_catalog(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nodes.ts").write_text(
        "export interface NoteData { body: string; }\n"
        'export const NODE_DEFINITIONS = [{ type: "note", label: "Note", inputs: [], '
        'outputs: [], defaultData: { body: "" } }];\n')
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    result = run(tmp_path, "doctor", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert "none configured" in result.stdout
    as_json = json.loads(run(tmp_path, "doctor", "--json", monkeypatch=monkeypatch).stdout)
    assert as_json["ok"] is True and as_json["prose_coverage_percent"] == 0.0
