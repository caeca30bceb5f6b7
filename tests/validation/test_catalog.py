"""validation.catalog: the schema document read back, from text or a file, and refused when bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pygen.model import Model
from pygen.schema.document import schema_document
from pygen.validation.catalog import (
    Catalog,
    WorkflowInputError,
    build_catalog,
    load_catalog_file,
)
from pygen.validation.workflow import validate_workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workflows"
STUDIO = Model.model_validate_json((FIXTURES / "studio.model.json").read_text(encoding="utf-8"))
EXOTIC = Model.model_validate_json((FIXTURES / "exotic.model.json").read_text(encoding="utf-8"))
MODEL = Model(nodes=STUDIO.nodes + EXOTIC.nodes, conventions=STUDIO.conventions)
CATALOG = build_catalog(MODEL)
CASES = sorted(FIXTURES.glob("*/*.json"))


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
