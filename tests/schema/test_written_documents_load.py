"""`pygen gen` never writes a schema document its own loader would reject: gen on field-list
catalogs whose fields are listed more than once (once per version, once per condition), then
the document it wrote is loaded as `serve` and `validate-workflow --schemas` load it."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pygen.cli import main
from pygen.validation.catalog import load_catalog_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = [FIXTURES / "schema-docs" / "listed-twice", FIXTURES / "ts" / "versions-latest",
         FIXTURES / "ts" / "versioned-class", FIXTURES / "ts" / "field-list-n8n"]


def repeated_required(value: Any) -> list[list[str]]:
    """Every `required` list of the document naming a property twice."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            required = item.get("required")
            if isinstance(required, list) and len(required) != len(set(map(str, required))):
                found.append(required)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.matrix
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_gen_writes_a_document_its_loader_accepts(case: Path, tmp_path: Path) -> None:
    shutil.copyfile(case.parent / "tsconfig.json", tmp_path / "tsconfig.json")
    root = tmp_path / case.name
    shutil.copytree(case, root, ignore=shutil.ignore_patterns("expected.*"))
    with contextlib.chdir(root):
        gen = CliRunner().invoke(main, ["gen", "-q"])
    assert gen.exit_code == 0, gen.output
    path = root / "skills" / "schemas" / "nodes.schema.json"
    assert repeated_required(json.loads(path.read_text(encoding="utf-8"))) == []
    catalog = load_catalog_file(path)
    assert catalog.specs


def test_a_field_listed_twice_for_one_version_is_one_required_property(tmp_path: Path) -> None:
    case = FIXTURES / "schema-docs" / "listed-twice"
    shutil.copyfile(case.parent / "tsconfig.json", tmp_path / "tsconfig.json")
    root = tmp_path / case.name
    shutil.copytree(case, root)
    with contextlib.chdir(root):
        assert CliRunner().invoke(main, ["gen", "-q"]).exit_code == 0
    doc = json.loads((root / "skills" / "schemas" / "nodes.schema.json").read_text("utf-8"))
    first = doc["$defs"]["if.1"]
    assert first["required"].count("value1") == 1
    assert len(first["properties"]["value1"]["anyOf"]) == 2  # its two defaults, both kept
