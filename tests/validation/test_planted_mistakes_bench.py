"""The planted-mistakes bench's plants, on a hand-written n8n-shaped workflow and catalog:
each changes one thing, and the validator catches it (with the repair that undoes it)."""

from __future__ import annotations

from typing import Any

from bench import planted_mistakes as pm
from pygen.config import FieldList
from pygen.conventions import Conventions
from pygen.extract import fieldlist
from pygen.model import DataType, Location, Model, NodeDef
from pygen.validation.catalog import build_catalog
from pygen.validation.workflow import validate_workflow

N8N = FieldList(entry_field="properties", preset="n8n")
CONV = Conventions(node_data_key="parameters", node_version_key="typeVersion",
                   position_pair=True, connections_key="connections",
                   connection_node_key="name", editor_fills_defaults=True,
                   expression_prefix="=", required_nonempty=True)
PROPERTIES = [
    {"displayName": "Operation", "name": "operation", "type": "options", "default": "send",
     "options": [{"name": "Send", "value": "send"}, {"name": "Fetch", "value": "fetch"}]},
    {"displayName": "To", "name": "toEmail", "type": "string", "default": "", "required": True},
    {"displayName": "Retries", "name": "retryCount", "type": "number", "default": 1},
]


def catalog() -> Any:
    data_type, _ = fieldlist.data_type(PROPERTIES, N8N)
    node = NodeDef(type="pkg.mail", label="Mail", source=Location(file="mail.ts", line=1),
                   inputs_declared=False, outputs_declared=False,
                   data_type=DataType(name="MailData", via="field-list", fields=data_type.fields))
    return build_catalog(Model(nodes=(node,), conventions=CONV))


WORKFLOW = {"nodes": [
    {"name": "A", "type": "pkg.mail", "typeVersion": 1, "position": [0, 0],
     "parameters": {"operation": "fetch", "toEmail": "a@b.c", "retryCount": 2}},
    {"name": "B", "type": "pkg.mail", "typeVersion": 1, "position": [0, 0],
     "parameters": {"operation": "send", "toEmail": "={{ $json.to }}"}}],
    "connections": {"A": {"main": [[{"node": "B", "type": "main", "index": 0}]]}}}


def run(kind: str, rule: str) -> tuple[list[str], bool | None]:
    cat = catalog()
    assert [f for f in validate_workflow(WORKFLOW, cat) if f.level == "error"] == []
    planted = pm._kinds({"kind": kind, "rule": rule})(WORKFLOW, cat, {"kind": kind})
    assert planted is not None
    found = [f for f in validate_workflow(planted.workflow, cat) if f.rule == rule]
    repaired = None if planted.undo is None else pm._repaired(found, planted.undo)
    return [f.level for f in found], repaired


def test_a_near_miss_option_is_an_enum_error_its_fix_undoes() -> None:
    assert run("enum-near-miss", "enum") == (["error"], True)


def test_each_plant_is_caught() -> None:
    assert run("wrong-type-number", "type") == (["error"], None)
    assert run("required-emptied", "required-empty") == (["error"], None)
    assert run("expression-unclosed", "expression") == (["error"], None)
    assert run("duplicate-name", "duplicate-id") == (["error"], None)
    assert run("edge-to-missing-node", "edge-node") == (["error"], None)
    assert run("unknown-field-case-slip", "unknown-field") == (["warning"], True)


def test_the_bench_reads_an_n8n_sides_kinds_from_the_loaders_traits() -> None:
    from bench.real_catalogs import sides

    read = sides({"inputs": ["main", "main"], "outputs": ["main", "ai_tool"]})
    assert [h.id for h in read["inputs"]] == ["main", "main[1]"]
    assert [(h.id, h.type) for h in read["outputs"]] == [("main", "main"), ("ai_tool", "ai_tool")]
    assert read["inputs_declared"] and read["outputs_declared"]
    # A side an expression computes when the node loads (Switch), or no traits: not declared.
    computed = sides({"inputs": ["main"], "outputs": "={{ $parameter.rules }}"})
    assert computed["inputs_declared"] and not computed["outputs_declared"]
    assert sides(None) == {"inputs_declared": False, "outputs_declared": False}
