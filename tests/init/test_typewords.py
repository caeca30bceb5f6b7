"""The type words init proposes for a field list: the words the map left unknown, placed by
their names; a word nothing places is not guessed."""

from __future__ import annotations

import tomllib

from pygen.config import FieldList, Settings
from pygen.extract import fieldlist
from pygen.init import configfile, typewords
from pygen.model import Location, NodeDef


def test_words_are_placed_by_their_names() -> None:
    assert [typewords.place(w) for w in ("longText", "multi_select", "singleSelect",
                                         "boolean-toggle", "cronExpression", "keyValue",
                                         "credentialsRef")] == [
        "string", "enum_list", "enum", "boolean", "string", "object", None]


def _node(descriptors: list[dict[str, str]]) -> NodeDef:
    config = FieldList(entry_field="fields", name="key", preset="n8n")
    data_type, _ = fieldlist.data_type(descriptors, config)
    return NodeDef(type="x", label="X", source=Location(file="nodes.ts", line=1),
                   data_type=data_type)


def test_init_proposes_only_the_unknown_words_it_can_place() -> None:
    node = _node([{"key": "a", "type": "string"}, {"key": "b", "type": "longText"},
                  {"key": "c", "type": "credentialsRef"}, {"key": "d", "type": "radio"}])
    # `string` is the preset's own word; `credentialsRef` says nothing pygen can map.
    assert typewords.unknown_words([node]) == ["longText", "credentialsRef", "radio"]
    assert typewords.propose([node]) == {"longText": "string", "radio": "enum"}


def test_the_proposal_is_written_as_a_toml_inline_table() -> None:
    line = f"type_words = {configfile.toml({'longText': 'string', 'radio': 'enum'})}"
    assert tomllib.loads(line) == {"type_words": {"longText": "string", "radio": "enum"}}


def test_init_writes_no_convention_the_field_list_preset_brings() -> None:
    flowise = {"nodes_file": "x.ts", "field_list": {"entry_field": "inputs", "preset": "flowise"}}
    assert "[conventions]" not in configfile.tables(Settings.model_validate(flowise))
    # One declared against the preset is written, so reading the config gives it back.
    declared = {**flowise, "conventions": {"numeric_strings": False}}
    own = configfile.tables(Settings.model_validate(declared))
    assert own[-2:] == ["[conventions]", "numeric_strings = false"]
