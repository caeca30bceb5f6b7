"""validation.metaschema: the fast meta-schema walk vouches only for schemas jsonschema accepts,
and a document it cannot vouch for still gets jsonschema's check and its one-line error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from pygen.model import Model
from pygen.schema.document import schema_document
from pygen.validation.catalog import Catalog, WorkflowInputError
from pygen.validation.metaschema import well_formed

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "workflows"


def written_schemas() -> list[Any]:
    """Every node schema of the documents pygen writes for our example and the fixtures."""
    out: list[Any] = []
    for name in ("studio.model.json", "exotic.model.json"):
        model = Model.model_validate_json((FIXTURES / name).read_text(encoding="utf-8"))
        out.extend(json.loads(schema_document(model))["$defs"].values())
    out.extend(json.loads((ROOT / "skills" / "schemas" / "nodes.schema.json")
                          .read_text(encoding="utf-8"))["$defs"].values())
    return out


def test_schemas_pygen_writes_are_vouched_for() -> None:
    schemas = written_schemas()
    assert schemas
    for schema in schemas:
        assert well_formed(schema)
        Draft202012Validator.check_schema(schema)


BROKEN = [
    {"type": 5},
    {"type": "text"},
    {"type": []},
    {"type": ["string", "string"]},
    {"properties": []},
    {"properties": {"a": 3}},
    {"required": ["a", "a"]},
    {"required": "a"},
    {"enum": "a"},
    {"anyOf": []},
    {"allOf": {"type": "string"}},
    {"minItems": -1},
    {"minItems": 1.5},
    {"multipleOf": 0},
    {"maximum": True},
    {"title": 3},
    {"deprecated": "yes"},
    {"items": 3},
    {"if": {"properties": {"a": {"const": 1}}}, "then": {"required": [1]}},
    {"$ref": 3},
    {"properties": {"a": {"allOf": [{"not": {"type": "nope"}}]}}},
]


@pytest.mark.parametrize("schema", BROKEN)
def test_broken_schemas_are_not_vouched_for(schema: Any) -> None:
    assert not well_formed(schema)
    with pytest.raises(SchemaError):
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("schema", [
    {"patternProperties": {"^a": {"type": "string"}}},  # not modelled: jsonschema decides
    {"x-runner": {"anything": [1, 2]}, "type": "object"},
])
def test_unmodelled_keywords_go_to_jsonschema(schema: Any) -> None:
    doc = {"$defs": {"a": schema}, "x-handles": {"a": {"inputs": [], "outputs": []}}}
    assert Catalog.from_json(json.dumps(doc), "x.json").specs["a"].schema == schema


def test_a_reference_it_does_not_model_is_left_to_jsonschema() -> None:
    schema = {"$ref": "https://example.com/a.json"}
    assert not well_formed(schema)
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("schema", [True, [], "object"])
def test_a_node_schema_that_is_not_an_object_is_refused(schema: Any) -> None:
    doc = {"$defs": {"a": schema}, "x-handles": {"a": {"inputs": [], "outputs": []}}}
    with pytest.raises(WorkflowInputError, match="'a' is malformed"):
        Catalog.from_json(json.dumps(doc), "x.json")


def test_hand_broken_document_is_one_line_naming_the_type() -> None:
    doc = {"$defs": {"ok": {"type": "object"},
                     "bad": {"type": "object", "properties": {"a": {"minLength": "2"}}}},
           "x-handles": {t: {"inputs": [], "outputs": []} for t in ("ok", "bad")}}
    with pytest.raises(WorkflowInputError) as info:
        Catalog.from_json(json.dumps(doc), "nodes.schema.json")
    assert str(info.value) == ("nodes.schema.json: schema of node type 'bad' is malformed "
                               "(SchemaError); regenerate it with `pygen gen`")
