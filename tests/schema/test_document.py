"""schema.document: the schema document, with a schema of its own for every variant."""

from __future__ import annotations

import json
from typing import Any

import pytest
from corpus_models import expected_model
from jsonschema import Draft202012Validator

from pygen.model import DataField, DataType, Location, Model, NodeDef, TypeRef
from pygen.schema.document import def_ref, ref_name, schema_document
from pygen.schema.node_schema import node_data_schema

TOOLS = expected_model("variant-catalog")
SEARCH = {"toolType": "search", "engine": "bing", "maxResults": 5}
CALCULATOR = {"toolType": "calculator", "precision": 4}


def document(model: Model = TOOLS) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(schema_document(model))
    return doc


def valid_as(doc: dict[str, Any], name: str, data: object) -> bool:
    """Validated as a tool reading the file would: `$ref`s resolved inside the document."""
    return Draft202012Validator({**doc, "$ref": def_ref(name)}).is_valid(data)


def test_each_variant_has_its_own_schema_and_handles() -> None:
    doc = document()
    assert list(doc["$defs"]) == ["agent", "tool", "tool.search", "tool.calculator"]
    search, calculator = doc["$defs"]["tool.search"], doc["$defs"]["tool.calculator"]
    assert search["properties"]["toolType"] == {"const": "search", "default": "search"}
    assert set(search["properties"]) == {"toolType", "engine", "maxResults"}
    assert set(calculator["properties"]) == {"toolType", "precision"}
    assert doc["x-handles"]["tool.search"]["inputs"] == ["query"]
    assert doc["x-handles"]["tool.calculator"]["inputs"] == []
    # The type itself accepts what any of its variants accepts.
    assert doc["x-handles"]["tool"]["inputs"] == ["query"]


def test_the_type_is_the_choice_among_its_variants() -> None:
    doc = document()
    tool = doc["$defs"]["tool"]
    assert tool["oneOf"] == [{"$ref": "#/$defs/tool.search"}, {"$ref": "#/$defs/tool.calculator"}]
    assert tool["x-variants"] == {"field": "toolType", "values": {
        "search": "tool.search", "calculator": "tool.calculator"}}
    assert valid_as(doc, "tool", SEARCH) and valid_as(doc, "tool", CALCULATOR)
    assert not valid_as(doc, "tool", {**SEARCH, "toolType": "calculator"})
    assert not valid_as(doc, "tool.search", CALCULATOR)
    assert not valid_as(doc, "tool", {"engine": "bing", "maxResults": 5})


@pytest.mark.parametrize("name", ["tool.search", "a/b~c d", "x%y"])
def test_refs_name_their_entry(name: str) -> None:
    assert ref_name(def_ref(name)) == name


def _variant(value: Any, fields: tuple[DataField, ...], default: dict[str, Any],
             via: str = "name") -> NodeDef:
    return NodeDef(type="tool", label=str(value), source=Location(file="n.ts", line=1),
                   variant=str(value), variant_field="kind", default_data=default,
                   data_type=DataType(name="ToolData", via=via,  # type: ignore[arg-type]
                                      fields=fields))


def _field(name: str, kind: str) -> DataField:
    return DataField(name=name, type_text=kind, type=TypeRef(kind=kind))


def test_the_variant_field_is_pinned_only_where_the_data_carries_it() -> None:
    # A number stays a number (the extractor names the variant "2").
    numbered = node_data_schema(_variant(2, (_field("kind", "number"),), {"kind": 2}))
    assert numbered["properties"]["kind"] == {"const": 2, "default": 2}
    # Neither declared nor in the default data: the data cannot name the variant.
    silent = node_data_schema(_variant("a", (_field("x", "string"),), {"x": ""}))
    assert "kind" not in silent["properties"]
    # No data type at all: still any object, but the field is held to its value.
    untyped = node_data_schema(_variant("a", (), {"kind": "a"}, via="none"))
    assert untyped["properties"] == {"kind": {"const": "a"}}
    assert untyped["additionalProperties"] is True


def test_variants_the_data_cannot_tell_apart_are_any_of() -> None:
    nodes = (_variant("a", (_field("x", "string"),), {}), _variant("b", (_field("x", "string"),),
                                                                    {}))
    tool = document(Model(nodes=nodes))["$defs"]["tool"]
    assert "anyOf" in tool and "oneOf" not in tool
