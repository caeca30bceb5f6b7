"""Rule `output-index` (a connection from an output a node does not have) with convention
`error_output`, and the n8n shapes a catalog gets from its load step: parameters added on
load and `…Tool` variants, end to end through `pygen validate-workflow` on a hand-written
workflow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pygen.config import FieldList
from pygen.conventions import Conventions
from pygen.extract import fieldlist
from pygen.extract.load_added import with_load_added
from pygen.extract.tool_variants import derived
from pygen.model import DataType, Handle, Location, Model, NodeDef
from pygen.schema.document import schema_document
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_workflow

FIXTURE = Path(__file__).parent.parent / "fixtures" / "n8n-shapes" / "workflow.json"
CONV = Conventions(node_data_key="parameters", node_version_key="typeVersion",
                   position_pair=True, connections_key="connections",
                   connection_node_key="name", expression_prefix="=",
                   editor_fills_defaults=True,
                   error_output={"onError": "continueErrorOutput"})
LIST = FieldList(entry_field="properties", preset="n8n")


def node_def(node_type: str, descriptors: list[Any], inputs: tuple[str, ...],
             outputs: tuple[str, ...]) -> NodeDef:
    data_type, problems = fieldlist.data_type(descriptors, LIST, None)
    assert problems == []

    def handles(kinds: tuple[str, ...]) -> tuple[Handle, ...]:
        return tuple(Handle(id=k if kinds.index(k) == i else f"{k}[{i}]", type=k)
                     for i, k in enumerate(kinds))
    return NodeDef(type=node_type, label=node_type, inputs=handles(inputs),
                   outputs=handles(outputs), default_data_declared=False,
                   source=Location(file="x.ts", line=1), data_type=data_type)


THING = [{"name": "resource", "displayName": "Resource", "type": "options",
          "default": "message", "options": [{"name": "Message", "value": "message"}]},
         {"name": "text", "displayName": "Text", "type": "string", "default": ""}]


SET = [{"name": "assignments", "displayName": "Fields", "type": "assignmentCollection",
        "default": {}},
       {"name": "conditions", "displayName": "Conditions", "type": "filter", "default": {}}]


def model() -> Model:
    trigger = with_load_added([{"name": "folder", "displayName": "Folder", "type": "string",
                                "default": ""}], {"polling": True}, "n8n")
    tool = derived("n8n-nodes-base.thing", "Thing", THING,
                   {"usable_as_tool": True, "execute": True, "description": "Posts"}, "n8n")
    assert tool is not None
    return Model(nodes=(
        node_def("n8n-nodes-base.thingTrigger", trigger, (), ("main",)),
        node_def("n8n-nodes-base.thing", THING, ("main",), ("main",)),
        node_def("n8n-nodes-base.if", [], ("main",), ("main", "main")),
        node_def(tool[0], tool[2], tuple(tool[3]["inputs"]), tuple(tool[3]["outputs"])),
        node_def("n8n-nodes-base.set", SET, ("main",), ("main",)),
        NodeDef(type="n8n-nodes-base.switch", label="Switch", outputs_declared=False,
                source=Location(file="x.ts", line=1), data_type=DataType()),
    ), conventions=CONV)


def saved(name: str, node_type: str = "n8n-nodes-base.thing", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": node_type, "typeVersion": 1, "position": [0, 0],
            "parameters": {}, **extra}


def link(index: int, target: str = "B") -> list[list[dict[str, Any]]]:
    return [[] for _ in range(index)] + [[{"node": target, "type": "main", "index": 0}]]


def errors(nodes: list[dict[str, Any]], connections: dict[str, Any]) -> list[tuple[str, str]]:
    found = validate_workflow({"nodes": nodes, "connections": connections},
                              build_catalog(model()))
    return [(f.rule, f.path) for f in found if f.level == "error"]


def test_a_connection_from_an_output_the_node_lacks_is_an_error() -> None:
    found = validate_workflow({"nodes": [saved("A"), saved("B")],
                               "connections": {"A": {"main": link(1)}}}, build_catalog(model()))
    beyond = [f for f in found if f.level == "error"]
    assert [(f.rule, f.path) for f in beyond] == [("output-index", "$.connections.A.main[1]")]
    assert beyond[0].message == (
        'node "A" (n8n-nodes-base.thing) has 1 "main" output (0 to 0); no connection can '
        'leave output 1; an error output needs the node\'s onError "continueErrorOutput"')


def test_the_error_output_is_one_more_output() -> None:
    a = saved("A", onError="continueErrorOutput")
    assert errors([a, saved("B")], {"A": {"main": link(1)}}) == []
    assert errors([a, saved("B")], {"A": {"main": link(2)}}) == [
        ("output-index", "$.connections.A.main[2]")]


def test_without_the_convention_no_error_output_is_counted() -> None:
    catalog = build_catalog(model().model_copy(update={
        "conventions": CONV.model_copy(update={"error_output": None})}))
    found = validate_workflow({"nodes": [saved("A", onError="continueErrorOutput"),
                                         saved("B")],
                               "connections": {"A": {"main": link(1)}}}, catalog)
    assert [f.rule for f in found if f.level == "error"] == ["output-index"]


def test_each_output_of_a_node_with_several_and_empty_lists_pass() -> None:
    nodes = [saved("A", "n8n-nodes-base.if"), saved("B")]
    assert errors(nodes, {"A": {"main": link(1)}}) == []
    assert errors(nodes, {"A": {"main": [[], [], []]}}) == []
    assert errors(nodes, {"A": {"main": link(2)}}) == [
        ("output-index", "$.connections.A.main[2]")]


def test_a_kind_the_node_has_no_output_of_is_an_error() -> None:
    assert errors([saved("A"), saved("B")], {"A": {"ai_tool": [[{"node": "B"}]]}}) == [
        ("output-index", "$.connections.A.ai_tool[0]")]


def test_outputs_the_catalog_does_not_declare_are_not_judged() -> None:
    nodes = [saved("A", "n8n-nodes-base.switch"), saved("B")]
    assert errors(nodes, {"A": {"main": link(5)}}) == []


def test_the_shapes_end_to_end_through_validate_workflow(tmp_path: Path) -> None:
    schemas = tmp_path / "nodes.schema.json"
    schemas.write_text(schema_document(model()), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pygen", "validate-workflow", "--json",
                           "--schemas", str(schemas), str(FIXTURE)],
                          capture_output=True, text=True, check=False)
    found = json.loads(done.stdout)["findings"]
    # The poll times n8n adds, the tool variant's own fields, the assignments and filter
    # values and the error output all pass;
    # the one connection from an output "Failed" lacks does not.
    assert [(f["level"], f["rule"], f["path"]) for f in found if f["level"] != "info"] == [
        ("error", "output-index", "$.connections.Failed.main[1]")]
    assert done.returncode == 1


def test_a_wrong_shape_in_the_added_parameters_is_caught(tmp_path: Path) -> None:
    workflow = json.loads(FIXTURE.read_text(encoding="utf-8"))
    workflow["nodes"][0]["parameters"]["pollTimes"] = {"item": [{"mode": "sometimes"}]}
    workflow["nodes"][3]["parameters"]["descriptionType"] = "magic"
    workflow["nodes"][4]["parameters"]["conditions"]["combinator"] = "xor"
    found = validate_workflow(workflow, build_catalog(model()))
    assert {(f.rule, f.path) for f in found if f.level == "error"} >= {
        ("enum", "$.nodes[0].parameters.pollTimes.item[0].mode"),
        ("enum", "$.nodes[3].parameters.descriptionType"),
        ("enum", "$.nodes[4].parameters.conditions.combinator")}
