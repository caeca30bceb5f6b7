"""What the editor's code shows, validated end to end (real ts-morph, the real CLI): a
hand-written project whose node list is older than its components. The mixer's component
draws its output as "video-out" (a map of drawn handles the code keeps, config
`load_step.drawn_outputs`) while the list says "video"; the mixer's and the upscaler's
required fields are read only with a fallback or never (conventions `fallback_fields`), and a
saved workflow leaves them out. gen and check exit 0 on it (check validates saved workflows);
the drawn handle is a warning that the catalog is stale, the left-out fields are notes, and
`strict` still reports the fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pygen.config import load_config
from pygen.extract.load_step import read_load_step
from pygen.load_renames import LoadRenames
from pygen.validation.findings import error_at
from pygen.validation.load_step import rewritten_in_code
from tests.cli_run import fixture_case, run


def findings(root: Path, monkeypatch: pytest.MonkeyPatch,
             *extra: str) -> list[tuple[str, str, str]]:
    done = run(root, "validate-workflow", "--json", *extra, "saved/run.json",
               monkeypatch=monkeypatch)
    report = json.loads(done.stdout)
    assert report["errors"] == 0 or "strict" in extra, report
    return [(f["level"], f["rule"], f["path"]) for f in report["findings"]]


def test_what_the_code_draws_and_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("drawn-handles", tmp_path, monkeypatch)
    for extra in ((), ("--schemas", "skills/schemas/nodes.schema.json")):
        got = findings(root, monkeypatch, *extra)
        assert got == [("info", "required", "$.nodes[1].data.voiceLevel"),
                       ("info", "required", "$.nodes[1].data.legacyMode"),
                       ("info", "required", "$.nodes[2].data.factor"),
                       ("warning", "edge-handle", "$.edges[1].sourceHandle")], got
    done = run(root, "validate-workflow", "--json", "saved/run.json", monkeypatch=monkeypatch)
    messages = [f["message"] for f in json.loads(done.stdout)["findings"]]
    assert messages[-1].startswith('"video-out" is a handle the editor draws on mixer')
    assert "reads it with a fallback (conventions fallback_fields)" in messages[0]
    strict = run(root, "validate-workflow", "--json", "--profile", "strict", "saved/run.json",
                 monkeypatch=monkeypatch)
    assert strict.exit_code != 0
    required = sorted(f["path"] for f in json.loads(strict.stdout)["findings"]
                      if f["rule"] == "required")
    assert required == ["$.nodes[1].data.legacyMode", "$.nodes[1].data.voiceLevel",
                        "$.nodes[2].data.factor"], required


def test_without_the_config_the_same_workflow_fails(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("drawn-handles", tmp_path, monkeypatch)
    (root / "pygen.toml").write_text('nodes_file = "src/nodes.ts"\n')
    assert run(root, "gen", "-q", monkeypatch=monkeypatch).exit_code == 0
    done = run(root, "validate-workflow", "--json", "saved/run.json", monkeypatch=monkeypatch)
    assert done.exit_code == 1
    got = {(f["level"], f["rule"], f["path"]) for f in json.loads(done.stdout)["findings"]}
    assert ("error", "edge-handle", "$.edges[1].sourceHandle") in got
    assert ("error", "required", "$.nodes[2].data.factor") in got


def test_a_drawn_id_answers_only_for_its_own_type_and_side() -> None:
    renames = LoadRenames(drawn_outputs={"mixer": ("video-out",)})
    workflow = {"nodes": [{"id": "m", "type": "mixer"}, {"id": "u", "type": "upscaler"}],
                "edges": [{"source": "m", "sourceHandle": "video-out", "target": "u",
                           "targetHandle": "video-out"},
                          {"source": "u", "sourceHandle": "video-out", "target": "m"}]}
    found = [error_at("$.edges[0].sourceHandle", "x", rule="edge-handle"),
             error_at("$.edges[0].targetHandle", "x", rule="edge-handle"),
             error_at("$.edges[1].sourceHandle", "x", rule="edge-handle")]
    assert [(f.level, f.path) for f in rewritten_in_code(found, workflow, renames)] == [
        ("warning", "$.edges[0].sourceHandle"), ("error", "$.edges[0].targetHandle"),
        ("error", "$.edges[1].sourceHandle")]


def test_a_drawn_map_of_another_shape_is_one_warning(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = fixture_case("drawn-handles", tmp_path, monkeypatch)
    handles = root / "src" / "handles.ts"
    handles.write_text(handles.read_text() + 'export const FLAT = { mixer: "video-out" };\n')
    toml = root / "pygen.toml"
    toml.write_text(toml.read_text().replace(
        '"src/handles.ts:DRAWN_OUTPUTS"',
        '["src/handles.ts:FLAT", "src/handles.ts:DRAWN_OUTPUTS"]'))
    step, notes = read_load_step(load_config(toml))
    assert step.drawn_outputs == {"clip": ("video",), "mixer": ("video-out",),
                                  "upscaler": ("video",)}
    assert [n.message for n in notes] == [
        "load_step.drawn_outputs: src/handles.ts:FLAT is not a map of {node type: {handle id: "
        "string}}; it is left out"]

