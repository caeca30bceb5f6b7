"""The broken-workflow corpus: one workflow per rule the skills promise, each caught with its
rule id, path and fix; autofix_workflow repairs every one whose fix is mechanical."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pygen.validation.autofix import autofix
from pygen.validation.catalog import Catalog
from pygen.validation.workflow import validate_workflow

REPO = Path(__file__).resolve().parents[2]
CORPUS = sorted((REPO / "tests" / "fixtures" / "broken-workflows").glob("*.json"))
DOC = json.loads((REPO / "skills" / "schemas" / "nodes.schema.json").read_text(encoding="utf-8"))


def catalog_for(case: dict[str, Any]) -> Catalog:
    doc = json.loads(json.dumps(DOC))
    if case.get("handleTypes"):
        # A case that plants its own handle rules is checked against those alone: the
        # example's declared types and limits would add findings of other rules to its wire.
        for entry in doc["x-handles"].values():
            for key in ("inputTypes", "outputTypes", "inputLimits"):
                entry.pop(key, None)
    for node_type, types in case.get("handleTypes", {}).items():
        doc["x-handles"][node_type].update(types)
    return Catalog.from_json(json.dumps(doc), "nodes.schema.json")


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_each_rule_is_caught_with_its_fix_and_autofix_repairs_it(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    catalog, expect, profile = catalog_for(case), case["expect"], case["profile"]
    findings = [f.to_dict() for f in validate_workflow(case["workflow"], catalog, profile)]
    assert [(f["level"], f["rule"], f["path"], f.get("fix")) for f in findings] == [
        (expect["level"], expect["rule"], expect["path"], expect["fix"])]
    fixed = autofix(case["workflow"], lambda doc: validate_workflow(doc, catalog, profile))
    if expect["fix"] is None:
        assert [f["rule"] for f in fixed["remaining"]] == [expect["rule"]]
        assert fixed["changes"] == []
    else:
        assert fixed["remaining"] == [] and fixed["valid"]
        assert [c["fix"] for c in fixed["changes"]] == [expect["fix"]]


def test_the_corpus_covers_every_rule_with_a_finding() -> None:
    rules = {json.loads(p.read_text(encoding="utf-8"))["expect"]["rule"] for p in CORPUS}
    assert rules >= {"field-mapping-missing", "field-mapping-unknown-field", "connection-type",
                     "connection-accepts", "connection-connects-to",
                     "range", "deprecated", "runner-owned", "completed-without-result",
                     "position", "node-id-ref", "unknown-field", "enum", "unknown-node-type",
                     "required", "workflow-key"}
