"""Handle sides: declared (empty only when the code says so), not declared, or dynamic.

Hand-written projects shaped like real editors: a catalog that lists no handles (the
component draws them) or keeps them under a key of its own; a list node whose outputs are
computed from its data (`col_<id>`, typed as a template literal) and a table whose row
handles the config declares. gen and check exit 0 on each; the skills say "not declared" and
"dynamic"; valid edges pass with a note; an id that fits no pattern is an error, on the
extracted model and on the schema document alike (`--schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pygen.dynamic_handles import DynamicHandles
from pygen.model import Handle, Location, NodeDef
from pygen.schema.document import handles_entry
from pygen.skills.handles_text import side_text
from tests.cli_run import fixture_case, generated, run


def node(node_id: str, node_type: str, **data: Any) -> dict[str, Any]:
    return {"id": node_id, "type": node_type, "position": {"x": 0, "y": 0}, "data": data}


def edge(j: int, source: str, out: str | None, target: str, into: str | None) -> dict[str, Any]:
    return {"id": f"e{j}", "source": source, "sourceHandle": out, "target": target,
            "targetHandle": into}


def validate(root: Path, doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
             *extra: str) -> tuple[int, dict[str, Any]]:
    (root / "wf.json").write_text(json.dumps(doc))
    done = run(root, "validate-workflow", "--json", *extra, "wf.json", monkeypatch=monkeypatch)
    return done.exit_code, json.loads(done.stdout)


def test_not_declared_is_not_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("handles-not-declared", tmp_path, monkeypatch)
    skill = (root / "skills" / "nodes" / "stringNode.md").read_text()
    assert "**Inputs (target handles):** not declared" in skill
    assert "**Outputs (source handles):** not declared" in skill
    # Handles under a key the config does not name are not read: not declared, never none.
    assert "not declared" in (root / "skills" / "nodes" / "join.md").read_text()
    note = (root / "skills" / "nodes" / "note.md").read_text()
    assert "**Inputs (target handles):** none" in note
    doc = {"nodes": [node("a", "stringNode", value="hi"), node("b", "join", separator="-"),
                     node("n", "note", body="")],
           "edges": [edge(0, "a", "out", "b", "left"), edge(1, "a", None, "b", "right")]}
    code, report = validate(root, doc, monkeypatch)
    assert code == 0 and report["valid"] and report["warnings"] == 0
    notes = [f for f in report["findings"] if f["level"] == "info"]
    assert len(notes) == 4 and all(f["rule"] == "edge-handle" for f in notes)
    assert "does not declare its outputs" in notes[0]["message"]
    # Declared empty still refuses an edge.
    doc["edges"].append(edge(2, "a", "out", "n", "x"))
    code, report = validate(root, doc, monkeypatch)
    assert code == 1
    assert [f["path"] for f in report["findings"] if f["level"] == "error"] == [
        "$.edges[2].targetHandle"]


@pytest.mark.slow
def test_nested_handles_read_when_named(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("handles-not-declared", tmp_path, monkeypatch)
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\ndefinitions = "NODE_TYPES"\n'
                                     '[entry_fields]\ninputs = "ports.inputs"\n'
                                     'outputs = "ports.outputs"\n')
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    assert "`left`, `right`" in (root / "skills" / "nodes" / "join.md").read_text()
    doc = {"nodes": [node("a", "join", separator=""), node("b", "join", separator="")],
           "edges": [edge(0, "a", "joined", "b", "left"), edge(1, "a", "joined", "b", "up")]}
    code, report = validate(root, doc, monkeypatch)
    assert code == 1
    assert [f["path"] for f in report["findings"] if f["level"] != "info"] == [
        "$.edges[1].targetHandle"]


def test_dynamic_handles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("handles-dynamic", tmp_path, monkeypatch)
    assert "**Outputs (source handles):** dynamic (ids `col_<id>`)" in (
        root / "skills" / "nodes" / "list.md").read_text()
    assert "dynamic (ids `row_<id>`)" in (root / "skills" / "nodes" / "table.md").read_text()
    doc = {"nodes": [node("l", "list", columns=[{"id": "a", "handleId": "col_a"}]),
                     node("t", "table", rows=2), node("m", "list", columns=[])],
           "edges": [edge(0, "l", "col_a", "t", "in"), edge(1, "t", "row_1", "m", "in")]}
    schemas = ("--schemas", "skills/schemas/nodes.schema.json")
    for extra in ((), schemas):
        code, report = validate(root, doc, monkeypatch, *extra)
        assert (code, report["findings"]) == (0, []), extra
    doc["edges"] += [edge(2, "l", "items", "t", "in"), edge(3, "t", "col_1", "m", "in")]
    for extra in ((), schemas):
        code, report = validate(root, doc, monkeypatch, *extra)
        assert code == 1
        errors = [f for f in report["findings"] if f["level"] == "error"]
        assert [f["path"] for f in errors] == ["$.edges[2].sourceHandle",
                                               "$.edges[3].sourceHandle"]
        assert 'ids of the form "col_<id>"' in errors[0]["message"]


def _node(**kw: Any) -> NodeDef:
    return NodeDef(type="t", label="T", source=Location(file="n.ts", line=1), **kw)


def test_sides_in_skills_and_document() -> None:
    fixed = _node(inputs=(Handle(id="in"),), inputs_dynamic=DynamicHandles(patterns=("c_*",)))
    assert side_text(fixed, "inputs") == "`in`; and dynamic (ids `c_<id>`)"
    assert side_text(_node(outputs_declared=False), "outputs") == "not declared"
    assert side_text(_node(), "outputs") == "none"
    assert fixed.side("inputs") == "dynamic" and fixed.side("outputs") == "declared"
    any_id = _node(outputs_dynamic=DynamicHandles())
    assert side_text(any_id, "outputs").startswith("dynamic (computed from")
    # Variants sharing a type: the union of patterns, any id when one gives none.
    assert handles_entry([fixed, fixed])["dynamic"] == {"inputs": ["c_*"]}
    assert handles_entry([fixed, any_id])["dynamic"] == {"inputs": ["c_*"], "outputs": []}


FIELD_DESCRIPTORS_TS = """\
export interface ChainData {
  /** The model. */
  model: string;
}
export const NODE_DEFINITIONS = [
  { type: "chain", label: "Chain", inputs: [{ label: "Model", name: "model", type: "string" }],
    outputs: [{ label: "Chain", name: "chain" }], defaultData: { model: "" } as ChainData },
];
"""


def test_a_side_nothing_in_reads_as_a_handle_is_not_declared(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Flowise-shaped: `inputs` are field descriptors, `outputs` carry no ids."""
    root = generated(tmp_path / "app", monkeypatch, FIELD_DESCRIPTORS_TS)
    skill = (root / "skills" / "nodes" / "chain.md").read_text()
    assert "**Inputs (target handles):** not declared" in skill
    assert "**Outputs (source handles):** not declared" in skill
    doc = {"nodes": [node("a", "chain", model="x"), node("b", "chain", model="y")],
           "edges": [edge(0, "a", "a-output-chain-Chain", "b", "b-input-model-string")]}
    code, report = validate(root, doc, monkeypatch)
    assert code == 0 and [f["level"] for f in report["findings"]] == ["info", "info"]
