"""Convention `required_nonempty`: a required field empty once defaults are applied is an
error, as n8n's own `addToIssuesIfMissing` flags it; off, it stays what it was (hand-written
descriptors in n8n's shape)."""

from __future__ import annotations

from typing import Any

from pygen.config import FieldList
from pygen.conventions import Conventions
from pygen.extract import fieldlist
from pygen.model import DataType, Location, Model, NodeDef
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_workflow

N8N = FieldList(entry_field="properties", preset="n8n")
PROPERTIES = [
    {"displayName": "Resource", "name": "resource", "type": "options", "default": "email",
     "options": [{"name": "Email", "value": "email"}, {"name": "Other", "value": "other"}]},
    {"displayName": "To", "name": "toEmail", "type": "string", "default": "", "required": True,
     "displayOptions": {"show": {"resource": ["email"]}}},
    {"displayName": "Subject", "name": "subject", "type": "string", "default": "Hi",
     "required": True},
    {"displayName": "Tags", "name": "tags", "type": "string", "default": [], "required": True,
     "typeOptions": {"multipleValues": True}},
    {"displayName": "Payload", "name": "payload", "type": "json", "default": "",
     "required": True},
]


def found(parameters: dict[str, Any], on: bool = True) -> list[tuple[str, str, str]]:
    data_type, _ = fieldlist.data_type(PROPERTIES, N8N)
    node = NodeDef(type="mail", label="Mail", source=Location(file="mail.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="MailData", via="field-list",
                                      fields=data_type.fields))
    conv = Conventions(node_data_key="parameters", position_pair=True,
                       connections_key="connections", connection_node_key="name",
                       editor_fills_defaults=True, required_nonempty=on)
    catalog = build_catalog(Model(nodes=(node,), conventions=conv))
    workflow = {"nodes": [{"name": "Mail", "type": "mail", "position": [0, 0],
                           "parameters": {"tags": [], **parameters}}], "connections": {}}
    return [(f.level, f.rule, f.path) for f in validate_workflow(workflow, catalog)
            if f.level != "info"]


def test_only_the_type_words_n8n_checks_are_marked() -> None:
    data_type, _ = fieldlist.data_type(PROPERTIES, N8N)
    marked = [f.name for f in data_type.fields if f.tag("nonempty") is not None]
    # A list of strings is checked item by item (an empty list passes); `json` is not checked.
    assert marked == ["toEmail", "subject"]


def test_left_out_with_an_empty_default_is_an_error() -> None:
    assert found({"payload": "{}"}) == [
        ("error", "required-empty", "$.nodes[0].parameters.toEmail")]


def test_an_empty_value_where_the_field_shows_is_an_error() -> None:
    assert found({"toEmail": "a@b.c", "subject": "", "payload": "{}"}) == [
        ("error", "required-empty", "$.nodes[0].parameters.subject")]


def test_an_empty_value_where_the_field_is_hidden_is_not_required() -> None:
    assert found({"resource": "other", "toEmail": "", "payload": "{}"}) == [
        ("warning", "hidden", "$.nodes[0].parameters.toEmail")]


def test_a_default_that_fills_it_and_a_set_value_pass() -> None:
    assert found({"toEmail": "a@b.c", "payload": ""}) == []


def test_off_a_left_out_field_is_the_warning_it_was() -> None:
    assert found({"payload": "{}"}, on=False) == [
        ("warning", "required", "$.nodes[0].parameters.toEmail")]


def test_the_nonempty_fields_are_read_once_per_type_from_the_catalog() -> None:
    data_type, _ = fieldlist.data_type(PROPERTIES, N8N)
    node = NodeDef(type="mail", label="Mail", source=Location(file="mail.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="MailData", via="field-list",
                                      fields=data_type.fields))
    catalog = build_catalog(Model(nodes=(node,), conventions=Conventions(
        required_nonempty=True)))
    first = catalog.nonempty("mail")
    assert first == {"toEmail", "subject"}
    # The same object on every later node of the type: not scanned again.
    assert catalog.nonempty("mail") is first
