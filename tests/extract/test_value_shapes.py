"""`assignmentCollection` and `filter` values get the shapes n8n-workflow's interfaces give
them (pygen.extract.value_shapes): wrong shapes are caught, the shapes n8n saves pass."""

from __future__ import annotations

from typing import Any

from pygen.config import FieldList
from pygen.extract import fieldlist
from pygen.model import Location, Model, NodeDef
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_node_data

DESCRIPTORS = [{"name": "assignments", "displayName": "Fields", "type": "assignmentCollection",
                "default": {}},
               {"name": "conditions", "displayName": "Conditions", "type": "filter",
                "default": {}}]
N8N = FieldList(entry_field="properties", preset="n8n")
SET = {"assignments": [{"id": "a1", "name": "total", "value": "={{ $json.n }}",
                        "type": "number"}]}
FILTER = {"options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict",
                      "version": 2},
          "conditions": [{"id": "c1", "leftValue": "={{ $json.n }}", "rightValue": 3,
                          "operator": {"type": "number", "operation": "gt",
                                       "name": "filter.operator.gt"}}],
          "combinator": "and"}


def problems(data: dict[str, Any], preset: FieldList = N8N) -> list[tuple[str, str, str]]:
    data_type, unread = fieldlist.data_type(DESCRIPTORS, preset)
    assert unread == []
    catalog = build_catalog(Model(nodes=(NodeDef(
        type="pkg.set", label="Set", inputs_declared=False, outputs_declared=False,
        source=Location(file="x.ts", line=1), data_type=data_type),)))
    return [(f.level, f.rule, f.path) for f in validate_node_data("pkg.set", data, catalog)]


def test_the_shapes_n8n_saves_pass() -> None:
    assert problems({"assignments": SET, "conditions": FILTER}) == []


def test_assignments_not_a_list_is_a_type_error() -> None:
    assert ("error", "type", "$.assignments.assignments") in problems(
        {"assignments": {"assignments": {"name": "x", "value": 1}}})


def test_an_assignment_without_a_name_is_caught() -> None:
    found = problems({"assignments": {"assignments": [{"id": "a", "value": 1}]}})
    assert [f[2] for f in found if f[0] == "error"] == ["$.assignments.assignments[0].name"]


def test_a_wrong_operator_type_and_combinator_are_enum_errors() -> None:
    bad = {**FILTER, "combinator": "xor", "conditions": [
        {**FILTER["conditions"][0], "operator": {"type": "text", "operation": "equals"}}]}
    found = {(f[1], f[2]) for f in problems({"conditions": bad}) if f[0] == "error"}
    assert found == {("enum", "$.conditions.combinator"),
                     ("enum", "$.conditions.conditions[0].operator.type")}


def test_a_condition_without_an_operator_is_caught() -> None:
    found = problems({"conditions": {"conditions": [{"leftValue": 1, "rightValue": 2}]}})
    assert [f[2] for f in found if f[0] == "error"] == ["$.conditions.conditions[0].operator"]


def test_another_dialect_leaves_the_words_open() -> None:
    generic = FieldList(entry_field="properties", preset=None, label="displayName")
    assert problems({"assignments": 5, "conditions": "x"}, generic) == []
