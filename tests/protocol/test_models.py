"""Wire shapes and reading them: camelCase, open and closed shapes, errors that name the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from pygen.protocol import (
    EditCut,
    EditPlan,
    MusicBrief,
    PostmortemNote,
    PromptAsset,
    ProtocolError,
    PublishBrief,
    SceneAsset,
    SceneSpec,
    SkillCallRequest,
    SkillCallStatus,
    protocol_schema,
    to_wire,
)
from pygen.protocol.loading import (
    json_path,
    load_patches,
    load_request,
    load_result,
    load_scenes,
    parse_json,
)
from pygen.protocol.rules import MEDIA_KEYS, STORY_KEYS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "protocol"
KINDS = "sceneSpecPatch, sceneAssets, promptSet, musicBrief, editPlan, publishBrief, postmortem"
REQUEST = {"requestId": "r1", "skillName": "prompts", "purpose": "p",
           "expectedOutputs": ["promptSet"]}
RESULT = {"requestId": "r1", "skillName": "prompts", "status": "planned", "summary": "s"}


def test_wire_names_are_camel_case_and_python_names_snake_case() -> None:
    asset = SceneAsset.model_validate({"sceneId": "s1", "targetId": "host"})
    assert (asset.scene_id, asset.target_id) == ("s1", "host")
    assert to_wire(asset) == {"sceneId": "s1", "targetId": "host"}
    assert SceneAsset(scene_id="s1") == SceneAsset.model_validate({"scene_id": "s1"})


def test_open_shapes_keep_extra_fields_on_the_way_through() -> None:
    data = {"id": "s1", "cameraMove": {"kind": "dolly"}, "subjects": [{"id": "a", "age": 9}]}
    assert to_wire(SceneSpec.model_validate(data)) == data


def test_whole_numbers_stay_whole() -> None:
    assert to_wire(SceneSpec.model_validate({"id": "s", "durationSeconds": 5})) == {
        "id": "s", "durationSeconds": 5, "subjects": []
    }
    assert to_wire(MusicBrief(tempo_bpm=92.5)) == {"tempoBpm": 92.5}


def test_statuses_are_the_seeds_five() -> None:
    assert [s.value for s in SkillCallStatus] == ["dryRun", "planned", "rendering", "done", "error"]


def test_request_status_defaults_to_dry_run() -> None:
    assert load_request(REQUEST, "r.json").status is SkillCallStatus.DRY_RUN


@pytest.mark.parametrize("model", [SceneAsset, PromptAsset, MusicBrief, EditPlan, EditCut,
                                   PublishBrief, PostmortemNote])
def test_no_other_output_declares_a_story_or_media_key(model: type[BaseModel]) -> None:
    # The story rule looks for these names outside sceneSpecPatch, so declaring one would make
    # every such output a violation.
    names = {field.alias or name for name, field in model.model_fields.items()}
    assert not names & STORY_KEYS
    if model is PromptAsset:
        assert not names & set(MEDIA_KEYS)


def test_story_keys_are_scene_spec_fields_or_scene_containers() -> None:
    scene_fields = {f.alias for f in SceneSpec.model_fields.values()}
    assert STORY_KEYS - scene_fields == {"sceneSpec", "sceneSpecs", "scenes"}


def test_json_path_spells_indexes_and_keys() -> None:
    assert json_path(("outputs", "sceneAssets", 0, "sceneId")) == "$.outputs.sceneAssets[0].sceneId"
    assert json_path(()) == "$"


def test_bad_json_names_file_line_and_column() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_json('{\n  "a": 1,\n}', "request.json")
    assert str(caught.value) == (
        "request.json:3:1: invalid JSON: Expecting property name enclosed in double quotes"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**REQUEST, "expectedOutputs": ["promptSet", "script"]},
         f"r.json: $.expectedOutputs[1]: unknown output kind 'script'; valid kinds: {KINDS}"),
        ({k: v for k, v in REQUEST.items() if k != "requestId"},
         "r.json: $.requestId: missing required field 'requestId'"),
        ({**REQUEST, "status": "planned"},
         "r.json: $.status: a request's status is always 'dryRun', not 'planned'"),
        ({**REQUEST, "skilName": "x"}, "r.json: $.skilName: unknown field 'skilName'"),
        ({**REQUEST, "expectedOutputs": []},
         "r.json: $.expectedOutputs: Tuple should have at least 1 item after validation, not 0"),
        ({**REQUEST, "inputs": {"sceneSpecs": [{"id": "a"}, {"id": "a"}]}},
         "r.json: $.inputs.sceneSpecs[1].id: duplicate scene id 'a'"),
        ([], "r.json: $: Input should be a valid dictionary or instance of SkillCallRequest"),
    ],
)
def test_request_errors_name_the_field(data: Any, message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        load_request(data, "r.json")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**RESULT, "outputs": {"scenes": []}},
         f"x.json: $.outputs.scenes: unknown output kind 'scenes'; valid kinds: {KINDS}"),
        ({**RESULT, "status": "finished"},
         "x.json: $.status: Input should be 'dryRun', 'planned', 'rendering', 'done' or 'error'"),
        ({**RESULT, "outputs": {"sceneAssets": [{"sceneId": 3}]}, "summary": None},
         "x.json: $.summary: Input should be a valid string (and 1 more)"),
    ],
)
def test_result_errors_name_the_field(data: Any, message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        load_result(data, "x.json")
    assert str(caught.value) == message


def test_scenes_come_as_an_array_or_under_scene_specs() -> None:
    scenes = [{"id": "a"}]
    assert load_scenes(scenes, "s") == load_scenes({"sceneSpecs": scenes}, "s")
    with pytest.raises(ProtocolError) as caught:
        load_scenes({"sceneSpecs": [{"id": "a", "subjects": [{"id": "x"}, {"id": "x"}]}]}, "s")
    assert str(caught.value) == "s: $.sceneSpecs[0].subjects[1].id: duplicate subject id 'x'"
    with pytest.raises(ProtocolError) as caught:
        load_scenes({"id": "a"}, "s")
    assert str(caught.value) == "s: $: expected a JSON array of scene specs"


def test_patches_come_as_an_array_or_inside_a_result() -> None:
    patches = [{"id": "a", "title": "t"}]
    from_result = load_patches({"outputs": {"sceneSpecPatch": patches}}, "p")
    assert load_patches(patches, "p") == from_result
    with pytest.raises(ProtocolError) as caught:
        load_patches({"outputs": {"sceneSpecPatch": [{"id": "a", "durationSeconds": -1}]}}, "p")
    assert str(caught.value) == (
        "p: $.outputs.sceneSpecPatch[0].durationSeconds: Input should be greater than or equal to 0"
    )


def fixture_documents() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.json"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = protocol_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", fixture_documents(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixtures_satisfy_the_published_json_schema(
    path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    validator.validate(json.loads(path.read_text(encoding="utf-8")))


def test_the_json_schema_refuses_what_the_models_refuse(
    validator: jsonschema.Draft202012Validator,
) -> None:
    assert validator.is_valid({**REQUEST})
    assert not validator.is_valid({**REQUEST, "expectedOutputs": ["script"]})
    assert not validator.is_valid({**RESULT, "outputs": {"scenes": []}})


def test_models_are_immutable() -> None:
    request = SkillCallRequest.model_validate(REQUEST)
    with pytest.raises(ValueError, match="frozen"):
        request.purpose = "other"  # type: ignore[misc]
