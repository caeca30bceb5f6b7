"""Values as the editor reads them: unset values, numbers saved as strings, and data equal to
the editor's own default data (conventions `unset_values`, `numeric_strings`,
`default_data_valid`), on a hand-written catalog imitating each editor's shape."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from pygen.config import Settings
from pygen.conventions import Conventions
from pygen.schema.document import CONVENTIONS_KEY, DEFAULTS_KEY
from pygen.validation.catalog import Catalog, NodeSpec
from pygen.validation.profiles import apply_profile
from pygen.validation.unset import editor_view
from pygen.validation.workflow import validate_node_data

# A chat model whose number inputs are saved as typed text, and whose untouched inputs are "".
CHAT: dict[str, Any] = {"type": "object", "properties": {
    "modelName": {"type": "string"}, "topP": {"type": "number"},
    "streaming": {"type": "boolean"}, "mode": {"enum": ["fast", "slow"]},
    "note": {"type": ["string", "number"]}}, "required": ["modelName"]}
# An upload node whose type marks bookkeeping fields required that its default data leaves out.
UPLOAD: dict[str, Any] = {"type": "object", "properties": {
    "label": {"type": "string"}, "assetId": {"type": "string"}, "r2Url": {"type": "string"},
    "provider": {"enum": ["a", "b"]}}, "required": ["label", "assetId", "r2Url", "provider"]}
UPLOAD_DEFAULTS = {"label": "Upload", "assetId": "", "provider": "legacy"}


def catalog(conventions: dict[str, Any]) -> Catalog:
    handles = {"inputs": [], "outputs": []}
    return Catalog([NodeSpec("chat", CHAT, (), (), handles),
                    NodeSpec("upload", UPLOAD, (), (), handles)],
                   {CONVENTIONS_KEY: conventions, DEFAULTS_KEY: {"upload": UPLOAD_DEFAULTS}})


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


def test_data_as_the_editor_creates_it_is_valid() -> None:
    conv = {"unset_values": ['""'], "default_data_valid": True}
    # assetId: unset in the default data and left out; provider: the default's own value.
    found = validate_node_data("upload", {"label": "Shot 1", "provider": "legacy"},
                               catalog(conv))
    assert rules(found) == [("info", "required", "$.r2Url")]
    assert "its default data leaves it out" in found[0].message
    # strict wants every field of the type written.
    assert rules(apply_profile(found, "strict")) == [("error", "required", "$.r2Url")]


def test_a_value_other_than_the_defaults_is_still_judged() -> None:
    conv = {"unset_values": ['""'], "default_data_valid": True}
    found = validate_node_data("upload", {"label": "x", "r2Url": "u", "provider": "legacy2"},
                               catalog(conv))
    assert rules(found) == [("error", "enum", "$.provider")]
    # Without the convention the default data answers for nothing.
    assert ("error", "required", "$.r2Url") in rules(
        validate_node_data("upload", {"label": "x"}, catalog({"unset_values": ['""']})))


def test_unset_values_are_json_texts() -> None:
    assert Conventions(unset_values=['""', "null", "0"]).unset == ("", None, 0)
    with pytest.raises(ValidationError, match="is not JSON text"):
        Conventions(unset_values=["empty"])


def test_a_field_list_preset_brings_its_editors_conventions_under_declared_ones() -> None:
    base = {"nodes_file": "x.ts", "field_list": {"entry_field": "inputs", "preset": "flowise"}}
    brought = Settings.model_validate(base).conventions
    assert (brought.unset, brought.numeric_strings) == (("", None), True)
    own = Settings.model_validate({**base, "conventions": {"numeric_strings": False}})
    assert own.conventions.numeric_strings is False and own.conventions.unset == ("", None)
    n8n = {**base, "field_list": {"entry_field": "properties", "preset": "n8n"}}
    assert Settings.model_validate(n8n).conventions == Conventions()
