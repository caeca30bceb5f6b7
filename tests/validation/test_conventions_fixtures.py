"""Conventions come from declarations, and the app's own saved workflows are the oracle.

Each `conventions-*` project under tests/fixtures/ts/ is shaped like an editor in the wild
(object-valued mappings, mappings left empty on wired inputs, typed handles, a `custom` node
envelope, no label field, loops allowed or forbidden) and keeps saved workflows, some stale.
Through the real CLI: `gen` then `check` exit 0 on the untouched project, and
`validate-workflow` reports on each saved workflow exactly the findings its code supports.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus_runs import CorpusRuns

from pygen.cli import main
from pygen.conventions import Conventions, canonical_node, saved_node
from pygen.skills.saved_examples import saved_paths
from pygen.validation import saved
from pygen.validation.autofix import autofix
from pygen.validation.catalog import load_catalog_file
from pygen.validation.workflow import validate_workflow

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"

# (file, JSON path, rule) of every finding on every saved workflow, per fixture.
EXPECTED: dict[str, dict[str, list[tuple[str, str]]]] = {
    "conventions-mapping-objects": {
        "portrait.json": [],
        "old-poster.json": [
            ("$.nodes[2].data.factor", "enum"),
            ("$.nodes[3].type", "unknown-node-type"),
            ("$.edges[2].targetHandle", "edge-handle"),
            ("$.nodes[1].data.fieldMappings.text.field", "field-mapping-unknown-field"),
            ("$.nodes[2].data.fieldMappings", "field-mapping-missing"),
        ],
    },
    "conventions-mapping-optional": {
        "teaser.json": [],
        "old-teaser.json": [
            ("$.nodes[1].data.seconds", "type"),
            ("$.nodes[1].data.fieldMappings.prompt.transform", "enum"),
        ],
    },
    "conventions-typed-handles": {
        "counter.json": [],  # a self-loop: this editor allows loops
        "old-compare.json": [
            ("$.nodes[1].data.op", "enum"),
            ("$.edges[0].targetHandle", "connection-type"),
            ("$.edges[1].targetHandle", "connection-type"),
            ("$.edges[2].targetHandle", "input-edge-limit"),  # `maxConnections: 1`
        ],
    },
    "conventions-acyclic": {
        "nightly.json": [],
        "tangled.json": [
            ("$.edges[5].source", "edge-node"),
            ("$.edges[3]", "graph-self-loop"),
            ("$.edges[2]", "graph-cycle"),
            ("$.edges[2].targetHandle", "input-edge-limit"),
            ("$.edges[3].targetHandle", "input-edge-limit"),
        ],
    },
    "conventions-custom-envelope": {
        "report.json": [],
        "old-report.json": [
            ("$.nodes[0].data.config.method", "enum"),
            ("$.nodes[0].data.config.retries", "range"),
            ("$.nodes[1].data.type", "unknown-node-type"),
        ],
    },
    # The same envelope, read from the workflow type (`workflow_type`) instead of the config.
    "conventions-workflow-type": {
        "report.json": [],
        "old-report.json": [
            ("$.nodes[0].data.config.method", "enum"),
            ("$.nodes[0].data.config.retries", "range"),
            ("$.nodes[1].data.type", "unknown-node-type"),
        ],
    },
    "conventions-connections-map": {
        "alert.json": [],
        "old-alert.json": [
            ("$.nodes[2].parameters.mention", "unknown-field"),
            ("$.connections.Check", "edge-node"),
            # An if node has two outputs: the third is past them (rule output-index).
            ('$.connections["Down?"].main[2]', "output-index"),
        ],
    },
}
PLAIN = ["conventions-union-cast", "conventions-default-tag"]


def copy(name: str, tmp_path: Path) -> Path:
    project = tmp_path / name
    shutil.copytree(CORPUS / name, project)
    shutil.copy(CORPUS / "tsconfig.json", tmp_path / "tsconfig.json")
    if not (project / "pygen.toml").is_file():
        (project / "pygen.toml").write_text('nodes_file = "nodes.ts"\n', encoding="utf-8")
    return project


def cli(project: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.matrix
@pytest.mark.parametrize("name", [*EXPECTED, *PLAIN])
def test_gen_then_check_pass_and_saved_workflows_get_exactly_the_true_findings(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        corpus_runs: CorpusRuns) -> None:
    # Gen then check through the real CLI on an untouched copy: the session's run of the
    # project (tests/corpus_runs.py); its schema document is the one validated against.
    run = corpus_runs.run(name)
    assert run.codes == [0, 0], run.output
    project = copy(name, tmp_path)
    monkeypatch.chdir(project)
    schemas = Path(run.root) / "skills" / "schemas" / "nodes.schema.json"
    for file, expected in EXPECTED.get(name, {}).items():
        code, output = cli(project, "validate-workflow", f"workflows/{file}", "--json",
                           "--schemas", str(schemas))
        found = [(f["path"], f["rule"]) for f in json.loads(output)["findings"]]
        assert found == expected, file
        assert code == (1 if expected else 0)


def test_check_names_file_and_path_and_strict_fails_on_a_stale_saved_workflow(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-custom-envelope", tmp_path)
    monkeypatch.chdir(project)
    config = ["--config", str(project / "pygen.toml"), "--no-cache"]
    assert cli(project, "gen", "-q", *config)[0] == 0
    code, output = cli(project, "check", *config)
    assert code == 0
    assert ('warning: saved workflow workflows/old-report.json: $.nodes[0].data.config.method: '
            '"DELETE" is not one of "GET", "POST"') in output
    assert cli(project, "check", "--strict", *config)[0] == 1


def test_doctor_groups_stale_saved_workflows(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-mapping-objects", tmp_path)
    monkeypatch.chdir(project)
    config = ["--config", str(project / "pygen.toml"), "--no-cache"]
    assert cli(project, "gen", "-q", *config)[0] == 0
    code, output = cli(project, "doctor", "--json", *config)
    groups = json.loads(output)["saved_workflows"]
    assert code == 1
    assert {k: [f["path"] for f in v] for k, v in groups.items()} == {
        "enum value that was dropped": ["$.nodes[2].data.factor"],
        "node type removed or renamed": ["$.nodes[3].type"],
        "handle that no longer exists": ["$.edges[2].targetHandle"],
        "other": ["$.nodes[1].data.fieldMappings.text.field", "$.nodes[2].data.fieldMappings"],
    }


def test_real_configurations_are_the_valid_saved_nodes_smallest_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-custom-envelope", tmp_path)
    monkeypatch.chdir(project)
    assert cli(project, "gen", "-q", "--config", str(project / "pygen.toml"))[0] == 0
    catalog = load_catalog_file(project / "skills" / "schemas" / "nodes.schema.json")
    files = saved.load(saved_paths(project, ["workflows/*.json"]), project)
    assert saved.real_configurations(files, catalog) == {
        "http-request": [{"url": "https://api.example.com/stats", "method": "GET",
                          "retries": 2}],
        "send-email": [{"to": "ops@example.com", "subject": "Stats"}],
    }
    # Offered to agents beside the generated example; the stale file's node is not.
    text = (project / "skills" / "nodes" / "http-request.md").read_text(encoding="utf-8")
    assert ('From `workflows/report.json`:\n\n```json\n{"url": "https://api.example.com/stats", '
            '"method": "GET", "retries": 2}\n```') in text
    assert "DELETE" not in text


def test_generated_text_backs_every_sentence_with_a_declaration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No label, full data and no "the editor fills in" where nothing declares them; the
    `@default` that disagrees with the default data shows the default data's value."""
    typed = copy("conventions-typed-handles", tmp_path)
    monkeypatch.chdir(typed)
    assert cli(typed, "gen", "-q", "--config", str(typed / "pygen.toml"))[0] == 0
    text = (typed / "skills" / "nodes" / "add.md").read_text(encoding="utf-8")
    assert "fills in" not in text and '"label"' not in text
    assert '"sourceHandle": "value", "target": "add-1", "targetHandle": "a"' in text
    compare = (typed / "skills" / "nodes" / "compare.md").read_text(encoding="utf-8")
    assert "`a` (type `number`, one edge at most)" in compare  # `maxConnections: 1`
    editor = (typed / "skills" / "workflow-editor.md").read_text(encoding="utf-8")
    catalog = editor.split("<!-- AUTO-GEN:START node-catalog -->\n")[1]
    assert catalog.startswith("**")  # nothing declared, nothing said
    tagged = copy("conventions-default-tag", tmp_path)
    monkeypatch.chdir(tagged)
    code, output = cli(tagged, "gen", "--config", str(tagged / "pygen.toml"))
    assert code == 0
    assert ("denoise.steps: @default 4 disagrees with the default data 8; the skills show 8 "
            "(default at nodes.ts:22, type at nodes.ts:8)") in output
    text = (tagged / "skills" / "nodes" / "denoise.md").read_text(encoding="utf-8")
    assert "- `steps: number` — default `8`" in text and "default `4`" not in text


