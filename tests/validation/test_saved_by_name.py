"""Saved workflows shaped like n8n exports: connections name nodes by `name`, older exports
carry no node `id`, and a typed field may hold an expression the editor evaluates at run time
(hand-written here in the shapes real exports take)."""

from __future__ import annotations

from typing import Any

from pygen.conventions import Conventions
from pygen.model import DataField, DataType, Location, Model, NodeDef, TypeRef
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_workflow

NAMED = Conventions(node_data_key="parameters", node_version_key=None, position_pair=True,
                    connections_key="connections", connection_node_key="name",
                    expression_prefix="=")
WAIT = NodeDef(type="pkg.wait", label="Wait", inputs_declared=False, outputs_declared=False,
               source=Location(file="wait.ts", line=1),
               data_type=DataType(name="WaitData", via="name", fields=(
                   DataField(name="amount", type_text="number", type=TypeRef(kind="number")),
                   DataField(name="unit", type_text='"seconds" | "minutes"', type=TypeRef(
                       kind="union", types=(TypeRef(kind="literal", value="seconds"),
                                            TypeRef(kind="literal", value="minutes")))))))


def findings(workflow: dict[str, Any], conv: Conventions = NAMED) -> list[tuple[str, str, str]]:
    catalog = build_catalog(Model(nodes=(WAIT,), conventions=conv))
    # Notes (an edge on a side the catalog does not declare) say what was not checked.
    return [(f.rule, f.path, f.message) for f in validate_workflow(workflow, catalog)
            if f.level != "info"]


def node(name: str, **parameters: Any) -> dict[str, Any]:
    return {"name": name, "type": "pkg.wait", "position": [0, 0],
            "parameters": {"amount": 1, "unit": "seconds", **parameters}}


def link(source: str, target: str) -> dict[str, Any]:
    return {source: {"main": [[{"node": target, "type": "main", "index": 0}]]}}


def test_nodes_without_ids_connect_by_name() -> None:
    workflow = {"nodes": [node("First"), node("Second")], "connections": link("First", "Second")}
    assert findings(workflow) == []


def test_a_duplicate_name_is_an_error_where_connections_are_by_name() -> None:
    workflow = {"nodes": [node("Wait"), node("Wait")], "connections": {}}
    assert findings(workflow) == [
        ("duplicate-id", "$.nodes[1].name",
         'duplicate node name "Wait" (first at $.nodes[0]); node names must be unique')]


def test_a_connection_to_a_missing_name_is_still_an_error() -> None:
    workflow = {"nodes": [node("First")], "connections": link("First", "Gone")}
    assert [f[0] for f in findings(workflow)] == ["edge-node"]


def test_an_expression_stands_in_any_typed_field() -> None:
    workflow = {"nodes": [node("First", amount="={{ $json.count }}", unit="={{ $json.u }}")],
                "connections": {}}
    assert findings(workflow) == []


def test_an_expression_that_does_not_close_is_an_error() -> None:
    workflow = {"nodes": [node("First", amount="={{ $json.count ")], "connections": {}}
    assert findings(workflow) == [
        ("expression", "$.nodes[0].parameters.amount",
         "the expression opens `{{` and never closes it with `}}`")]


def test_without_a_declared_prefix_an_expression_is_a_plain_string() -> None:
    conv = NAMED.model_copy(update={"expression_prefix": None})
    workflow = {"nodes": [node("First", amount="={{ $json.count }}")], "connections": {}}
    assert [f[0] for f in findings(workflow, conv)] == ["type"]
