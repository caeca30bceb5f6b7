"""Field-list descriptors the editor never shows (`field_list.internal`; Flowise's `hidden:
true`) are never required: nobody can fill them in."""

from __future__ import annotations

from pygen.config import FieldList
from pygen.extract import fieldlist


def test_a_hidden_flowise_input_is_optional() -> None:
    data_type, problems = fieldlist.data_type([
        {"label": "Name", "name": "toolName", "type": "string", "hidden": True},
        {"label": "Code", "name": "code", "type": "string"},
        {"label": "Shown", "name": "shown", "type": "string", "hidden": False},
    ], FieldList(entry_field="inputs", preset="flowise"))
    assert problems == []
    assert [(f.name, f.optional) for f in data_type.fields] == [
        ("toolName", True), ("code", False), ("shown", False)]


def test_the_internal_key_is_config_and_off_in_the_generic_dialect() -> None:
    items = [{"name": "a", "type": "string", "required": True, "internal": True},
             {"name": "b", "type": "string", "required": True, "hidden": True}]
    generic, _ = fieldlist.data_type(items, FieldList(entry_field="f"))
    assert [f.optional for f in generic.fields] == [False, False]
    own, _ = fieldlist.data_type(items, FieldList(entry_field="f", internal="internal"))
    assert [f.optional for f in own.fields] == [True, False]
