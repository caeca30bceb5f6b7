"""validation.workflow: the workflow corpus, the required-field property, single nodes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from corpus_models import expected_model
from hypothesis import given, settings
from hypothesis import strategies as st

from pygen.model import DataField, Model, TypeRef
from pygen.validation.catalog import Catalog, build_catalog
from pygen.validation.findings import Finding, Fix, is_valid
from pygen.validation.workflow import validate_node, validate_node_data, validate_workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
MODEL = Model(nodes=STUDIO.nodes + EXOTIC.nodes, conventions=STUDIO.conventions)
CATALOG = build_catalog(MODEL)
CASES = sorted(FIXTURES.glob("*/*.json"))


def lines(findings: list[Finding]) -> list[str]:
    return [f"{f.level}: {f}" for f in findings]


# --- The corpus: one broken workflow per finding kind, and valid ones --------------------

@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus(case: Path) -> None:
    doc = json.loads(case.read_text(encoding="utf-8"))
    findings = validate_workflow(doc["workflow"], CATALOG, doc.get("profile", "runtime"))
    assert lines(findings) == doc["findings"]
    assert is_valid(findings) is (case.parent.name == "valid")


def test_corpus_has_both_kinds() -> None:
    assert {p.parent.name for p in CASES} == {"valid", "invalid"}
    assert len([p for p in CASES if p.parent.name == "invalid"]) >= 20


def test_a_model_validates_like_its_catalog() -> None:
    doc = json.loads((FIXTURES / "invalid" / "bad-enum-value.json").read_text(encoding="utf-8"))
    assert validate_workflow(doc["workflow"], MODEL) == validate_workflow(doc["workflow"], CATALOG)


# --- Property: breaking a required field of a valid workflow is always caught ------------

def accepts(ref: TypeRef, value: Any) -> bool:
    """An independent reading of the TypeScript type, for what the validator promises."""
    kind = ref.kind
    simple = {"string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
              "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
              "null": lambda v: v is None}
    if kind in simple:
        return simple[kind](value)
    if kind in ("any", "unknown", "function", "unresolved"):
        return True
    if kind == "literal":
        return isinstance(value, bool) == isinstance(ref.value, bool) and value == ref.value
    if kind == "union":
        return any(accepts(m, value) for m in ref.types)
    if kind == "intersection":
        # A brand (`string & { __brand }`) exists only at compile time.
        members = [m for m in ref.types if m.kind not in ("object", "record")]
        return all(accepts(m, value) for m in members or ref.types)
    if kind in ("array", "tuple"):
        items = ref.types if kind == "tuple" else [ref.items or TypeRef(kind="any")] * len(value) \
            if isinstance(value, list) else []
        return isinstance(value, list) and all(accepts(t, v) for t, v in zip(items, value,
                                                                          strict=False))
    if kind == "record":
        return isinstance(value, dict) and all(accepts(ref.items or TypeRef(kind="any"), v)
                                               for v in value.values())
    if kind == "object":
        return isinstance(value, dict) and all(
            accepts(f.type, value[f.name]) if f.name in value else f.optional for f in ref.fields)
    return False  # undefined, never: no JSON value is one


def data_fields(node_type: str) -> tuple[DataField, ...]:
    """The fields of the variant the default data selects (or the plain fields)."""
    node = MODEL.node(node_type)
    assert node is not None
    for variant in node.data_type.variants:
        if node.default_data.get(variant.discriminant or "") == variant.value:
            return variant.fields
    return node.data_type.fields


def may_be_absent(ref: TypeRef) -> bool:
    """JSON drops undefined and functions, so such keys may be missing."""
    return ref.kind in ("undefined", "any", "unknown", "function") or (
        ref.kind == "union" and any(may_be_absent(m) for m in ref.types))


REQUIRED = {n.type: [f for f in data_fields(n.type)
                     if not f.optional and not may_be_absent(f.type)]
            for n in MODEL.nodes}
TYPED = sorted(t for t, fields in REQUIRED.items() if fields)
ENUM_VALUES = sorted({str(v) for n in MODEL.nodes for f in data_fields(n.type)
                      for v in (f.type.literal_values() or ())})
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4),
              st.sampled_from(ENUM_VALUES)),
    lambda c: st.one_of(st.lists(c, max_size=2), st.dictionaries(st.text(max_size=3), c,
                                                                  max_size=2)),
    max_leaves=4)


def workflow_of(types: list[str]) -> dict[str, Any]:
    nodes = []
    for i, node_type in enumerate(types):
        node = MODEL.node(node_type)
        assert node is not None
        nodes.append({"id": f"n{i}", "type": node_type, "position": {"x": 0, "y": 0},
                      "data": copy.deepcopy(node.default_data)})
    return {"nodes": nodes, "edges": []}


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_breaking_a_required_field_is_always_caught(data: st.DataObject) -> None:
    types = data.draw(st.lists(st.sampled_from(TYPED), min_size=1, max_size=5))
    workflow = workflow_of(types)
    assert is_valid(validate_workflow(workflow, CATALOG))
    index = data.draw(st.integers(0, len(types) - 1))
    name = data.draw(st.sampled_from([f.name for f in REQUIRED[types[index]]]))
    field = next(f for f in REQUIRED[types[index]] if f.name == name)
    node_data = workflow["nodes"][index]["data"]
    if data.draw(st.booleans()) or field.type.kind == "unresolved":
        node_data.pop(field.name, None)
    else:
        node_data[field.name] = data.draw(JSON.filter(lambda v: not accepts(field.type, v)))
    where = f"$.nodes[{index}].data.{field.name}"
    errors = [f for f in validate_workflow(workflow, CATALOG, "strict") if f.level == "error"]
    assert any(f.path == where or f.path.startswith((f"{where}.", f"{where}[")) for f in errors), \
        (where, node_data.get(field.name), lines(errors))


# --- Single nodes ------------------------------------------------------------------------

def test_a_single_node_needs_no_id() -> None:
    node: dict[str, Any] = {"type": "note", "data": {"label": "n", "text": "", "color": "pink"}}
    assert validate_node(node, CATALOG) == []
    node["data"]["color"] = "pnk"
    assert lines(validate_node(node, CATALOG)) == [
        'error: $.data.color: "pnk" is not one of "yellow", "blue", "pink", "gray" '
        '(did you mean "pink"?)']


# --- Handles as catalogs in the wild write them: unnamed, typed, undeclared, variants -----

def _node(node_type: str, **extra: Any) -> dict[str, Any]:
    return {"type": node_type, "label": node_type, "source": {"file": "nodes.ts", "line": 1},
            **extra}


WILD = Model.model_validate({"nodes": [
    _node("merge", inputs=[{"id": None}, {"id": None}], outputs=[{"id": "video",
                                                                   "type": "video"}]),
    _node("card", inputs_declared=False, outputs_declared=False),
    _node("tool", variant="search", outputs=[{"id": "tool"}]),
    _node("tool", variant="calc", outputs=[{"id": "tool"}, {"id": "debug"}]),
]})


def _edge(source: str, target: str, **handles: Any) -> dict[str, Any]:
    nodes = [{"id": n, "type": n, "position": {"x": 0, "y": 0}, "data": {}}
             for n in dict.fromkeys((source, target))]
    edge = {"id": "e1", "source": source, "target": target, **handles}
    return {"nodes": nodes, "edges": [edge]}


@pytest.mark.parametrize("catalog", [build_catalog(WILD),
                                     Catalog.from_json(build_catalog(WILD).to_json(), "doc")],
                         ids=["model", "document"])
def test_unnamed_and_undeclared_handles_and_variants(catalog: Catalog) -> None:
    assert is_valid(validate_workflow(_edge("tool", "merge", sourceHandle="debug"), catalog))
    assert not is_valid(validate_workflow(_edge("tool", "merge", targetHandle="left"), catalog))
    assert is_valid(validate_workflow(_edge("card", "card", sourceHandle="anything",
                                            targetHandle="else"), catalog))
    handles = json.loads(catalog.to_json())["x-handles"]
    assert handles["merge"] == {"inputs": [None], "outputs": ["video"],
                                "outputTypes": {"video": "video"}}
    assert handles["card"] == {"inputs": [], "outputs": [], "declared": False}
    assert handles["tool"]["outputs"] == ["tool", "debug"]


# --- Variants: each checked against its own schema and handles ----------------------------

TOOLS = expected_model("variant-catalog")
TOOL_CATALOGS = [build_catalog(TOOLS), Catalog.from_json(build_catalog(TOOLS).to_json(), "doc")]


def _tools(*nodes: dict[str, Any], edges: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    at = {"position": {"x": 0, "y": 0}}
    agent = {"id": "agent", "type": "agent", "data": {"model": "gpt-4o"}, **at}
    tools = ({"id": f"n{i}", "type": "tool", **at, **n} for i, n in enumerate(nodes))
    return {"nodes": [agent, *tools], "edges": list(edges)}


SEARCH = {"toolType": "search", "engine": "bing", "maxResults": 5}
CALCULATOR = {"toolType": "calculator", "precision": 4}


@pytest.mark.parametrize("catalog", TOOL_CATALOGS, ids=["model", "document"])
def test_a_field_of_the_other_variant_is_an_error_naming_it(catalog: Catalog) -> None:
    assert validate_workflow(_tools({"data": SEARCH}, {"data": CALCULATOR}), catalog) == []
    workflow = _tools({"data": {**SEARCH, "precision": 2}})
    assert lines(validate_workflow(workflow, catalog)) == [
        'error: $.nodes[1].data.precision: "precision" is a field of "tool.calculator", not of '
        '"tool.search"; drop it, or set toolType to "calculator"']
    # Its own required fields come from its own schema too (strict: even those defaults fill).
    assert lines(validate_workflow(_tools({"data": {"toolType": "calculator"}}), catalog,
                                   "strict")) == [
        "error: $.nodes[1].data.precision: missing required field (number)"]


@pytest.mark.parametrize("catalog", TOOL_CATALOGS, ids=["model", "document"])
def test_an_edge_into_a_handle_only_the_other_variant_has_is_an_error(catalog: Catalog) -> None:
    edge = {"id": "e", "source": "agent", "target": "n0", "targetHandle": "query"}
    assert validate_workflow(_tools({"data": SEARCH}, edges=(edge,)), catalog) == []
    assert lines(validate_workflow(_tools({"data": CALCULATOR}, edges=(edge,)), catalog)) == [
        'error: $.edges[0].targetHandle: node "n0" (tool.calculator) has no inputs; no edge can '
        "enter it"]
    # Data that names no variant: the handles of any variant are accepted, the field is asked
    # for (a warning at runtime: the editor loads the node; strict makes it an error).
    assert lines(validate_workflow(_tools({"data": {"precision": 4}}, edges=(edge,)), catalog,
                                   "strict")) == [
        'error: $.nodes[1].data.toolType: missing required field (one of "search", "calculator")']


@pytest.mark.parametrize("catalog", TOOL_CATALOGS, ids=["model", "document"])
def test_a_variant_is_not_a_node_type(catalog: Catalog) -> None:
    assert catalog.types == ["agent", "tool"]
    node = {"id": "s", "type": "tool.search", "position": {"x": 0, "y": 0}, "data": SEARCH}
    found = validate_workflow({"nodes": [node], "edges": []}, catalog)
    # The data names the variant already: naming the type is the whole repair.
    assert found[0].fix == Fix("set", ("nodes", 0, "type"), "tool")
    assert lines(found) == [
        'error: $.nodes[0].type: "tool.search" is a variant, not a node type: write type "tool" '
        'and data.toolType "search"']


@pytest.mark.parametrize("catalog", TOOL_CATALOGS, ids=["model", "document"])
def test_data_alone_is_checked_against_the_variant_it_names(catalog: Catalog) -> None:
    assert validate_node_data("tool.search", SEARCH, catalog) == []
    assert validate_node_data("tool", CALCULATOR, catalog) == []
    assert [(f.path, f.rule) for f in validate_node_data("tool", {**SEARCH, "precision": 2},
                                                          catalog)] == [
        ("$.precision", "variant-field")]
