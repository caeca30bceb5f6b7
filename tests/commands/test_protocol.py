"""`pygen protocol ...` through click's runner: exact output and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

from pygen.cli import main

REPO = Path(__file__).resolve().parents[2]
REGISTRY = REPO / "skills" / "protocol" / "registry.toml"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "protocol"
KINDS = "sceneSpecPatch, sceneAssets, promptSet, musicBrief, editPlan, publishBrief, postmortem"

# The worked example of skills/protocol/skill-call.md.
REQUEST = {
    "requestId": "req-042",
    "skillName": "aigc-prompt-optimizer",
    "purpose": "write an image prompt for the sun in the hook scene",
    "inputs": {"targetSceneIds": ["s1-hook"], "targetSubjectIds": ["sun"]},
    "expectedOutputs": ["promptSet"],
}
SCENES = [{"id": "s1-hook", "beat": "hook", "subjects": [{"id": "host"}, {"id": "sun"}]}]
VALID = {
    "requestId": "req-042",
    "skillName": "aigc-prompt-optimizer",
    "status": "planned",
    "summary": "One prompt for the sun.",
    "outputs": {"promptSet": [{"sceneId": "s1-hook", "targetId": "sun",
                               "prompt": "flat vector sun, friendly face, clear sky"}]},
    "logs": [],
}
INVALID = {
    **VALID,
    "status": "done",
    "outputs": {
        "promptSet": [{"targetId": "sun", "prompt": "flat vector sun, friendly face, clear sky"}],
        "sceneAssets": [{"sceneId": "s1-hook", "targetId": "moon", "kind": "image",
                         "src": "sun.png"}],
    },
}
INVALID_LINES = [
    "result.json: $.status: 'done' is not allowed in v1; return dryRun, planned or error "
    "(no skill is executed yet) [status-v1]",
    "result.json: $.outputs.sceneAssets: 'sceneAssets' is not in the request's expectedOutputs "
    "(promptSet) [kind-not-expected]",
    "result.json: $.outputs.sceneAssets[0].targetId: 'moon' is not a subjects[].id of scene "
    "'s1-hook'; its subjects: host, sun [target-id-unknown]",
    "result.json: $.outputs.promptSet[0].sceneId: every asset-like output must name its scene "
    "in sceneId [scene-id-missing]",
]


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name, data in [("request.json", REQUEST), ("scenes.json", SCENES),
                       ("valid.json", VALID), ("result.json", INVALID)]:
        (tmp_path / name).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return tmp_path


def run(*args: str, stdin: str | None = None, registry: Path | None = REGISTRY) -> Result:
    prefix = ["protocol", "--registry", str(registry)] if registry else ["protocol"]
    return CliRunner().invoke(main, [*prefix, *args], input=stdin)


def as_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


PLANNED = {
    "requestId": "req-042",
    "skillName": "aigc-prompt-optimizer",
    "status": "planned",
    "summary": "planned: a call to aigc-prompt-optimizer for \"write an image prompt for the sun "
               "in the hook scene\", expecting promptSet.",
    "outputs": {},
    "logs": [
        "skill: aigc-prompt-optimizer, asked for: prompts for visual assets, SVG/image/video "
        "references",
        "expected outputs: promptSet",
        "inputs: targetSceneIds (1), targetSubjectIds (1)",
        "status planned: the registry marks its response design ready",
        "not executed: v1 plans calls only; the skill's files were not read",
    ],
}


def test_plan_prints_the_planned_result(work: Path) -> None:
    result = run("plan", "request.json")
    assert (result.exit_code, result.stdout, result.stderr) == (0, as_json(PLANNED), "")


def test_plan_reads_stdin(work: Path) -> None:
    result = run("plan", "-", stdin=json.dumps(REQUEST))
    assert (result.exit_code, result.stdout) == (0, as_json(PLANNED))


def test_plan_prints_text_that_looks_like_markup_verbatim(work: Path) -> None:
    purpose = "draw [bold]the sun[/bold] :sun: " + "x" * 120
    result = run("plan", "-", stdin=json.dumps({**REQUEST, "purpose": purpose}))
    assert json.loads(result.stdout)["summary"] == (
        f"planned: a call to aigc-prompt-optimizer for \"{purpose}\", expecting promptSet."
    )


@pytest.mark.parametrize(
    ("request_data", "message"),
    [
        ({**REQUEST, "skillName": "nope"},
         "request.json: $.skillName: unknown skill 'nope'; callable skills: "
         "ai-short-film-breakdown, aigc-prompt-optimizer, prompt-master, blind-editing-workflow, "
         "suno-music-brief, character-consistency-mj, content-publish-sop, aigc-postmortem"),
        ({**REQUEST, "expectedOutputs": ["promptSet", "editPlan"]},
         "request.json: $.expectedOutputs[1]: skill 'aigc-prompt-optimizer' does not return "
         "'editPlan'; it returns: promptSet, sceneAssets"),
        ({**REQUEST, "expectedOutputs": ["prompts"]},
         "request.json: $.expectedOutputs[0]: unknown output kind 'prompts'; "
         f"valid kinds: {KINDS}"),
    ],
)
def test_plan_errors_exit_2_naming_the_field(
    work: Path, request_data: dict[str, Any], message: str
) -> None:
    (work / "request.json").write_text(json.dumps(request_data), encoding="utf-8")
    result = run("plan", "request.json")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


def test_bad_json_and_missing_files_exit_2(work: Path) -> None:
    result = run("plan", "-", stdin='{"requestId": "r1",}')
    assert (result.exit_code, result.stderr) == (
        2, "error: <stdin>:1:20: invalid JSON: Expecting property name enclosed in double quotes\n"
    )
    result = run("plan", "nothing.json")
    assert (result.exit_code, result.stderr) == (
        2, "error: nothing.json: cannot read: No such file or directory\n"
    )


def test_validate_a_valid_result_exits_0(work: Path) -> None:
    result = run("validate", "valid.json", "--request", "request.json", "--scenes", "scenes.json")
    assert (result.exit_code, result.stdout) == (0, "valid.json: valid\n")


def test_validate_prints_every_violation_and_exits_1(work: Path) -> None:
    result = run("validate", "result.json", "--request", "request.json", "--scenes", "scenes.json")
    assert (result.exit_code, result.stdout.splitlines(), result.stderr) == (1, INVALID_LINES, "")


def test_the_documented_example_matches_the_cli() -> None:
    doc = (REPO / "skills" / "protocol" / "skill-call.md").read_text(encoding="utf-8")
    for line in INVALID_LINES:
        assert line in doc


def test_validate_json_report(work: Path) -> None:
    result = run("validate", "result.json", "--request", "request.json", "--scenes", "scenes.json",
                 "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1
    assert report["valid"] is False
    assert report["violations"][0] == {
        "path": "$.status", "rule": "status-v1",
        "message": "'done' is not allowed in v1; return dryRun, planned or error "
                   "(no skill is executed yet)",
    }
    assert [v["rule"] for v in report["violations"]] == [
        "status-v1", "kind-not-expected", "target-id-unknown", "scene-id-missing"
    ]
    ok = run("validate", "valid.json", "--request", "request.json", "--scenes", "scenes.json",
             "--json")
    assert (ok.exit_code, ok.stdout) == (0, as_json({"valid": True, "violations": []}))


def test_validate_reads_the_result_from_stdin(work: Path) -> None:
    result = run("validate", "-", "--request", "request.json", "--scenes", "scenes.json",
                 stdin=json.dumps(VALID))
    assert (result.exit_code, result.stdout) == (0, "<stdin>: valid\n")


def test_validate_errors_exit_2(work: Path) -> None:
    bad = json.dumps({**VALID, "outputs": {"clips": []}})
    (work / "bad.json").write_text(bad, encoding="utf-8")
    result = run("validate", "bad.json", "--request", "request.json", "--scenes", "scenes.json")
    assert (result.exit_code, result.stderr) == (
        2, f"error: bad.json: $.outputs.clips: unknown output kind 'clips'; valid kinds: {KINDS}\n"
    )
    result = run("validate", "-", "--request", "-", "--scenes", "scenes.json", stdin="{}")
    assert (result.exit_code, result.stderr) == (
        2, "error: only one input can be read from stdin ('-')\n"
    )
    missing = run("validate", "valid.json", "--request", "request.json")
    assert missing.exit_code == 2
    assert "Missing option '--scenes'" in missing.stderr


def test_apply_prints_patched_scenes_and_leaves_files_alone(tmp_path: Path) -> None:
    scenes = shutil.copy(FIXTURES / "scenes.json", tmp_path / "scenes.json")
    patches = shutil.copy(FIXTURES / "patches.json", tmp_path / "patches.json")
    before = (Path(scenes).read_bytes(), Path(patches).read_bytes())
    result = run("apply", str(scenes), str(patches), registry=None)
    out = json.loads(result.stdout)
    assert result.exit_code == 0
    assert [s["id"] for s in out] == ["s1-hook", "s2-scatter", "s3-sunset", "s4-recap"]
    assert out[0]["durationSeconds"] == 5 and "narration" not in out[0]
    assert out[3] == {"id": "s4-recap", "title": "Recap", "subjects": [{"id": "host"}]}
    assert out[1] == json.loads((FIXTURES / "scenes.json").read_text(encoding="utf-8"))[1]
    assert (Path(scenes).read_bytes(), Path(patches).read_bytes()) == before


def test_apply_takes_a_result_as_the_patch_file(tmp_path: Path) -> None:
    result_file = FIXTURES / "ai-short-film-breakdown" / "result.json"
    result = run("apply", str(FIXTURES / "scenes.json"), "-", registry=None,
                 stdin=result_file.read_text(encoding="utf-8"))
    assert [s["id"] for s in json.loads(result.stdout)][-1] == "s4-recap"


def test_apply_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenes.json").write_text('[{"id": "a"}]', encoding="utf-8")
    (tmp_path / "patches.json").write_text('[{"title": "t"}]', encoding="utf-8")
    result = run("apply", "scenes.json", "patches.json", registry=None)
    assert (result.exit_code, result.stderr) == (
        2, "error: patches.json: $[0].id: a sceneSpecPatch entry needs the id of the scene it "
           "changes\n"
    )


def test_schema_is_a_valid_json_schema_for_the_fixtures() -> None:
    result = run("schema", registry=None)
    schema = json.loads(result.stdout)
    assert result.exit_code == 0
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["anyOf"] == [{"$ref": "#/$defs/SkillCallRequest"},
                               {"$ref": "#/$defs/SkillCallResult"}]
    request = json.loads((FIXTURES / "prompt-master" / "request.json").read_text(encoding="utf-8"))
    jsonschema.validate(request, schema, cls=jsonschema.Draft202012Validator)


def test_the_registry_defaults_to_the_configured_skills_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pygen.toml").write_text('nodes_file = "n.ts"\nskills_dir = "sk"\n',
                                         encoding="utf-8")
    (tmp_path / "sk" / "protocol").mkdir(parents=True)
    (tmp_path / "sk" / "protocol" / "registry.toml").write_text(
        '[[skills]]\nname = "only"\nasks = "a"\noutputs = ["promptSet"]\n', encoding="utf-8")
    (tmp_path / "deeper").mkdir()
    monkeypatch.chdir(tmp_path / "deeper")
    request = {**REQUEST, "skillName": "only"}
    result = run("plan", "-", stdin=json.dumps(request), registry=None)
    assert (result.exit_code, json.loads(result.stdout)["status"]) == (0, "dryRun")


def test_without_config_or_registry_option_it_says_what_to_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("plan", "-", stdin=json.dumps(REQUEST), registry=None)
    assert (result.exit_code, result.stderr) == (
        2, f"error: {tmp_path}: no pygen configuration found to locate the skill registry; "
           "pass --registry PATH\n"
    )


def test_a_bad_registry_exits_2_naming_file_and_field(work: Path) -> None:
    bad = work / "reg.toml"
    bad.write_text('[[skills]]\nname = "x"\nasks = "a"\noutputs = ["clips"]\n', encoding="utf-8")
    result = run("plan", "request.json", registry=bad)
    assert (result.exit_code, result.stderr) == (
        2, f"error: {bad}: skills[0].outputs[0] (skill 'x'): unknown output kind 'clips'; "
           f"valid kinds: {KINDS}\n"
    )
