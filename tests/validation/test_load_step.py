"""The editor's load step (config `load_step`): saved workflows are judged as the editor loads
them. A hand-written project whose store rewrites a legacy node type and legacy handle ids
through maps it declares (one at the top of the file, two inside the load function): gen
and check exit 0, the legacy names are warnings with the rename as the fix (never errors),
the schema document carries the maps (`x-load`) so `--schemas` agrees, doctor lists them,
and the skills never teach a legacy name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pygen.load_renames import LoadRenames
from pygen.validation.load_step import migrated
from tests.cli_run import fixture_case, run


def test_legacy_names_are_warnings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("load-step", tmp_path, monkeypatch)
    for extra in ((), ("--schemas", "skills/schemas/nodes.schema.json")):
        done = run(root, "validate-workflow", "--json", *extra, "saved/old.json",
                   monkeypatch=monkeypatch)
        assert done.exit_code == 0, done.output
        report = json.loads(done.stdout)
        assert (report["errors"], report["warnings"]) == (0, 3)
        assert [(f["rule"], f["path"], f["fix"]["value"]) for f in report["findings"]] == [
            ("legacy-name", "$.nodes[1].type", "modify-image"),
            ("legacy-name", "$.edges[0].targetHandle", "prompt"),
            ("legacy-name", "$.edges[1].sourceHandle", "image")]
        assert report["findings"][0]["message"].startswith(
            'migrated on load: "image-to-image" -> "modify-image"')
    fixed = run(root, "validate-workflow", "--fix", "saved/old.json", monkeypatch=monkeypatch)
    assert '"image-to-image"' not in fixed.stdout and '"prompt"' in fixed.stdout
    doctor = run(root, "doctor", monkeypatch=monkeypatch)
    assert 'migrated on load: saved/old.json: $.nodes[1].type: "image-to-image" -> ' \
        '"modify-image"' in doctor.output
    skills = "".join(p.read_text() for p in (root / "skills").rglob("*.md"))
    assert "image-to-image" not in skills


def test_renames_keep_what_the_catalog_declares() -> None:
    renames = LoadRenames(node_types={"old": "new", "still": "new"},
                          input_handles={"new": {"in": "prompt", "image": "picture"}})
    declared = {("new", "inputs"): ("prompt", "image")}
    doc = {"nodes": [{"id": "a", "type": "old"}, {"id": "b", "type": "still"}],
           "edges": [{"id": "e", "source": "b", "target": "a", "targetHandle": "in"},
                     {"id": "f", "source": "b", "target": "a", "targetHandle": "image"}]}
    out, found = migrated(doc, renames, lambda t, s: declared.get((t, s), ()), {"still"})
    # A type the catalog still declares is current; a declared handle is kept.
    assert [n["type"] for n in out["nodes"]] == ["new", "still"]
    assert [e["targetHandle"] for e in out["edges"]] == ["prompt", "image"]
    assert [f.path for f in found] == ["$.nodes[0].type", "$.edges[0].targetHandle"]
    assert doc["nodes"][0]["type"] == "old"  # the input is kept
