"""init's text pass over canvas-library registrations (pygen.init.registrations): a library
counts only in files importing it, a registration only when its type is written as a literal
or a name, and the candidate anchors in the file holding most registrations."""

from __future__ import annotations

from pathlib import Path

from pygen.init import registrations
from pygen.init.registrations import call_sites, candidates, imports, map_sites, object_keys


def lib(name: str) -> registrations.Library:
    return next(x for x in registrations.libraries() if x.name == name)


def test_every_library_of_the_data_has_a_way_to_find_it() -> None:
    found = registrations.libraries()
    assert {"litegraph", "logicflow", "x6", "x6-shape", "g6", "drawflow", "baklava",
            "react-flow"} <= {x.name for x in found}
    for x in found:
        assert x.modules and (x.calls or x.annotations or x.jsx_attributes), x.name


def test_an_import_or_require_of_the_module_or_a_subpath_is_the_evidence() -> None:
    lite = lib("litegraph")
    assert imports('import { LiteGraph } from "litegraph.js";', lite)
    assert imports('const L = require("litegraph.js/build/litegraph.js").LiteGraph;', lite)
    assert not imports('import { LiteGraph } from "./litegraph-shim";', lite)
    assert not imports('import x from "litegraph.jsx";', lite)  # another package


def test_a_registration_counts_when_its_type_is_a_literal_or_a_name() -> None:
    text = ('LiteGraph.registerNodeType("math/sum", Sum);\n'
            "this.LiteGraph.registerNodeType(KIND, Other);\n"
            "LiteGraph.registerNodeType(`a/${x}`, T);\n"
            "LiteGraph.registerNodeType((() => 'x')(), T);\n"
            "editor.registerNodeType('nope', T);\n")
    assert len(call_sites(text, lib("litegraph"))) == 3  # the IIFE and another receiver: no


def test_a_keyed_type_needs_the_key_in_the_object_or_a_name_holding_one() -> None:
    shape = lib("x6-shape")
    text = ('register({ shape: "input", component: C });\nregister({ width: 1 });\n'
            "register(definition);\nlf.register({ shape: 'x' });\n")
    assert len(call_sites(text, shape)) == 2  # a method `lf.register` is not the bare one


def test_a_call_restricted_by_its_first_argument() -> None:
    text = ("register(ExtensionCategory.NODE, 'card', CardNode);\n"
            "register(ExtensionCategory.EDGE, 'wire', Wire);\n")
    assert len(call_sites(text, lib("g6"))) == 1


def test_object_keys_counts_members_not_nested_ones_and_ignores_a_trailing_comma() -> None:
    text = '{ a: A, "b-c": B, d: { e: 1, f: 2 }, // c\n}'
    assert object_keys(text, 0) == 3
    assert object_keys("{ /* none */ }", 0) == 0


def test_maps_annotated_or_handed_to_the_jsx_attribute_in_place_or_as_a_constant() -> None:
    flow = lib("react-flow")
    annotated = "const nodeTypes: NodeTypes = { a: A, b: B };\n<ReactFlow nodeTypes={nodeTypes} />"
    assert [keys for _, keys in map_sites(annotated, flow)] == [2]  # one map, not two
    inline = "<ReactFlow nodeTypes={{ a: A, b: B, c: C }} />"
    assert [keys for _, keys in map_sites(inline, flow)] == [3]
    plain = "const types = { a: A };\n<ReactFlow nodeTypes={types} />"
    assert [keys for _, keys in map_sites(plain, flow)] == [1]
    assert map_sites("<ReactFlow nodeTypes={useTypes()} />", flow) == []


def test_a_candidate_per_library_anchored_where_most_registrations_are(tmp_path: Path) -> None:
    head = 'import { LiteGraph } from "litegraph.js";\n'
    texts = {tmp_path / "a.ts": head + 'LiteGraph.registerNodeType("a/one", A);\n',
             tmp_path / "b.ts": head + "\n" + 'LiteGraph.registerNodeType("b/one", B);\n' * 2,
             tmp_path / "c.ts": 'LiteGraph.registerNodeType("c/none", C);\n'}  # no import
    [found] = candidates(texts)
    assert (found.name, found.path, found.line, found.entries) == (
        "registrations:litegraph", tmp_path / "b.ts", 3, 3)
    assert found.form == "registrations" and found.type_key == "type"


def test_no_candidate_without_the_import(tmp_path: Path) -> None:
    texts = {tmp_path / "a.ts": 'bus.register({ type: "x" });\nregister({ shape: "y" });\n'}
    assert candidates(texts) == []


def test_one_registration_is_no_candidate(tmp_path: Path) -> None:
    head = 'import type { NodeTypes } from "@xyflow/react";\n'
    one = {tmp_path / "a.ts": head + "const nodeTypes: NodeTypes = { custom: CustomNode };\n"}
    assert candidates(one) == []
    two = {tmp_path / "a.ts": head + "const nodeTypes: NodeTypes = { custom: C, group: G };\n"}
    assert [c.entries for c in candidates(two)] == [2]