def test_a_position_fix_is_written_in_the_saved_shape(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-connections-map", tmp_path)
    monkeypatch.chdir(project)
    assert cli(project, "gen", "-q", "--config", str(project / "pygen.toml"))[0] == 0
    doc = json.loads((project / "workflows" / "alert.json").read_text(encoding="utf-8"))
    del doc["nodes"][1]["position"]
    (project / "moved.json").write_text(json.dumps(doc), encoding="utf-8")
    code, output = cli(project, "validate-workflow", "moved.json", "--json", "--schemas",
                       str(project / "skills" / "schemas" / "nodes.schema.json"))
    [finding] = json.loads(output)["findings"]
    assert code == 1 and finding["path"] == "$.nodes[1].position"
    assert finding["fix"] == {"op": "set", "path": "$.nodes[1].position", "value": [320, 0]}


def test_the_editor_skill_says_what_the_conventions_declare(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-custom-envelope", tmp_path)
    monkeypatch.chdir(project)
    assert cli(project, "gen", "-q", "--config", str(project / "pygen.toml"))[0] == 0
    editor = (project / "skills" / "workflow-editor.md").read_text(encoding="utf-8")
    assert ('Each node is saved as `{"id": "…", "type": "custom", "data": {"type": '
            '"<node type>", "config": {"…": "…"}}, "position": {"x": 0, "y": 0}}`. A node\'s '
            "label goes in `data.label`.\n") in editor


def test_autofix_repairs_in_the_saved_layout(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy("conventions-custom-envelope", tmp_path)
    monkeypatch.chdir(project)
    assert cli(project, "gen", "-q", "--config", str(project / "pygen.toml"))[0] == 0
    catalog = load_catalog_file(project / "skills" / "schemas" / "nodes.schema.json")
    doc = json.loads((project / "workflows" / "report.json").read_text(encoding="utf-8"))
    doc["nodes"][0]["data"]["config"]["method"] = "get"
    result = autofix(doc, lambda d: validate_workflow(d, catalog))
    assert result["valid"]
    assert result["workflow"]["nodes"][0]["data"]["config"]["method"] == "GET"


def test_the_envelope_round_trips() -> None:
    conv = Conventions(node_type_key="data.type", node_data_key="data.config",
                       node_constants={"type": "custom"})
    node = {"id": "a", "type": "x", "position": {"x": 0, "y": 0}, "data": {"k": 1}}
    stored = saved_node(node, conv)
    assert stored == {"id": "a", "type": "custom", "position": {"x": 0, "y": 0},
                      "data": {"config": {"k": 1}, "type": "x"}}
    assert canonical_node(stored, conv) == node
