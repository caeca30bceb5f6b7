"""Field-list catalogs through the CLI: descriptors become fields, visibility conditions
become skill text, schema rules and validation findings (n8n- and Flowise-shaped fixtures)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import fixture_case as case
from click.testing import CliRunner

from pygen.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ts"


def github_workflow(root: Path, data: dict[str, object]) -> Path:
    path = root / "workflow.json"
    node = {"id": "a", "type": "github", "position": {"x": 0, "y": 0}, "data": data}
    path.write_text(json.dumps({"nodes": [node], "edges": []}), encoding="utf-8")
    return path


def test_a_conditional_field_is_said_in_the_skill(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("field-list-n8n", tmp_path, monkeypatch)
    text = (root / "skills" / "nodes" / "github.md").read_text()
    assert ("- `title: string` — shown when `resource` is `issue` and `operation` is `create` — "
            "Title. The title of the issue") in text
    assert "`additionalFields?: object` — shown when `operation` is `create` and `resource` " \
           "is not `repository`" in text
    assert "  - `labels?: (\"bug\" | \"feature\")[]` — Labels" in text
    assert "notice" not in text  # a notice shows text in the editor and holds no data


def test_a_field_listed_per_condition_reaches_the_skill_with_every_listing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`operation` is listed once per `resource`, each with its values and default: the skill
    `gen` writes (and `check` passes) has one bullet with a line per listing."""
    root = case("field-list-n8n", tmp_path, monkeypatch)
    text = (root / "skills" / "nodes" / "github.md").read_text()
    assert ("- `operation?` — listed per condition — Operation\n"
            "  - when `resource` is `issue`: `\"create\" | \"get\"` — default `\"create\"`\n"
            "  - when `resource` is `repository`: `\"get\"` — default `\"get\"`\n") in text


def test_a_visible_required_field_is_required_and_a_hidden_one_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("field-list-n8n", tmp_path, monkeypatch)
    wf = github_workflow(root, {"resource": "issue", "operation": "create", "owner": "me",
                                "issueNumber": 4})
    result = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict", str(wf)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "error: $.nodes[0].data.title: missing required field (required when `resource` is "
        "`issue` and `operation` is `create`)",
        "warning: $.nodes[0].data.issueNumber: is hidden by the values chosen for other "
        "fields; it is shown only when `resource` is `issue` and `operation` is `get`"]
    # The operation's default (`create`) counts when the data leaves it out.
    wf = github_workflow(root, {"resource": "issue", "owner": "me"})
    result = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict", str(wf)])
    assert result.exit_code == 1 and "data.title: missing required field" in result.stdout
    wf = github_workflow(root, {"resource": "repository", "owner": "me"})
    result = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict", str(wf)])
    assert result.exit_code == 0, result.output
    wf = github_workflow(root, {"resource": "issue", "operation": "create", "owner": "me",
                                "title": "Broken link"})
    result = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict", str(wf)])
    assert result.exit_code == 0 and result.stdout == "", result.output


