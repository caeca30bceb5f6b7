"""validation.rules, wiring, checks and autofix on hand-built schemas: the edges of each rule."""

from __future__ import annotations

from typing import Any

from pygen.schema.fields import MappingShape, mapping_target
from pygen.validation.autofix import autofix
from pygen.validation.catalog import Catalog, NodeSpec
from pygen.validation.checks import workflow_rules
from pygen.validation.findings import Finding
from pygen.validation.wiring import HandleTypes, compatible

GEN: dict[str, Any] = {"type": "object", "properties": {
    "prompt": {"type": "string"},
    "fieldMappings": {"type": "object", "additionalProperties": {"type": "string"}, "default": {},
                      "description": 'Maps a handle to a field, e.g. `{ "in": "prompt" }`.'},
    "sourceImageUrl": {"type": "string"},
    "referenceImageUrl": {"type": "string"},
    "referenceImage": {"type": "string", "deprecated": True,
                       "description": "Old. Deprecated: Use referenceImageUrl."},
    "status": {"enum": ["idle", "completed"], "x-runner": True},
    "url": {"type": "string", "x-result": True},
    "jobId": {"type": "string", "x-result": True, "x-runner": False},
}}
COMBINE: dict[str, Any] = {"type": "object", "properties": {
    "order": {"type": "array", "items": {"type": "string"}, "x-nodeIds": True}}}
SCHEMAS = {"gen": GEN, "combine": COMBINE}


def workflow(*nodes: dict[str, Any], edges: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    placed = [{"position": {"x": 0, "y": 0}, **n} for n in nodes]
    return {"nodes": placed, "edges": edges or []}


HANDLES = {"gen": (("in",), ("out",)), "combine": (("in",), ("x",))}


CONVENTIONS = {"mapping_field": "fieldMappings", "mapping_required": True}
SHAPE = MappingShape("fieldMappings", "string")


def run(doc: dict[str, Any], entries: dict[str, dict[str, Any]] | None = None
        ) -> list[Finding]:
    """The rules over a catalog of SCHEMAS; `entries` are extra `x-handles` keys by type."""
    catalog = Catalog((NodeSpec(t, SCHEMAS[t], *HANDLES[t], (entries or {}).get(t, {}))
                       for t in SCHEMAS), {"x-conventions": CONVENTIONS})
    return list(workflow_rules(doc, catalog))


def test_mapping_target_reads_defaults_then_the_description_then_names() -> None:
    props = GEN["properties"]
    assert mapping_target(props, "in", None, SHAPE) == "prompt"  # the description's pair
    assert mapping_target(props, "prompt", None, SHAPE) == "prompt"  # named like the handle
    assert mapping_target(props, "x", "prompt", SHAPE) == "prompt"  # like the source handle
    assert mapping_target(props, "source-image", None, SHAPE) == "sourceImageUrl"
    assert mapping_target(props, "image", None, SHAPE) is None  # two image fields: ambiguous
    with_default = {**props, "fieldMappings": {**props["fieldMappings"],
                                               "default": {"image": "referenceImageUrl"}}}
    assert mapping_target(with_default, "image", None, SHAPE) == "referenceImageUrl"


def test_a_completed_status_with_a_result_is_the_documented_way_to_show_an_asset() -> None:
    shown = run(workflow({"id": "a", "type": "gen", "data": {"status": "completed",
                                                              "url": "https://x/y.png"}}))
    assert shown == []
    empty = run(workflow({"id": "a", "type": "gen", "data": {"status": "completed",
                                                              "jobId": "j"}}))
    assert [(f.rule, f.level) for f in empty] == [("completed-without-result", "error")]
    queued = run(workflow({"id": "a", "type": "gen", "data": {"status": "idle", "jobId": "j"}}))
    assert [(f.rule, f.path) for f in queued] == [("runner-owned", "$.nodes[0].data.status")]


def test_a_deprecated_field_next_to_its_replacement_is_removed_not_renamed() -> None:
    found = run(workflow({"id": "a", "type": "gen", "data": {"referenceImage": "u",
                                                              "referenceImageUrl": "u"}}))
    assert [(f.rule, f.fix and f.fix.op) for f in found] == [("deprecated", "remove")]


def test_connection_types_allow_wildcards_and_overlapping_unions() -> None:
    assert compatible("image", "image | video") and compatible("any", "audio")
    assert not compatible("audio", "image")
    types = {"gen": {"inputTypes": {"in": "text"}, "outputTypes": {"out": "image"},
                     "accepts": {"in": ["gen"]}},
             "combine": {"declared": False, "inputTypes": {"in": "x"}}}
    doc = workflow({"id": "a", "type": "gen", "data": {"fieldMappings": {"in": "prompt"}}},
                   {"id": "b", "type": "gen", "data": {"fieldMappings": {"in": "prompt"}}},
                   edges=[{"id": "e", "source": "a", "sourceHandle": "out", "target": "b",
                           "targetHandle": "in"}])
    assert [f.rule for f in run(doc, types)] == ["connection-type"]
    # `declared: false` skips every handle check.
    assert HandleTypes.from_doc(types["combine"]) == HandleTypes()


def test_autofix_applies_every_mechanical_fix_and_leaves_content_alone() -> None:
    doc = workflow(
        {"id": "a", "type": "gen", "data": {"prompt": "", "referenceImage": "u",
                                            "fieldMappings": {}, "status": "idle"}},
        {"id": "c", "type": "combine", "data": {"order": ["ghost", "a", "phantom"]}},
        edges=[{"id": "e", "source": "c", "sourceHandle": "x", "target": "a",
                "targetHandle": "in"}])
    del doc["nodes"][1]["position"]
    result = autofix(doc, lambda d: run(d))
    fixed = result["workflow"]
    assert result["valid"] and result["remaining"] == []
    assert list(fixed["nodes"][0]["data"]) == ["prompt", "referenceImageUrl", "fieldMappings"]
    assert fixed["nodes"][0]["data"]["fieldMappings"] == {"in": "prompt"}
    assert fixed["nodes"][0]["data"]["prompt"] == ""  # no content invented
    assert fixed["nodes"][1] == {"id": "c", "type": "combine", "data": {"order": ["a"]},
                                 "position": {"x": 320, "y": 0}}
    assert sorted(c["rule"] for c in result["changes"]) == [
        "deprecated", "field-mapping-missing", "node-id-ref", "node-id-ref", "position",
        "runner-owned"]
    assert doc["nodes"][0]["data"]["referenceImage"] == "u"  # the input is not modified
