"""Entry keys told by their values (pygen/init/entries.py): the type key (identifier-like,
one per entry), the label key (short human text), the field-descriptor member of a literal
catalog and the keys its descriptors spell otherwise."""

from __future__ import annotations

from pathlib import Path

from pygen.init import entries, scan

KEYED = """
export const TABLE = {
  "make-tea": { ref: "make-tea", caption: "Make some tea", type: "action", icon: "Cup",
                inputs: [{ name: "in", type: "flow" }], outputs: [] },
  "ring-bell": { ref: "ring-bell", caption: "Ring the bell", type: "action", icon: "Bell",
                 inputs: [{ name: "in", type: "flow" }], outputs: [] },
  "on-timer": { ref: "on-timer", caption: "When the timer fires", type: "trigger", icon: "Clock",
                inputs: [], outputs: [{ name: "out", type: "flow" }] },
};
"""

ARRAY = """
export const PARTS = [
  { typeName: "adder", title: "Add two numbers", inputs: 2, outputs: 1 },
  { typeName: "negate", title: "Negate a number", inputs: 1, outputs: 1 },
  { typeName: "print", title: "Print the value", inputs: 1, outputs: 0 },
];
"""

DESCRIBED = """
export const DEFS = [
  { type: "fetch", label: "Fetch", defaultData: {}, inputs: [{ name: "in", type: "any" }],
    form: [{ key: "url", label: "URL", type: "text", defaultValue: "https://" },
           { key: "verb", label: "Verb", type: "select", options: ["GET", "POST"] }] },
  { type: "wait", label: "Wait", defaultData: {}, form: [] },
  { type: "log", label: "Log", defaultData: {},
    form: [{ key: "level", label: "Level", type: "select", defaultValue: "info" }] },
];
"""


def candidate(text: str) -> scan.Candidate:
    (found,) = scan.scan_text(text, Path("catalog.ts"))
    return found


def test_a_type_key_holding_a_category_gives_way_to_the_key_naming_each_entry() -> None:
    found = candidate(KEYED)
    assert found.type_key == "ref"
    assert found.dialect is not None and found.dialect.label == "caption"
    # the handle lists (`inputs: [{name, type}]`) are ports, never a field list
    assert found.dialect.field_list is None


def test_an_array_keeps_its_named_type_key_and_one_without_is_no_candidate() -> None:
    # placed nodes: a unique id each, one shared type: a diagram, not a catalog to re-key
    placed = """
export const initialNodes = [
  { id: "start-1", type: "card", position: { x: 0, y: 0 }, data: { kind: "start" } },
  { id: "mail-1", type: "card", position: { x: 9, y: 0 }, data: { kind: "mail" } },
  { id: "end-1", type: "card", position: { x: 18, y: 0 }, data: { kind: "end" } },
];
"""
    assert candidate(placed).type_key == "type"
    assert scan.scan_text(ARRAY, Path("catalog.ts")) == []


def test_a_type_key_whose_values_tell_entries_apart_stays() -> None:
    text = KEYED.replace('type: "action", icon: "Cup"', 'type: "tea", icon: "Cup"').replace(
        'type: "action", icon: "Bell"', 'type: "bell", icon: "Bell"')
    assert candidate(text).type_key == "type"


def test_icons_and_descriptions_are_never_the_label() -> None:
    rows = [entries.Entry(None, {"id": 0, "icon": 1, "description": 2},
                          {"id": f"n{i}", "icon": f"Icon{i}",
                           "description": f"A long sentence that explains what node {i} does"})
            for i in range(4)]
    assert entries.label_key(rows, "id") is None


def test_a_member_of_field_descriptors_becomes_the_field_list_with_its_spellings() -> None:
    found = candidate(DESCRIBED)
    assert found.type_key == "type"
    assert found.dialect is not None and found.dialect.field_list == "form"
    assert dict(found.dialect.field_keys) == {"name": "key", "default": "defaultValue"}


RECORDS = """
export const ACTS = {
  mail: { id: "mail", name: "Mail", inputs: [{ name: "in", type: "any" }],
          config: { to: { type: "string", label: "To" }, body: { type: "textarea" } } },
  wait: { id: "wait", name: "Wait", inputs: [], config: {} },
  pick: { id: "pick", name: "Pick", inputs: [], defaults: { order: "first" },
          config: { order: { type: "select", options: ["first", "last"] } } },
};
"""


def test_a_record_of_descriptors_is_the_field_list_keyed_by_field_name() -> None:
    said = candidate(RECORDS).dialect
    assert said is not None and said.field_list == "config"
    assert dict(said.field_keys) == {}


def test_a_record_of_plain_values_is_no_field_list() -> None:
    plain = RECORDS.replace('{ type: "string", label: "To" }', '"x"').replace(
        '{ type: "textarea" }', '"y"').replace('{ type: "select", options: ["first", "last"] }',
                                              '"z"')
    said = candidate(plain).dialect
    assert said is None or said.field_list is None


def test_a_list_member_of_plain_values_is_no_field_list() -> None:
    text = DESCRIBED.replace("form: [{ key", "tags: [\"a\"], form: [{ key")
    plain = text.replace('{ key: "url"', '{ word: "url"').replace('{ key: "level"', '{ w: "x"')
    said = candidate(plain).dialect
    assert said is None or said.field_list is None


def test_too_few_entries_leave_the_names_to_decide() -> None:
    rows = [entries.Entry("a", {"id": 0, "type": 1}, {"id": "a", "type": "x"})]
    assert entries.type_key(rows, "type") == "type"


def test_the_label_is_the_tersest_human_text_even_when_most_labels_are_one_word() -> None:
    rows = [entries.Entry(key, {"name": 0, "description": 1},
                          {"name": name, "description": about})
            for key, name, about in (("start", "Start", "Begin the run by hand"),
                                     ("new-tab", "New tab", "Open a browser tab"),
                                     ("branch", "Branch", "Split on a condition"))]
    assert entries.label_key(rows, None) == "name"


def test_default_data_under_another_name_is_told_by_the_field_names() -> None:
    text = DESCRIBED.replace("defaultData: {}, inputs", 'meta: { owner: "me" }, '
                             'defaultConfig: { url: "https://" }, inputs').replace(
        'label: "Log", defaultData: {}', 'label: "Log", meta: { owner: "you" }, '
        'defaultConfig: { level: "info" }').replace('defaultData: {}', "defaultConfig: {}")
    said = candidate(text).dialect
    assert said is not None and said.default_data == "defaultConfig"


def test_default_data_named_default_data_needs_no_key() -> None:
    said = candidate(DESCRIBED).dialect
    assert said is not None and said.default_data is None