def test_the_schema_states_each_condition(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("field-list-n8n", tmp_path, monkeypatch)
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    github = doc["$defs"]["github"]
    assert github["required"] == ["owner"]
    # The operation's default is `create`: data that leaves it out has it.
    shown = {"allOf": [{"properties": {"resource": {"enum": ["issue"]}}},
                       {"properties": {"operation": {"enum": ["create"]}}}]}
    assert {"if": shown, "then": {"required": ["title"], "x-shown-when":
                                  "`resource` is `issue` and `operation` is `create`"}} in (
        github["allOf"])
    assert github["properties"]["operation"] == {"anyOf": [
        {"enum": ["create", "get"], "description": "Operation", "default": "create"},
        {"const": "get", "description": "Operation", "default": "get"}]}


def test_a_constructor_built_class_is_an_entry_with_its_inputs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("field-list-flowise", tmp_path, monkeypatch)
    assert sorted(p.name for p in (root / "skills" / "nodes").glob("[!_]*.md")) == [
        "chatLocal.md", "stickyNote.md"]
    text = (root / "skills" / "nodes" / "chatLocal.md").read_text()
    assert "- `modelName: string` — default `\"llama3\"` — Model Name" in text
    assert "- `schema: json` — shown when `format` is `json` — Schema" in text


def test_descriptors_of_another_dialect_are_one_warning_per_node(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "dialect"
    shutil.copytree(CORPUS / "field-list-n8n", root, ignore=shutil.ignore_patterns("expected.*"))
    config = root / "pygen.toml"
    config.write_text(config.read_text().replace('preset = "n8n"', 'preset = "n8n"\nname = "id"'))
    monkeypatch.chdir(root)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    assert gen.stderr.splitlines() == [
        "warning: nodes/GitHub/GitHub.node.ts:6: node 'github': 'properties'[0] has no string "
        "'id' (and 8 more); those fields are left out (check the field_list keys against the "
        "descriptors)",
        "warning: the catalog (class:description) has 1 node: check that `definitions` and "
        "`nodes_file` name the editor's whole catalog"]
    strict = CliRunner().invoke(main, ["check", "--strict"], catch_exceptions=False)
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].endswith(
        "; fix the descriptors or the field_list keys or drop --strict")


def test_versions_built_from_a_constructor_parameter_are_variants(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("versioned-class", tmp_path, monkeypatch)
    nodes = root / "skills" / "nodes"
    assert sorted(p.name for p in nodes.glob("[!_]*.md")) == ["dateTime.1.md", "dateTime.2.md"]
    assert "- `value: string` — Value" in (nodes / "dateTime.1.md").read_text()
    second = (nodes / "dateTime.2.md").read_text()
    assert "# Date & Time" in second
    assert "- `date: string` — shown when `operation` is `formatDate` — Date to Format" in second


def test_a_node_version_selects_its_schema_and_the_latest_is_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("versions-latest", tmp_path, monkeypatch)  # check validates workflows/*.json
    nodes = root / "skills" / "nodes"
    # `version: [1, 2]` is one variant, named by its latest value.
    assert sorted(p.name for p in nodes.glob("[!_]*.md")) == ["if.2.md", "if.3.md"]
    older = (nodes / "if.2.md").read_text()
    assert '"typeVersion": 2}' in older
    assert ("(versions `1`, `2`; one of several `if` nodes; its `typeVersion` says which)"
            in older)
    assert ("A node's version goes in `typeVersion`: it chooses the data fields of a node type "
            "with versions; without it the latest apply.") in (
        root / "skills" / "workflow-editor.md").read_text()
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert doc["$defs"]["if"]["x-variants"] == {
        "field": "version", "values": {"1": "if.2", "2": "if.2", "3": "if.3"}, "default": "if.3"}
    path = root / "bad.json"
    old = {"value1": "x"}
    path.write_text(json.dumps({"nodes": [
        {"id": "a", "type": "if", "typeVersion": 3, "position": {"x": 0, "y": 0},
         "parameters": old},
        {"id": "b", "type": "if", "position": {"x": 0, "y": 0}, "parameters": old},
        {"id": "c", "type": "if", "typeVersion": 1, "position": {"x": 0, "y": 0},
         "parameters": old},
        {"id": "d", "type": "if", "typeVersion": 1, "position": {"x": 0, "y": 0},
         "parameters": {"combinator": "or"}},
    ], "edges": []}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", str(path)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert lines == [
        'error: $.nodes[0].parameters.value1: "value1" is a field of "if.2", not of "if.3"; '
        'drop it, or set typeVersion to "2"',
        'error: $.nodes[1].parameters.value1: "value1" is a field of "if.2", not of "if.3"; '
        'drop it, or set typeVersion to "2"',
        "error: $.nodes[3].parameters.value1: missing required field (string)",
        'error: $.nodes[3].parameters.combinator: "combinator" is a field of "if.3", not of '
        '"if.2"; drop it, or set typeVersion to "3"',
    ], result.output
    path.write_text(json.dumps({"nodes": [
        {"id": "a", "type": "if.2", "typeVersion": 1, "position": {"x": 0, "y": 0},
         "parameters": old}], "edges": []}), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate-workflow", str(path)])
    assert ('"if.2" is a variant, not a node type: write type "if" and typeVersion "2"'
            in result.output), result.output


def n8n_workflow(root: Path, nodes: list[dict[str, object]]) -> Path:
    path = root / "candidate.json"
    path.write_text(json.dumps({"name": "t", "nodes": nodes, "connections": {}}),
                    encoding="utf-8")
    return path


def test_an_n8n_shaped_workflow_is_validated_through_documented_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # check has validated workflows/issue.json (parameters, typeVersion, [x, y], a
    # connections map keyed by node name) and found it clean.
    root = case("n8n-workflow", tmp_path, monkeypatch)
    clean = CliRunner().invoke(main, ["validate-workflow", "--profile", "strict",
                                      "workflows/issue.json"])
    assert (clean.exit_code, clean.stdout) == (0, ""), clean.output
    github = {"id": "g", "name": "GitHub", "type": "github", "typeVersion": 1,
              "position": [0, 0], "parameters": {"resource": "issue", "operation": "create",
                                                 "owner": "octo", "issueNumber": 3}}
    set_node = {"id": "s", "name": "Set", "type": "set", "typeVersion": 7, "position": [0, 0],
                "parameters": {"mode": "raw"}}
    # A type of one class knows its versions too.
    later = {**github, "id": "h", "name": "GitHub 2", "typeVersion": 2,
             "parameters": {"owner": "octo", "resource": "repository"}}
    path = n8n_workflow(root, [github, set_node, later])
    result = CliRunner().invoke(main, ["validate-workflow", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "error: $.nodes[0].parameters.title: missing required field (required when "
        "`resource` is `issue` and `operation` is `create`)",
        "warning: $.nodes[0].parameters.issueNumber: is hidden by the values chosen for other "
        "fields; it is shown only when `resource` is `issue` and `operation` is `get`",
        'error: $.nodes[1].typeVersion: "set" has no version 7; its versions are "1", "2", '
        '"3"; it is checked as version "2"',
        'error: $.nodes[2].typeVersion: "github" has no version 2; its versions are "1"']


def test_the_declared_default_version_is_the_default_not_the_latest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case("n8n-workflow", tmp_path, monkeypatch)
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text())
    assert doc["$defs"]["set"]["x-variants"]["default"] == "set.2"  # defaultVersion: 2 of 1-3
    assert ("without it the node type's default version applies (the latest where it names "
            "none).") in (root / "skills" / "workflow-editor.md").read_text()
    newest: dict[str, object] = {"id": "s", "name": "Set", "type": "set", "position": [0, 0],
                                 "parameters": {"includeOtherFields": True}}
    result = CliRunner().invoke(main, ["validate-workflow", str(n8n_workflow(root, [newest]))])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        'error: $.nodes[0].parameters.includeOtherFields: "includeOtherFields" is a field of '
        '"set.3", not of "set.2"; drop it, or set typeVersion to "3"']


STORE_HELPERS = """\
// Shared fields several stores add to their own inputs.
export const addPagingParams = (inputs: any[]) => {
    const paging = [
        { label: "Page Size", name: "pageSize", type: "number", optional: true },
        { label: "Order", name: "order", type: "options", default: "asc", optional: true,
          options: [{ label: "Ascending", name: "asc" }, { label: "Descending", name: "desc" }] },
    ];
    inputs.push(...paging);
    inputs.push({ label: "Cursor", name: "cursor", type: "string", optional: true });
};

export function tagWith(inputs: any[], tag: string) {
    inputs.push({ label: tag, name: tag, type: "string" });
}
"""

STORE = """\
import type { Node, NodeParams } from "../../Interface";
import { addPagingParams, tagWith } from "../storeUtils";

class LocalStore_VectorStores implements Node {
  label: string;
  name: string;
  type: string;
  category: string;
  description: string;
  inputs: NodeParams[];

  constructor() {
    this.label = "Local Store";
    this.name = "localStore";
    this.type = "LocalStore";
    this.category = "Vector Stores";
    this.description = "Vectors kept on this machine";
    this.inputs = [{ label: "Collection", name: "collection", type: "string" }];
    addPagingParams(this.inputs);
    tagWith(this.inputs, "extra");
  }
}

module.exports = { nodeClass: LocalStore_VectorStores };
"""


def test_fields_a_helper_pushes_onto_the_inputs_are_fields(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`addPagingParams(this.inputs)` in the constructor: the literal fields the helper's body
    pushes (a spread local list, an object) are the node's fields; a push of a value known
    only at run time (`tagWith`'s `tag`) adds nothing, and a saved node using the pushed
    fields has no unknown-field finding."""
    root = tmp_path / "store"
    shutil.copytree(CORPUS / "field-list-flowise", root,
                    ignore=shutil.ignore_patterns("expected.*"))
    (root / "nodes" / "storeUtils.ts").write_text(STORE_HELPERS)
    (root / "nodes" / "vectorstores").mkdir()
    (root / "nodes" / "vectorstores" / "LocalStore.ts").write_text(STORE)
    monkeypatch.chdir(root)
    gen = CliRunner().invoke(main, ["gen"], catch_exceptions=False)
    assert gen.exit_code == 0, gen.output
    text = (root / "skills" / "nodes" / "localStore.md").read_text()
    for line in ("- `collection: string` — Collection", "- `pageSize?: number` — Page Size",
                 "- `cursor?: string` — Cursor"):
        assert line in text, text
    assert "`order?: \"asc\" | \"desc\"`" in text
    assert "`extra" not in text
    saved = root / "saved.json"
    saved.write_text(json.dumps({"nodes": [{"id": "s", "type": "localStore", "position": {
        "x": 0, "y": 0}, "data": {"collection": "docs", "pageSize": 20, "order": "desc"}}],
        "edges": []}))
    done = CliRunner().invoke(main, ["validate-workflow", "--json", str(saved)],
                              catch_exceptions=False)
    assert json.loads(done.stdout)["findings"] == [], done.stdout
