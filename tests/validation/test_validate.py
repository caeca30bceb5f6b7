"""validation.validate: the workflow corpus, the required-field property, skill examples, MCP."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.server.mcpserver import MCPServer

from pygen.errors import PygenError
from pygen.model import DataField, Model, TypeRef
from pygen.server.validate_tool import register_validate_tool
from pygen.skills.schema_doc import schema_document
from pygen.validation.catalog import (
    Catalog,
    WorkflowInputError,
    build_catalog,
    catalog_file_provider,
    load_catalog_file,
)
from pygen.validation.examples import check_skill_examples, json_blocks
from pygen.validation.findings import Finding, is_valid, report
from pygen.validation.workflow import validate_node, validate_workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
REPO = Path(__file__).resolve().parents[2]
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
MODEL = Model(nodes=STUDIO.nodes + EXOTIC.nodes)
CATALOG = build_catalog(MODEL)
CASES = sorted(FIXTURES.glob("*/*.json"))


def lines(findings: list[Finding]) -> list[str]:
    return [f"{f.level}: {f}" for f in findings]


# --- The corpus: one broken workflow per finding kind, and valid ones --------------------

@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus(case: Path) -> None:
    doc = json.loads(case.read_text(encoding="utf-8"))
    findings = validate_workflow(doc["workflow"], CATALOG)
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
    errors = [f for f in validate_workflow(workflow, CATALOG) if f.level == "error"]
    assert any(f.path == where or f.path.startswith((f"{where}.", f"{where}[")) for f in errors), \
        (where, node_data.get(field.name), lines(errors))


# --- The schema document: validate without the model --------------------------------------

def test_schema_document_round_trips() -> None:
    text = schema_document(MODEL)
    again = Catalog.from_json(text, "nodes.schema.json")
    assert again.to_json() == text
    for case in CASES:
        workflow = json.loads(case.read_text(encoding="utf-8"))["workflow"]
        assert validate_workflow(workflow, again) == validate_workflow(workflow, CATALOG)


def test_schema_file_missing(tmp_path: Path) -> None:
    path = tmp_path / "nodes.schema.json"
    with pytest.raises(WorkflowInputError) as info:
        load_catalog_file(path)
    assert str(info.value) == (f"{path}: cannot read the node schemas (No such file or "
                               "directory); run `pygen gen` to write them")


def test_file_provider_rereads_only_a_changed_file(tmp_path: Path) -> None:
    path = tmp_path / "nodes.schema.json"
    provide = catalog_file_provider(path)
    with pytest.raises(WorkflowInputError):
        provide()
    path.write_text(schema_document(STUDIO), encoding="utf-8")
    first = provide()
    assert provide() is first
    path.write_text(schema_document(MODEL), encoding="utf-8")
    assert provide().types == CATALOG.types


@pytest.mark.parametrize(("text", "message"), [
    ('{"$defs": {}', "x.json:1:13: invalid JSON: Expecting ',' delimiter"),
    ("[]", "x.json: not a node schema document (needs '$defs' and 'x-handles'); regenerate "
           "it with `pygen gen`"),
    ('{"$defs": {"a": {"type": 5}}, "x-handles": {"a": {"inputs": [], "outputs": []}}}',
     "x.json: schema of node type 'a' is malformed (SchemaError); regenerate it with "
     "`pygen gen`"),
    ('{"$defs": {"a": {}}, "x-handles": {}}',
     "x.json: schema of node type 'a' is malformed (TypeError); regenerate it with `pygen gen`"),
])
def test_schema_document_refused(text: str, message: str) -> None:
    with pytest.raises(WorkflowInputError) as info:
        Catalog.from_json(text, "x.json")
    assert str(info.value) == message


# --- Single nodes and reports ------------------------------------------------------------

def test_a_single_node_needs_no_id() -> None:
    node: dict[str, Any] = {"type": "note", "data": {"label": "n", "text": "", "color": "pink"}}
    assert validate_node(node, CATALOG) == []
    node["data"]["color"] = "pnk"
    assert lines(validate_node(node, CATALOG)) == [
        'error: $.data.color: "pnk" is not one of "yellow", "blue", "pink", "gray" '
        '(did you mean "pink"?)']


def test_report() -> None:
    findings = [Finding("warning", "$.a", "w"), Finding("error", "$.b", "e", "x", "f.md", 3)]
    assert report(findings) == {
        "valid": False, "errors": 1, "warnings": 1, "findings": [
            {"level": "warning", "path": "$.a", "message": "w", "suggestion": None},
            {"level": "error", "path": "$.b", "message": "e", "suggestion": "x",
             "file": "f.md", "line": 3}]}
    assert str(findings[1]) == 'f.md:3: $.b: e (did you mean "x"?)'


# --- Examples in skill files -------------------------------------------------------------

SKILL = """\
# Generate image

Default data (a data object, neither a node nor a workflow: skipped):

```json
{ "label": "x" }
```

