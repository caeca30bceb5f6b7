"""The field-list reader: descriptors of each dialect become the fields the TypeScript path
gives, with their visibility conditions; an unreadable descriptor is one problem."""

from __future__ import annotations

from pygen.config import FieldList
from pygen.extract import fieldlist
from pygen.model import Condition

N8N = FieldList(entry_field="properties", preset="n8n")
FLOWISE = FieldList(entry_field="inputs", preset="flowise")


def test_n8n_descriptors_become_typed_fields_with_conditions() -> None:
    data_type, problems = fieldlist.data_type([
        {"displayName": "Mode", "name": "mode", "type": "options", "default": "a",
         "options": [{"name": "A", "value": "a"}, {"name": "B", "value": "b"}]},
        {"displayName": "Count", "name": "count", "type": "number", "default": 1,
         "required": True,
         "displayOptions": {"show": {"mode": ["b"], "@version": [{"_cnd": {"gte": 2}}]},
                            "hide": {"/parent": [""]}}},
        {"displayName": "Note", "name": "note", "type": "notice", "default": ""},
        {"displayName": "No name", "type": "string"},
    ], N8N)
    assert problems == ["'properties'[3] has no string 'name'"]
    mode, count = data_type.fields
    assert data_type.via == "field-list"
    assert (mode.type_text, mode.optional, mode.default_tag) == ('"a" | "b"', True, '"a"')
    assert (count.type.kind, count.optional, count.description) == ("number", False, "Count")
    # A rule object (`_cnd`) is no plain value: the condition keeps only plain values.
    assert count.shown_when == (Condition(field="mode", values=("b",)),
                                Condition(field="parent", values=("",), hide=True))


def test_n8n_collections_nest_their_fields() -> None:
    data_type, _ = fieldlist.data_type([
        {"displayName": "Options", "name": "options", "type": "collection", "default": {},
         "options": [{"displayName": "Limit", "name": "limit", "type": "number", "default": 5,
                      "required": True}]},
        {"displayName": "Headers", "name": "headers", "type": "fixedCollection",
         "typeOptions": {"multipleValues": True}, "default": {},
         "options": [{"name": "header", "displayName": "Header",
                      "values": [{"displayName": "Name", "name": "name", "type": "string",
                                  "default": ""}]}]},
    ], N8N)
    options, headers = data_type.fields
    assert [(f.name, f.optional) for f in options.type.fields] == [("limit", True)]
    (group,) = headers.type.fields
    assert group.type.kind == "array" and group.type.items is not None
    assert [f.name for f in group.type.items.fields] == ["name"]
    assert fieldlist.count(data_type.fields) == (2, 3)


def test_an_n8n_collection_of_multiple_values_is_a_list_of_objects() -> None:
    data_type, _ = fieldlist.data_type([
        {"displayName": "Labels", "name": "labels", "type": "collection",
         "typeOptions": {"multipleValues": True}, "default": {"label": ""},
         "options": [{"displayName": "Label", "name": "label", "type": "string",
                      "default": ""}]}], N8N)
    (labels,) = data_type.fields
    assert labels.type.kind == "array" and labels.type.items is not None
    assert [f.name for f in labels.type.items.fields] == ["label"]
    assert fieldlist.count(data_type.fields) == (1, 1)


def test_n8n_multiple_plain_values_are_a_list_and_run_time_options_take_ids() -> None:
    # Shapes real exports save: `toList: ["a@x", "b@x"]`, `databaseId: 121` (an id picked
    # from a list n8n loads at run time).
    data_type, _ = fieldlist.data_type([
        {"displayName": "To", "name": "toList", "type": "string", "default": "",
         "typeOptions": {"multipleValues": True}},
        {"displayName": "Database", "name": "databaseId", "type": "options", "default": "",
         "typeOptions": {"loadOptionsMethod": "getDatabases"}},
        {"displayName": "Users", "name": "userIds", "type": "multiOptions", "default": [],
         "typeOptions": {"loadOptionsMethod": "getUsers"}}], N8N)
    to, database, users = data_type.fields
    assert to.type.kind == "array" and to.type.items is not None
    assert to.type.items.kind == "string"
    assert database.type.kind == "union"
    assert [t.kind for t in database.type.types] == ["string", "number"]
    # As the skill reads them: the kinds, not JSON `null` for values no option lists.
    assert (database.type_text, users.type_text) == ("string | number", "(string | number)[]")


def test_flowise_inputs_are_required_unless_optional() -> None:
    data_type, problems = fieldlist.data_type([
        {"label": "Model", "name": "model", "type": "BaseChatModel"},
        {"label": "Temperature", "name": "temperature", "type": "number", "optional": True},
        {"label": "Format", "name": "format", "type": "options", "default": "text",
         "options": [{"label": "Text", "name": "text"}, {"label": "JSON", "name": "json"}],
         "show": {"mode": "advanced"}},
    ], FLOWISE)
    assert problems == []
    model, temperature, fmt = data_type.fields
    assert (model.type_text, model.optional) == ("BaseChatModel", False)
    assert temperature.optional
    assert fmt.type_text == '"text" | "json"'
    assert fmt.shown_when == (Condition(field="mode", values=("advanced",)),)


