"""Values as the editor reads them: unset values and numbers saved as strings (conventions
`unset_values`, `numeric_strings`), on a hand-written catalog imitating a Flowise chat model."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from pygen.conventions import Conventions
from pygen.schema.document import CONVENTIONS_KEY
from pygen.validation.catalog import Catalog, NodeSpec
from pygen.validation.empty import editor_view
from pygen.validation.workflow import validate_node_data

# A chat model whose number inputs are saved as typed text, and whose untouched inputs are "".
CHAT: dict[str, Any] = {"type": "object", "properties": {
    "modelName": {"type": "string"}, "topP": {"type": "number"},
    "streaming": {"type": "boolean"}, "mode": {"enum": ["fast", "slow"]},
    "note": {"type": ["string", "number"]}}, "required": ["modelName"]}


def catalog(conventions: dict[str, Any]) -> Catalog:
    handles = {"inputs": [], "outputs": []}
    return Catalog([NodeSpec("chat", CHAT, (), (), handles)], {CONVENTIONS_KEY: conventions})


FLOWISE = {"unset_values": ['""', "null"], "numeric_strings": True}


def rules(found: list[Any]) -> list[tuple[str, str, str]]:
    return [(f.level, f.rule, f.path) for f in found]


def test_untouched_inputs_and_numeric_strings_are_what_the_editor_reads() -> None:
    data = {"modelName": "gpt", "topP": "0.9", "streaming": "", "mode": "", "note": "7"}
    assert validate_node_data("chat", data, catalog(FLOWISE)) == []
    # Without the conventions each is a type or enum error.
    assert {r for _, r, _ in rules(validate_node_data("chat", data, catalog({})))} == {
        "type", "enum"}


def test_a_string_that_is_no_number_is_still_a_type_error() -> None:
    for text in ("warm", "0x10", "1e", " "):
        found = validate_node_data("chat", {"modelName": "m", "topP": text}, catalog(FLOWISE))
        assert rules(found) == [("error", "type", "$.topP")], text


def test_a_required_input_left_unset_is_required_by_the_editors_own_rule() -> None:
    found = validate_node_data("chat", {"modelName": ""}, catalog(FLOWISE))
    assert rules(found) == [("error", "required", "$.modelName")]
    assert found[0].message.startswith('required but not set: "" is a value the editor '
                                       'treats as not set ("", null)')


def test_the_view_reads_numbers_only_where_the_field_is_typed_number_only() -> None:
    view = editor_view({"topP": "1", "note": "2", "modelName": "3", "x": None,
                        "nested": [{"k": ""}]}, CHAT, Conventions(**FLOWISE), "$")
    assert view.data == {"topP": 1, "note": "2", "modelName": "3", "nested": [{}]}
    assert view.unset == {"$.x": None, "$.nested[0].k": ""}


def test_unset_values_are_json_texts() -> None:
    assert Conventions(unset_values=['""', "null", "0"]).unset == ("", None, 0)
    with pytest.raises(ValidationError, match="is not JSON text"):
        Conventions(unset_values=["empty"])
