"""Schema errors that rest on values known only at run time, and union errors reported by the
branch meant: hand-written field lists in the shape n8n's Notion and Code nodes take (a hidden
`type` whose default is an expression picks which value field shows; a choice whose list no
longer offers a value its siblings' conditions still show fields for)."""

from __future__ import annotations

from typing import Any

from pygen.config import FieldList
from pygen.conventions import Conventions
from pygen.extract import fieldlist
from pygen.model import DataType, Location, Model, NodeDef
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_data

N8N = FieldList(entry_field="properties", preset="n8n")
CONV = Conventions(node_data_key="parameters", position_pair=True,
                   connections_key="connections", connection_node_key="name",
                   editor_fills_defaults=True, expression_prefix="=")


def _values(note: str) -> list[dict[str, Any]]:
    return [
        {"displayName": "Key", "name": "key", "type": "options", "default": "",
         "typeOptions": {"loadOptionsMethod": "getProperties"}, "description": note},
        {"displayName": "Type", "name": "type", "type": "hidden",
         "default": '={{$parameter["&key"].split("|")[1]}}'},
        {"displayName": "Select", "name": "selectValue", "type": "string", "default": "",
         "displayOptions": {"show": {"type": ["select"]}}},
        {"displayName": "Number", "name": "numberValue", "type": "number", "default": 0,
         "displayOptions": {"show": {"type": ["number"]}}},
    ]


PROPERTIES = [
    {"displayName": "Operation", "name": "operation", "type": "options", "default": "create",
     "options": [{"name": "Create", "value": "create"}, {"name": "Update", "value": "update"}]},
    *({"displayName": "Properties", "name": "propertiesUi", "type": "fixedCollection",
       "typeOptions": {"multipleValues": True}, "default": {},
       "displayOptions": {"show": {"operation": [operation]}},
       "options": [{"name": "propertyValues", "displayName": "Property",
                    "values": _values(f"Key to {operation}")}]}
      for operation in ("create", "update")),
    {"displayName": "Language", "name": "language", "type": "options", "default": "javaScript",
     "options": [{"name": "JavaScript", "value": "javaScript"},
                 {"name": "Python", "value": "pythonNative"}]},
    {"displayName": "Python", "name": "pythonCode", "type": "string", "default": "",
     "displayOptions": {"show": {"language": ["python", "pythonNative"]}}},
]


def _catalog() -> Any:
    data_type, problems = fieldlist.data_type(PROPERTIES, N8N)
    assert problems == []
    node = NodeDef(type="page", label="Page", source=Location(file="page.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="PageData", via="field-list",
                                      fields=data_type.fields))
    return build_catalog(Model(nodes=(node,), conventions=CONV))


def found(data: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [(f.level, f.rule, f.path, f.message)
            for f in validate_data("page", data, _catalog(), "$")]


def test_the_union_is_built_so_both_branches_are_tried() -> None:
    schema = _catalog().validator("page").schema
    assert len(schema["properties"]["propertiesUi"]["anyOf"]) == 2


def test_a_field_shown_by_a_condition_on_an_expression_default_is_not_hidden() -> None:
    # `type` is left out: its default, an expression, is known only when the node runs.
    data = {"operation": "update", "propertiesUi": {"propertyValues": [
        {"key": "Status|select", "selectValue": "Done"}]}}
    assert found(data) == []


def test_a_set_condition_field_still_decides() -> None:
    data = {"operation": "update", "propertiesUi": {"propertyValues": [
        {"key": "Status|select", "type": "number", "selectValue": "Done"}]}}
    assert [f[:3] for f in found(data)] == [
        ("warning", "hidden", "$.propertiesUi.propertyValues[0].selectValue")]


def test_when_every_branch_fails_the_one_with_fewest_findings_says_what_is_wrong() -> None:
    data = {"operation": "update", "propertiesUi": {"propertyValues": [
        {"key": "Amount|number", "numberValue": "many"}]}}
    assert found(data) == [("error", "type", "$.propertiesUi.propertyValues[0].numberValue",
                            'expected number, got string "many"')]


def test_a_value_the_conditions_still_handle_is_a_warning_with_the_current_option() -> None:
    (finding,) = validate_data("page", {"language": "python", "pythonCode": "x"}, _catalog(),
                               "$")
    assert (finding.level, finding.rule, finding.message) == (
        "warning", "enum", '"python" is a legacy value the node still handles; its options '
                           'now are "javaScript", "pythonNative"')
    assert finding.fix is not None and finding.fix.value == "pythonNative"


def test_a_value_nothing_handles_is_still_an_error_naming_the_nearest() -> None:
    (finding,) = validate_data("page", {"language": "javascript"}, _catalog(), "$")
    assert (finding.level, finding.rule, finding.suggestion) == ("error", "enum", "javaScript")


def test_a_mistyped_option_of_a_field_listed_once_per_condition_is_an_enum_error() -> None:
    properties = [
        {"displayName": "Resource", "name": "resource", "type": "options", "default": "message",
         "options": [{"name": "Message", "value": "message"}, {"name": "User", "value": "user"}]},
        {"displayName": "Operation", "name": "operation", "type": "options", "default": "post",
         "displayOptions": {"show": {"resource": ["message"]}},
         "options": [{"name": "Post", "value": "post"}, {"name": "Delete", "value": "delete"}]},
        {"displayName": "Operation", "name": "operation", "type": "options", "default": "info",
         "displayOptions": {"show": {"resource": ["user"]}},
         "options": [{"name": "Info", "value": "info"}]},
    ]
    data_type, _ = fieldlist.data_type(properties, N8N)
    node = NodeDef(type="chat", label="Chat", source=Location(file="chat.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="ChatData", via="field-list", fields=data_type.fields))
    catalog = build_catalog(Model(nodes=(node,), conventions=CONV))
    (finding,) = validate_data("chat", {"resource": "message", "operation": "pots"}, catalog, "$")
    assert (finding.level, finding.rule, finding.suggestion) == ("error", "enum", "post")
    assert finding.message == '"pots" is not one of "post", "delete", "info"'
    assert finding.fix is not None and finding.fix.value == "post"


def test_a_rule_resting_on_a_run_time_value_is_a_note_not_a_finding() -> None:
    properties = [
        {"displayName": "Kind", "name": "kind", "type": "hidden",
         "default": "={{ $parameter.key }}"},
        {"displayName": "Text", "name": "text", "type": "string", "default": "",
         "displayOptions": {"show": {"kind": ["text"]}}},
    ]
    data_type, _ = fieldlist.data_type(properties, N8N)
    node = NodeDef(type="note", label="Note", source=Location(file="note.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="NoteData", via="field-list", fields=data_type.fields))
    catalog = build_catalog(Model(nodes=(node,), conventions=CONV))
    assert [(f.level, f.rule, f.path) for f in validate_data("note", {"text": "hi"}, catalog,
                                                             "$")] == [
        ("info", "hidden", "$.text")]
