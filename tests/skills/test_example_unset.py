"""Worked examples under `unset_values`: a required field the example would leave at a value
the editor treats as not set gets a placeholder it counts as set, so the example validates."""

from __future__ import annotations

from pygen.conventions import Conventions
from pygen.model import DataField, DataType, Location, NodeDef, TypeRef
from pygen.skills.example_data import example_data, unset_to_fill


def node() -> NodeDef:
    fields = (DataField(name="collection", type_text="string", type=TypeRef(kind="string")),
              DataField(name="note", type_text="string", type=TypeRef(kind="string"),
                        optional=True),
              DataField(name="count", type_text="number", type=TypeRef(kind="number")))
    return NodeDef(type="store", label="Store", source=Location(file="nodes.ts", line=1),
                   default_data={"note": ""},
                   data_type=DataType(name="StoreData", via="field-list", fields=fields))


def test_required_fields_get_set_placeholders_and_optional_ones_stay() -> None:
    data, notes = example_data(node(), unset=("", None))
    assert data == {"note": "", "collection": "value", "count": 0}
    assert "collection" in notes.filled
    # No unset values declared: the zero value is a value.
    assert example_data(node())[0] == {"note": "", "collection": "", "count": 0}


def test_a_zero_the_editor_treats_as_unset_is_replaced_too() -> None:
    data, _ = example_data(node(), unset=("", 0))
    assert data["count"] == 1


def test_where_the_default_data_is_valid_its_unset_values_stay() -> None:
    assert unset_to_fill(Conventions(unset_values=['""'])) == ("",)
    assert unset_to_fill(Conventions(unset_values=['""'], default_data_valid=True)) == ()