def test_a_list_that_is_not_a_list_is_one_problem() -> None:
    data_type, problems = fieldlist.data_type({"name": "x"}, N8N)
    assert data_type.fields == () and problems == ["'properties' is not a list of field "
                                                   "descriptors"]


VERSIONED = [
    {"displayName": "Always", "name": "always", "type": "string", "default": ""},
    {"displayName": "Only 1", "name": "one", "type": "string", "default": "",
     "displayOptions": {"show": {"@version": [1]}}},
    {"displayName": "From 2", "name": "later", "type": "string", "default": "",
     "displayOptions": {"show": {"@version": [{"_cnd": {"gte": 2}}], "mode": ["b"]}}},
    {"displayName": "Not 3", "name": "old", "type": "string", "default": "",
     "displayOptions": {"hide": {"@version": [{"_cnd": {"between": {"from": 3, "to": 4}}}]}}},
    {"displayName": "Unread rule", "name": "odd", "type": "string", "default": "",
     "displayOptions": {"show": {"@version": [{"_cnd": {"regex": "^1"}}]}}},
    {"displayName": "Group", "name": "group", "type": "collection", "default": {},
     "options": [{"displayName": "In 1", "name": "inOne", "type": "string", "default": "",
                  "displayOptions": {"show": {"@version": [1]}}}]},
]


def test_n8n_version_conditions_pick_each_versions_fields() -> None:
    """`@version` in displayOptions says which versions have a field (nested ones too); it is
    never a condition on the data. A rule pygen cannot read keeps the field."""
    def names(version: str | None) -> list[str]:
        data_type, problems = fieldlist.data_type(VERSIONED, N8N, version)
        assert problems == []
        group = data_type.fields[-1].type.fields or ()
        return [f.name for f in data_type.fields] + [f"group.{f.name}" for f in group]

    assert names("1") == ["always", "one", "old", "odd", "group", "group.inOne"]
    assert names("2.1") == ["always", "later", "old", "odd", "group"]
    assert names("3") == ["always", "later", "odd", "group"]
    # No version known: every field, none conditioned on `@version`.
    assert names(None) == ["always", "one", "later", "old", "odd", "group", "group.inOne"]
    later = fieldlist.data_type(VERSIONED, N8N, "2")[0].fields[1]
    assert later.shown_when == (Condition(field="mode", values=("b",)),)


def test_a_preset_without_a_version_key_keeps_version_as_a_condition() -> None:
    data_type, _ = fieldlist.data_type(
        [{"label": "X", "name": "x", "type": "string", "show": {"@version": [1]}}], FLOWISE, "2")
    assert [c.field for c in data_type.fields[0].shown_when] == ["@version"]


GENERIC = FieldList(entry_field="fields", name="key", default="defaultValue")


def test_generic_type_words_give_json_types_and_enums() -> None:
    data_type, problems = fieldlist.data_type([
        {"key": "mode", "type": "select", "options": [{"label": "A", "value": "a"}, "b"]},
        {"key": "tags", "type": "multiselect", "options": ["x", "y"]},
        {"key": "body", "type": "json"},
        {"key": "on", "type": "toggle", "defaultValue": True},
        {"key": "rule", "type": "divider"},
        {"key": "cron", "type": "cron"},
    ], GENERIC)
    assert problems == []
    by_name = {f.name: f.type_text for f in data_type.fields}
    # `divider` holds no data; `cron` is a word no map knows: unknown, by its own word.
    assert by_name == {"mode": '"a" | "b"', "tags": '("x" | "y")[]', "body": "object",
                       "on": "boolean", "cron": "cron"}


def test_type_words_in_the_config_override_the_preset() -> None:
    config = GENERIC.model_copy(update={"type_words": {"cron": "string", "json": "string"}})
    data_type, _ = fieldlist.data_type(
        [{"key": "cron", "type": "cron"}, {"key": "body", "type": "json"}], config)
    assert [f.type_text for f in data_type.fields] == ["string", "string"]


def test_n8n_keeps_its_own_words() -> None:
    # `select` is no n8n word: an n8n list reads it as unknown, as before.
    data_type, _ = fieldlist.data_type([{"name": "x", "type": "select"}], N8N)
    assert data_type.fields[0].type.kind == "unknown"


def test_a_record_of_descriptors_is_a_field_list_named_by_its_keys() -> None:
    config = FieldList(entry_field="inputs", type="editorType", default="defaultValue")
    data_type, problems = fieldlist.data_type(
        {"method": {"defaultValue": "GET", "editorType": "select", "options": ["GET", "PUT"]},
         "n": {"editorType": "number"}}, config)
    assert problems == []
    assert [(f.name, f.type_text, f.default_tag) for f in data_type.fields] == [
        ("method", '"GET" | "PUT"', '"GET"'), ("n", "number", None)]
