"""End to end through `pygen validate-workflow`: an n8n-shaped node package (hand-written)
whose saved workflow sets a value field a hidden expression-defaulted `type` shows, and a
legacy option value the node still handles."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import FIXTURES, run
from click.testing import Result

VALUES = """[
        { displayName: "Key", name: "key", type: "options", default: "",
          typeOptions: { loadOptionsMethod: "getProperties" }, description: "NOTE" },
        { displayName: "Type", name: "type", type: "hidden",
          default: '={{$parameter["&key"].split("|")[1]}}' },
        { displayName: "Select", name: "selectValue", type: "string", default: "",
          displayOptions: { show: { type: ["select"] } } },
        { displayName: "Number", name: "numberValue", type: "number", default: 0,
          displayOptions: { show: { type: ["number"] } } },
      ]"""
NODE = """// A page node: which value field shows depends on a hidden type read from the key.
import type { NodeType } from "../workflow";

export class Page implements NodeType {
  description: any = {
    displayName: "Page",
    name: "page",
    group: ["output"],
    description: "Write pages",
    version: 1,
    properties: [
      { displayName: "Operation", name: "operation", type: "options", default: "create",
        options: [{ name: "Create", value: "create" }, { name: "Update", value: "update" }] },
      { displayName: "Properties", name: "propertiesUi", type: "fixedCollection",
        typeOptions: { multipleValues: true }, default: {},
        displayOptions: { show: { operation: ["create"] } },
        options: [{ name: "propertyValues", displayName: "Property", values: VALUES_HERE }] },
      { displayName: "Properties", name: "propertiesUi", type: "fixedCollection",
        typeOptions: { multipleValues: true }, default: {},
        displayOptions: { show: { operation: ["update"] } },
        options: [{ name: "propertyValues", displayName: "Property", values: VALUES_HERE }] },
      { displayName: "Language", name: "language", type: "options", default: "javaScript",
        options: [{ name: "JavaScript", value: "javaScript" },
                  { name: "Python", value: "pythonNative" }] },
      { displayName: "Python", name: "pythonCode", type: "string", default: "",
        displayOptions: { show: { language: ["python", "pythonNative"] } } },
    ],
  };
}
""".replace("VALUES_HERE", VALUES.replace("NOTE", "Key to create"), 1).replace(
    "VALUES_HERE", VALUES.replace("NOTE", "Key to update"), 1)
CONFIG = """nodes_file = "nodes/Page.node.ts"
definitions = "class:description"

[entry_fields]
type = "name"
label = "displayName"
category = "group"
inputs = false
outputs = false

[field_list]
entry_field = "properties"
preset = "n8n"

[conventions]
node_data_key = "parameters"
position_pair = true
connections_key = "connections"
connection_node_key = "name"
editor_fills_defaults = true
expression_prefix = "="
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "pages"
    (root / "nodes").mkdir(parents=True)
    for name in ("workflow.ts", "tsconfig.json"):
        shutil.copy(FIXTURES / "n8n-workflow" / name, root / name)
    (root / "nodes" / "Page.node.ts").write_text(NODE, encoding="utf-8")
    (root / "pygen.toml").write_text(CONFIG, encoding="utf-8")
    return root


def saved(root: Path, parameters: dict[str, object]) -> Path:
    node = {"name": "Page", "type": "page", "typeVersion": 1, "position": [0, 0],
            "parameters": parameters}
    path = root / "saved.json"
    path.write_text(json.dumps({"nodes": [node], "connections": {}}), encoding="utf-8")
    return path


def add_fields(root: Path, fields: str) -> None:
    """Prepend hand-written fields to the node's property list (each test adds its own)."""
    node = root / "nodes" / "Page.node.ts"
    node.write_text(node.read_text(encoding="utf-8").replace(
        "properties: [", "properties: [" + fields, 1), encoding="utf-8")


def gen_and_validate(root: Path, parameters: dict[str, object],
                     monkeypatch: pytest.MonkeyPatch, *flags: str) -> Result:
    """`gen` (must pass), then `validate-workflow` on a one-node workflow with `parameters`."""
    done = run(root, "gen", "-q", monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    return run(root, "validate-workflow", *flags, str(saved(root, parameters)),
               monkeypatch=monkeypatch)


def test_runtime_values_and_legacy_options_through_the_cli(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    done = gen_and_validate(root, {"operation": "update", "propertiesUi": {"propertyValues": [
        {"key": "Status|select", "selectValue": "Done"}]}}, monkeypatch)
    assert (done.exit_code, done.stdout) == (0, ""), done.output
    done = gen_and_validate(root, {"operation": "update", "language": "python",
                                   "pythonCode": "1", "propertiesUi": {"propertyValues": [
                                       {"key": "Amount|number", "numberValue": "many"}]}},
                            monkeypatch)
    assert done.exit_code == 1
    assert done.stdout.splitlines() == [
        'error: $.nodes[0].parameters.propertiesUi.propertyValues[0].numberValue: expected '
        'number, got string "many"',
        'warning: $.nodes[0].parameters.language: "python" is a legacy value the node still '
        'handles; its options now are "javaScript", "pythonNative"']


def test_a_required_field_left_empty_is_an_error_under_required_nonempty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    add_fields(root, '\n      { displayName: "Title", name: "title", '
               'type: "string", default: "", required: true },')
    done = gen_and_validate(root, {"title": ""}, monkeypatch)
    assert (done.exit_code, done.stdout) == (0, "")  # off: an empty string is a string
    (root / "pygen.toml").write_text(CONFIG + "required_nonempty = true\n", encoding="utf-8")
    done = gen_and_validate(root, {"title": ""}, monkeypatch)
    assert done.exit_code == 1
    assert done.stdout.splitlines() == [
        "error: $.nodes[0].parameters.title: required field is empty (string)"]
    done = run(root, "validate-workflow", str(saved(root, {})), monkeypatch=monkeypatch)
    assert done.stdout.splitlines() == [
        "error: $.nodes[0].parameters.title: missing required field (string); left out it "
        "takes its default, which is empty: the editor reports it as missing"]


def test_a_mistyped_option_listed_once_per_condition_names_the_nearest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    add_fields(root, '''
      { displayName: "Resource", name: "resource", type: "options", default: "message",
        options: [{ name: "Message", value: "message" }, { name: "User", value: "user" }] },
      { displayName: "Action", name: "action", type: "options", default: "post",
        displayOptions: { show: { resource: ["message"] } },
        options: [{ name: "Post", value: "post" }, { name: "Delete", value: "delete" }] },
      { displayName: "Action", name: "action", type: "options", default: "info",
        displayOptions: { show: { resource: ["user"] } },
        options: [{ name: "Info", value: "info" }] },''')
    done = gen_and_validate(root, {"resource": "message", "action": "pots"}, monkeypatch,
                            "--json")
    (finding,) = json.loads(done.stdout)["findings"]
    assert (finding["rule"], finding["level"], finding["suggestion"]) == ("enum", "error", "post")
    assert finding["fix"] == {"op": "set", "path": "$.nodes[0].parameters.action",
                              "value": "post"}
