"""`pygen doctor`, end to end through Node: each finding, the table, and the exit code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import run

from pygen import output

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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "nodes.ts").write_text(NODES_TS)
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS))
    (tmp_path / "pygen.toml").write_text('nodes_file = "nodes.ts"\ntools = ["json:tools.json"]\n'
                                         'tool_categories = ["AI"]\n')
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    editor = tmp_path / "skills" / "workflow-editor.md"
    editor.write_text(editor.read_text() + "\nPublish with `publish`.\n")
    render = tmp_path / "skills" / "nodes" / "render.md"
    render.write_text(render.read_text().replace(
        "## When to use\n\n", "## When to use\n\nFor stills; keep `qualty` low.\n"))
    # A look-alike word is a hint, not a failure; gen records the prose in nodes/_README.md.
    assert run(tmp_path, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
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
    assert report["stale_prose"] == []
    assert [(s["name"], s["suggestion"]) for s in report["prose_hints"]] == [
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
    assert "Look-alike words in prose" in out and "qualty" in out
    assert result.stderr == ""


@pytest.mark.slow
def test_which_nodes_need_a_tool_is_the_apps_to_declare(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without `tool_categories` nothing is guessed from a category's name or a node's cost.
    config = project / "pygen.toml"
    config.write_text(config.read_text().replace('tool_categories = ["AI"]\n', ""))
    report = json.loads(run(project, "doctor", "--json", monkeypatch=monkeypatch).stdout)
    assert report["tool_categories"] == [] and report["nodes_without_tool"] == []
    out = run(project, "doctor", monkeypatch=monkeypatch).stdout
    assert "nodes that need a tool" in out and "not declared" in out


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


def test_doctor_lists_structural_matches_with_scores_for_a_person_to_confirm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
    project = tmp_path / "decoy"
    shutil.copytree(corpus / "structural-decoy", project)
    shutil.copy(corpus / "tsconfig.json", tmp_path / "tsconfig.json")
    assert run(project, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    report = json.loads(run(project, "doctor", "--json", monkeypatch=monkeypatch).stdout)
    assert report["structural_matches"] == [{
        "node_type": "watermark", "data_type": "WatermarkSettings", "score": 0.931,
        "runner_up": "ExportSettings", "runner_up_score": 0.561}]
    # The decoy (LogEntry for `log`) is not a match: those nodes have no declared type.
    assert report["unresolved_data_types"] == ["log", "run-status", "delay"]
    # One line per row: the console's width is fixed when it is made, so set it directly.
    monkeypatch.setattr(output.console, "width", 240)
    table = run(project, "doctor", monkeypatch=monkeypatch).stdout
    assert "watermark → WatermarkSettings (0.931, next ExportSettings 0.561)" in table
