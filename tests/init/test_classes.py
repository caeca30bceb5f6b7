"""Class-shaped catalogs and builder calls, read from the text: what each proposes."""

from __future__ import annotations

from pathlib import Path

from pygen.init import classes, scan

COMPONENT = """
import { INode, INodeParams } from "../Interface";
class ChatLocal implements INode {
  label: string;
  name: string;
  inputs: INodeParams[];
  constructor() {
    this.label = "Chat Local";
    this.name = "chatLocal";
    this.inputs = [
      { label: "Model", name: "model", type: "string", default: "llama3" },
      { label: "Temperature", name: "temperature", type: "number", optional: true },
    ];
  }
}
"""

HELPER = """
export class MemoryCache {
  name: string;
  constructor(name: string) {
    this.name = name;
  }
}
"""

VERSION = """
export class SwitchV2 implements INodeType {
  description: INodeTypeDescription;
  constructor(base: INodeTypeBaseDescription) {
    this.description = {
      ...base,
      version: 2,
      properties: [
        { displayName: "Mode", name: "mode", type: "options", default: "rules" },
      ],
    };
  }
}
"""

NAMED = """
export class Http implements INodeType {
  description: INodeTypeDescription = {
    displayName: "HTTP Request",
    name: "httpRequest",
    group: ["output"],
    version: 1,
    properties: [{ displayName: "URL", name: "url", type: "string", default: "" }],
  };
}
"""


def test_a_class_assigning_a_name_and_a_descriptor_list_is_a_flowise_entry() -> None:
    [found] = classes.own_members(COMPONENT, Path("ChatLocal.ts"))
    assert (found.name, found.type_key) == ("class:*", "name")
    assert found.dialect is not None
    assert (found.dialect.field_list, found.dialect.preset) == ("inputs", "flowise")
    # Its `inputs` are the parameters, and it declares no outputs: no handles either side.
    assert found.dialect.no_inputs and found.dialect.no_outputs


def test_a_helper_class_with_a_name_only_is_no_entry() -> None:
    assert classes.own_members(HELPER, Path("cache.ts")) == []


def test_one_class_is_no_class_catalog() -> None:
    found = classes.own_members(COMPONENT, Path("a.ts"))
    assert classes.merge_classes(found, {}) == []
    merged = classes.merge_classes(found + classes.own_members(COMPONENT, Path("b.ts")), {})
    assert [(c.name, c.entries) for c in merged] == [("class:*", 2)]


def test_a_version_taking_its_name_from_a_base_description_sets_the_variant_field() -> None:
    [found] = classes.class_properties(VERSION, Path("SwitchV2.node.ts"))
    assert (found.name, found.type_key) == ("class:description", "name")
    assert found.dialect is not None
    assert (found.dialect.preset, found.dialect.variant_field) == ("n8n", "version")


def test_a_description_naming_its_node_in_a_dialect_with_versioned_fields_is_read_per_version(
) -> None:
    # n8n's descriptors may be shown for some versions only (`@version`): the entry's
    # `version` is what picks its fields, so init sets it as the variant field.
    [found] = classes.class_properties(NAMED, Path("Http.node.ts"))
    assert found.dialect is not None
    assert (found.dialect.label, found.dialect.category) == ("displayName", "group")
    assert found.dialect.variant_field == "version"


def test_a_named_class_in_a_dialect_without_versioned_fields_is_no_version() -> None:
    text = COMPONENT.replace('this.name = "chatLocal";',
                             'this.name = "chatLocal";\n    this.version = 2;')
    [found] = classes.own_members(text, Path("ChatLocal.ts"))
    assert found.dialect is not None
    assert (found.dialect.preset, found.dialect.variant_field) == ("flowise", None)


BUILT = """
export const A = createBlock({ type: "a", inputs: [], outputs: [] });
export const B = createBlock({ type: "b", inputs: [], outputs: [] });
export const store = createStore({ type: "memory", data: {} });
"""


def test_a_builder_called_twice_is_a_call_source_and_one_called_once_is_not(
        tmp_path: Path) -> None:
    (tmp_path / "blocks.ts").write_text(BUILT, encoding="utf-8")
    found = [(c.name, c.entries) for c in scan.scan(tmp_path) if c.form == "call"]
    assert found == [("call:createBlock", 2)]


def test_class_catalog_keeps_the_classes_most_of_them_declare_they_are(tmp_path: Path) -> None:
    """Three node classes and a credential class set the same members; the nodes say
    `implements Node`, so init proposes `class:*:Node` and the credential is left out."""
    texts = {f"n{i}.ts": f'class N{i} implements Node {{\n  label = "N{i}";\n'
             f'  name = "n{i}";\n  inputs = [{{ label: "A", name: "a", type: "string" }}];\n}}\n'
             for i in range(3)}
    texts["c.ts"] = ('class C implements NodeCredential {\n  label = "C";\n  name = "c";\n'
                     '  inputs = [{ label: "K", name: "k", type: "password" }];\n}\n')
    found = []
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        found += classes.own_members(text, tmp_path / name)
    merged = classes.merge_classes(found, {})
    assert [(c.name, c.entries) for c in merged] == [("class:*:Node", 4)]


def test_class_catalog_whose_classes_all_declare_one_interface_needs_no_filter(
        tmp_path: Path) -> None:
    text = 'class N implements Node {\n  label = "N";\n  name = "n";\n  inputs = [];\n}\n'
    found = [c for i in range(2) for c in classes.own_members(text, tmp_path / f"{i}.ts")]
    assert [c.name for c in classes.merge_classes(found, {})] == ["class:*"]