A sketch that is not JSON (skipped):

```json
{ "nodes": [ { "data": {...} } ], "edges": [] }
```

```json
{
  "id": "a",
  "type": "note",
  "data": { "label": "<your title>", "text": "<URL from response>", "colour": "pink" }
}
```

````json
{"nodes": [{"id": "a", "type": "text-prompt", "data": {"label": "t", "text": ""}}],
 "edges": [{"id": "e", "source": "a", "sourceHandle": "txt", "target": "b"}]}
````

```python
{"type": "note", "data": {}}
```
"""


def test_check_skill_examples_reports_file_and_line() -> None:
    assert lines(check_skill_examples(SKILL, "skills/nodes/x.md", CATALOG)) == [
        "error: skills/nodes/x.md:15: $.data.color: missing required field (one of "
        '"yellow", "blue", "pink", "gray")',
        "warning: skills/nodes/x.md:15: $.data.colour: unknown field for \"note\" data "
        '(did you mean "color"?)',
        'error: skills/nodes/x.md:23: $.edges[0].sourceHandle: "txt" is not one of the outputs '
        'of node "a" (text-prompt): "text" (did you mean "text"?)',
        'error: skills/nodes/x.md:23: $.edges[0].target: no node has id "b"',
    ]


def test_json_blocks() -> None:
    text = "```json\n{}\n```\n  ~~~JSON\n[1]\n~~~\n```json\nunclosed"
    assert list(json_blocks(text)) == [(1, "{}"), (4, "[1]"), (7, "unclosed")]


def test_committed_skill_examples_pass() -> None:
    """Every example the skills teach validates against the studio model they came from."""
    checked = 0
    for path in sorted((REPO / "skills").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert check_skill_examples(text, str(path), STUDIO) == []
        checked += len(list(json_blocks(text)))
    assert checked > 0


# --- MCP tool, through a real client session ---------------------------------------------

def call(server: MCPServer, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any], str]:
    async def go() -> tuple[bool, dict[str, Any], str]:
        async with Client(server) as client:
            result = await client.call_tool("validate_workflow_json", arguments)
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            return bool(result.is_error), result.structured_content or {}, text
    return anyio.run(go)


def server_for(provider: Any) -> MCPServer:
    server = MCPServer("test")
    register_validate_tool(server, provider)
    return server


def test_mcp_tool_is_listed_read_only() -> None:
    async def go() -> Any:
        async with Client(server_for(lambda: CATALOG)) as client:
            return (await client.list_tools()).tools
    (tool,) = anyio.run(go)
    assert tool.name == "validate_workflow_json"
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert tool.input_schema["required"] == ["workflow"]
    assert set(tool.output_schema["properties"]) == {"valid", "errors", "warnings", "findings"}


def test_mcp_tool_reports_findings() -> None:
    doc = json.loads((FIXTURES / "invalid" / "bad-target-handle.json").read_text(encoding="utf-8"))
    is_error, structured, text = call(server_for(lambda: MODEL), {"workflow": doc["workflow"]})
    assert is_error is False
    assert structured == report(validate_workflow(doc["workflow"], CATALOG))
    assert structured["valid"] is False
    assert json.loads(text) == structured


def test_mcp_tool_accepts_a_json_string_and_reports_bad_json() -> None:
    server = server_for(lambda: CATALOG)
    _, structured, _ = call(server, {"workflow": '{"nodes": [], "edges": []}'})
    assert structured == {"valid": True, "errors": 0, "warnings": 0, "findings": []}
    _, structured, _ = call(server, {"workflow": '{"nodes": ['})
    assert structured["findings"] == [{"level": "error", "path": "$", "suggestion": None,
                                       "message": "invalid JSON at line 1, column 12: "
                                                  "Expecting value"}]


def test_mcp_tool_error_when_the_schemas_cannot_be_loaded() -> None:
    def provider() -> Catalog:
        raise PygenError("skills/schemas/nodes.schema.json: cannot read; run `pygen gen`")
    is_error, _, text = call(server_for(provider), {"workflow": {"nodes": [], "edges": []}})
    assert is_error is True
    assert "skills/schemas/nodes.schema.json: cannot read; run `pygen gen`" in text


def test_mcp_tool_builds_the_catalog_once_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = [MODEL, MODEL, STUDIO]
    built: list[Model] = []

    def counting_build(model: Model) -> Catalog:
        built.append(model)
        return build_catalog(model)
    monkeypatch.setattr("pygen.validation.catalog.build_catalog", counting_build)
    server = server_for(lambda: sources.pop(0))

    async def go() -> None:
        async with Client(server) as client:
            for _ in range(3):
                await client.call_tool("validate_workflow_json",
                                       {"workflow": {"nodes": [], "edges": []}})
    anyio.run(go)
    # Asked each call (a reloaded schema file is picked up), rebuilt only when it changed.
    assert sources == [] and built == [MODEL, STUDIO]
