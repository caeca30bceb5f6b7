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


def test_renames_keep_declared_handles_and_win_over_declared_types() -> None:
    renames = LoadRenames(node_types={"old": "new", "still": "new"},
                          input_handles={"new": {"in": "prompt", "image": "picture"}})
    declared = {("new", "inputs"): ("prompt", "image")}
    doc = {"nodes": [{"id": "a", "type": "old"}, {"id": "b", "type": "still"}],
           "edges": [{"id": "e", "source": "b", "target": "a", "targetHandle": "in"},
                     {"id": "f", "source": "b", "target": "a", "targetHandle": "image"}]}
    out, found = migrated(doc, renames, lambda t, s: declared.get((t, s), ()))
    # The loader rewrites "still" although the catalog declares it (the loaded workflow has
    # the new type); a rename onto a handle the type does not declare is not made.
    assert [n["type"] for n in out["nodes"]] == ["new", "new"]
    assert [e["targetHandle"] for e in out["edges"]] == ["prompt", "image"]
    assert [f.path for f in found] == ["$.nodes[0].type", "$.nodes[1].type",
                                       "$.edges[0].targetHandle"]
    assert doc["nodes"][0]["type"] == "old"  # the input is kept


def test_a_type_picked_by_a_data_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A legacy type the load code splits by a value of the node's data: each node becomes
    the type its value picks (a warning), and a value no branch names keeps the legacy type,
    which the catalog does not declare (an error): the loader leaves that node as it was."""
    root = fixture_case("load-step", tmp_path, monkeypatch)
    for extra in ((), ("--schemas", "skills/schemas/nodes.schema.json")):
        done = run(root, "validate-workflow", "--json", *extra, "saved/split.json",
                   monkeypatch=monkeypatch)
        report = json.loads(done.stdout)
        assert [(f["level"], f["rule"], f["path"]) for f in report["findings"]] == [
            ("warning", "legacy-name", "$.nodes[0].type"),
            ("warning", "legacy-name", "$.nodes[1].type"),
            # the key the branch read stays in the data; the new types do not declare it
            ("warning", "unknown-field", "$.nodes[0].data.tool"),
            ("warning", "unknown-field", "$.nodes[1].data.tool"),
            ("error", "unknown-node-type", "$.nodes[2].type")], report
        assert [f["fix"]["value"] for f in report["findings"][:2]] == ["modify-image", "prompt"]
        assert done.exit_code == 1


def test_by_data_reads_a_nested_key_and_takes_the_last_else() -> None:
    renames = LoadRenames.model_validate({"node_types_by_data": {"old": {
        "key": "opts.engine", "values": {"a": "first"}, "otherwise": "second"}}})
    doc = {"nodes": [{"id": "x", "type": "old", "data": {"opts": {"engine": "a"}}},
                     {"id": "y", "type": "old", "data": {"opts": {"engine": "z"}}},
                     {"id": "z", "type": "old", "data": {}}],
           "edges": []}
    out, found = migrated(doc, renames, lambda t, s: ())
    assert [n["type"] for n in out["nodes"]] == ["first", "second", "second"]
    assert len(found) == 3


def test_handles_a_function_reassigns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A load-step function that reassigns modify-image's target handles by code (no map):
    the edge end it rewrites is not judged, one warning names the function; an end on a
    type it does not list (modify-image's output) is still an error. An id the load step's
    map rewrites to, which the catalog lacks, is a warning that the catalog is stale."""
    root = fixture_case("load-step", tmp_path, monkeypatch)
    for extra in ((), ("--schemas", "skills/schemas/nodes.schema.json")):
        done = run(root, "validate-workflow", "--json", *extra, "saved/routed.json",
                   monkeypatch=monkeypatch)
        report = json.loads(done.stdout)
        assert [(f["level"], f["rule"], f["path"]) for f in report["findings"]] == [
            ("error", "edge-handle", "$.edges[1].sourceHandle"),
            # the id the load step's own map writes: the catalog is what is out of date
            ("warning", "edge-handle", "$.edges[2].sourceHandle"),
            ("warning", "legacy-name", "$.edges")], report
        assert report["findings"][1]["message"].startswith(
            '"words" is what the editor\'s load step rewrites "text" to on prompt')
        assert "routeByFamily (src/store/migrate.ts)" in report["findings"][2]["message"]
    doctor = run(root, "doctor", monkeypatch=monkeypatch)
    assert "saved/routed.json: $.edges: edge handles of \"modify-image\" not judged" in \
        doctor.output, doctor.output
