"""`pygen validate-workflow` on hand-written projects imitating two editors' saved shapes:
a Flowise-like field list whose untouched inputs are `""` and numbers typed as text, with an
input the canvas never shows; and a React Flow catalog whose data type marks bookkeeping
fields required that the editor's default data (what a new node holds) leaves out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_run import FIXTURES, run


def write(root: Path, nodes: list[dict[str, Any]]) -> str:
    (root / "flow.json").write_text(json.dumps({"nodes": nodes, "edges": []}))
    return "flow.json"


def chat(inputs: dict[str, Any]) -> dict[str, Any]:
    return {"id": "a", "type": "chatLocal", "position": {"x": 0, "y": 0}, "data": inputs}


@pytest.fixture
def flowise_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "flowise-like"
    shutil.copytree(FIXTURES / "field-list-flowise", root,
                    ignore=shutil.ignore_patterns("expected.*"))
    source = root / "nodes" / "chatmodels" / "ChatLocal.ts"
    text = source.read_text()
    # An input the canvas never draws: the node fills it itself.
    source.write_text(text.replace(
        '{ label: "Cache", name: "cache", type: "BaseCache", optional: true },',
        '{ label: "Cache", name: "cache", type: "BaseCache", optional: true },\n'
        '      { label: "Session", name: "sessionId", type: "string", hidden: true },'))
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return root


def test_untouched_inputs_and_numbers_as_text_pass(flowise_like: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    flow = write(flowise_like, [chat({"modelName": "llama3", "temperature": "0.7",
                                      "format": "", "cache": ""})])
    done = run(flowise_like, "validate-workflow", flow, monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output


def test_a_required_input_left_unset_and_a_word_for_a_number_fail(
        flowise_like: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flow = write(flowise_like, [chat({"modelName": "", "temperature": "warm"})])
    done = run(flowise_like, "validate-workflow", "--json", flow, monkeypatch=monkeypatch)
    assert done.exit_code == 1
    found = {(f["rule"], f["path"]): f["message"] for f in json.loads(done.stdout)["findings"]}
    assert set(found) == {("required", "$.nodes[0].data.modelName"),
                          ("type", "$.nodes[0].data.temperature")}
    assert found["required", "$.nodes[0].data.modelName"].startswith(
        'required but not set: "" is a value the editor treats as not set')


UPLOAD_TS = """\
export type UploadData = {
  label: string;
  assetId: string;
  r2Url: string;
  fileSize: number;
  provider: "a" | "b";
};
export const NODE_DEFINITIONS = [
  { type: "upload", label: "Upload", inputs: [], outputs: ["image"],
    defaultData: { label: "Upload", assetId: "", provider: "a" } },
];
"""
CONVENTIONS = """\
nodes_file = "src/nodes.ts"

[conventions]
unset_values = ['""', "null"]
default_data_valid = true
"""


@pytest.fixture
def default_data_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "defaults"
    (root / "src").mkdir(parents=True)
    (root / "src" / "nodes.ts").write_text(UPLOAD_TS)
    (root / "pygen.toml").write_text(CONVENTIONS)
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    return root


def upload(data: dict[str, Any]) -> dict[str, Any]:
    return {"id": "u", "type": "upload", "position": {"x": 0, "y": 0}, "data": data}


def test_a_node_as_the_editor_creates_it_is_valid_and_strict_still_asks(
        default_data_app: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flow = write(default_data_app, [upload({"label": "Shot 1", "assetId": None,
                                            "provider": "a"})])
    done = run(default_data_app, "validate-workflow", "--json", flow, monkeypatch=monkeypatch)
    assert done.exit_code == 0, done.output
    notes = [(f["level"], f["rule"], f["path"]) for f in json.loads(done.stdout)["findings"]]
    assert notes == [("info", "required", "$.nodes[0].data.r2Url"),
                     ("info", "required", "$.nodes[0].data.fileSize")]
    strict = run(default_data_app, "validate-workflow", "--profile", "strict", flow,
                 monkeypatch=monkeypatch)
    assert strict.exit_code == 1


def test_a_value_the_default_data_does_not_hold_is_judged(
        default_data_app: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flow = write(default_data_app, [upload({"label": "x", "provider": "c", "fileSize": "1"})])
    done = run(default_data_app, "validate-workflow", "--json", flow, monkeypatch=monkeypatch)
    assert done.exit_code == 1
    errors = {(f["rule"], f["path"]) for f in json.loads(done.stdout)["findings"]
              if f["level"] == "error"}
    assert errors == {("enum", "$.nodes[0].data.provider"),
                      ("type", "$.nodes[0].data.fileSize")}
