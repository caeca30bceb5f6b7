"""Every binding and status rule: a valid base, one change, exactly the expected violation."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from pygen.protocol import Violation, validate
from pygen.protocol.loading import load_request, load_result, load_scenes
from pygen.protocol.registry import Registry, parse_registry

REGISTRY = parse_registry(
    {
        "skills": [
            {"name": "prompts", "asks": "prompts", "outputs": ["promptSet"],
             "optional_outputs": ["sceneAssets"], "ready": True},
            {"name": "breakdown", "asks": "scene logic", "outputs": ["sceneSpecPatch"],
             "optional_outputs": ["sceneAssets"], "ready": True},
            {"name": "editor", "asks": "cuts", "outputs": ["editPlan"]},
            {"name": "music", "asks": "music", "outputs": ["musicBrief"], "ready": True},
        ]
    },
    "test-registry.toml",
)

SCENES = [
    {"id": "s1", "beat": "hook", "subjects": [{"id": "host"}, {"id": "sun"}]},
    {"id": "s2", "beat": "explanation", "subjects": [{"id": "ray"}]},
]

REQUEST = {
    "requestId": "r1",
    "skillName": "prompts",
    "purpose": "prompts for the hook",
    "expectedOutputs": ["promptSet", "sceneAssets"],
}

RESULT = {
    "requestId": "r1",
    "skillName": "prompts",
    "status": "planned",
    "summary": "two outputs",
    "outputs": {
        "promptSet": [{"sceneId": "s1", "targetId": "sun", "prompt": "a friendly sun"}],
        "sceneAssets": [{"sceneId": "s2", "targetId": "ray", "kind": "svg"}],
    },
    "logs": [],
}


def check(
    result: dict[str, Any],
    request: dict[str, Any] = REQUEST,
    scenes: list[dict[str, Any]] = SCENES,
    registry: Registry = REGISTRY,
) -> list[Violation]:
    return validate(
        load_result(result, "result.json"),
        load_request(request, "request.json"),
        load_scenes(scenes, "scenes.json"),
        registry,
    )


def changed(
    change: Callable[[dict[str, Any]], None], base: dict[str, Any] = RESULT
) -> dict[str, Any]:
    data = copy.deepcopy(base)
    change(data)
    return data


def v(path: str, rule: str, message: str) -> Violation:
    return Violation(path=path, rule=rule, message=message)


def test_base_result_is_valid() -> None:
    assert check(RESULT) == []


def test_request_id_must_match() -> None:
    result = changed(lambda r: r.update(requestId="r2"))
    assert check(result) == [
        v("$.requestId", "request-id", "'r2' does not match the request's 'r1'")
    ]


def test_skill_name_must_match() -> None:
    result = changed(lambda r: r.update(skillName="music"))
    assert check(result) == [
        v("$.skillName", "skill-name", "'music' does not match the request's 'prompts'")
    ]


@pytest.mark.parametrize("status", ["rendering", "done"])
def test_rendering_and_done_are_refused_in_v1(status: str) -> None:
    result = changed(lambda r: r.update(status=status))
    assert check(result) == [
        v("$.status", "status-v1",
          f"'{status}' is not allowed in v1; return dryRun, planned or error "
          "(no skill is executed yet)")
    ]


def test_planned_needs_a_ready_skill() -> None:
    request = {**REQUEST, "skillName": "editor", "expectedOutputs": ["editPlan"]}
    plan = {"editPlan": {"cuts": [{"sceneId": "s1"}]}}
    result = {**RESULT, "skillName": "editor", "outputs": plan}
    assert check(result, request) == [
        v("$.status", "planned-not-ready",
          "'editor' has no response design ready yet, so it cannot plan; return dryRun")
    ]
    assert check({**result, "status": "dryRun", "outputs": {}}, request) == []


def test_dry_run_carries_no_outputs() -> None:
    result = changed(lambda r: r.update(status="dryRun"))
    message = ("a dryRun result describes the request only and carries no outputs; "
               "drop them or return planned")
    assert check(result) == [
        v("$.outputs.sceneAssets", "dry-run-outputs", message),
        v("$.outputs.promptSet", "dry-run-outputs", message),
    ]


def test_error_needs_a_reason() -> None:
    result = {**RESULT, "status": "error", "outputs": {}, "recovery": "retry with a brief"}
    assert check(result) == [
        v("$.error", "error-reason", "an error result must say why in error")
    ]
    assert check({**result, "error": "   "})[0].rule == "error-reason"


def test_error_needs_a_recovery_step() -> None:
    result = {**RESULT, "status": "error", "outputs": {}, "error": "no scenes given"}
    assert check(result) == [
        v("$.recovery", "error-recovery", "an error result must give a recovery step in recovery")
    ]


def test_error_with_reason_and_recovery_is_valid() -> None:
    result = {**RESULT, "status": "error", "outputs": {}, "error": "no scenes given",
              "recovery": "resend with inputs.sceneSpecs"}
    assert check(result) == []


def test_error_text_needs_error_status() -> None:
    result = changed(lambda r: r.update(error="oops"))
    assert check(result) == [
        v("$.error", "error-status", "error is set but status is 'planned'; set status to error")
    ]


def test_output_kind_must_be_expected() -> None:
    request = {**REQUEST, "expectedOutputs": ["promptSet"]}
    assert check(RESULT, request) == [
        v("$.outputs.sceneAssets", "kind-not-expected",
          "'sceneAssets' is not in the request's expectedOutputs (promptSet)")
    ]


def test_output_kind_must_be_allowed_for_the_skill() -> None:
    request = {**REQUEST, "expectedOutputs": ["promptSet", "sceneAssets", "musicBrief"]}
    result = changed(lambda r: r["outputs"].update(musicBrief={"mood": "calm"}))
    assert check(result, request) == [
        v("$.outputs.musicBrief", "kind-not-allowed",
          "skill 'prompts' does not return 'musicBrief'; it returns: promptSet, sceneAssets")
    ]


@pytest.mark.parametrize("kind", ["promptSet", "sceneAssets"])
def test_asset_like_outputs_need_a_scene_id(kind: str) -> None:
    result = changed(lambda r: r["outputs"][kind][0].pop("sceneId"))
    assert check(result) == [
        v(f"$.outputs.{kind}[0].sceneId", "scene-id-missing",
          "every asset-like output must name its scene in sceneId")
    ]


def test_scene_id_must_name_a_scene() -> None:
    result = changed(lambda r: r["outputs"]["sceneAssets"][0].update(sceneId="s9"))
    assert check(result) == [
        v("$.outputs.sceneAssets[0].sceneId", "scene-id-unknown",
          "no scene has id 's9'; known: s1, s2")
    ]


@pytest.mark.parametrize("kind", ["promptSet", "sceneAssets"])
def test_target_id_must_be_a_subject_of_that_scene(kind: str) -> None:
    # `host` is a subject, but of s1; the sceneAssets entry is bound to s2.
    def change(r: dict[str, Any]) -> None:
        r["outputs"][kind][0].update(sceneId="s2", targetId="host")

    assert check(changed(change)) == [
        v(f"$.outputs.{kind}[0].targetId", "target-id-unknown",
          "'host' is not a subjects[].id of scene 's2'; its subjects: ray")
    ]


def test_target_id_is_optional() -> None:
    result = changed(lambda r: r["outputs"]["sceneAssets"][0].pop("targetId"))
    assert check(result) == []


def test_prompt_set_entries_carry_prompt_text() -> None:
    result = changed(lambda r: r["outputs"]["promptSet"][0].update(prompt="  "))
    assert check(result) == [
        v("$.outputs.promptSet[0].prompt", "prompt-text",
          "a promptSet entry must carry its prompt text in prompt")
    ]


def test_media_in_a_prompt_set_belongs_in_scene_assets() -> None:
    result = changed(lambda r: r["outputs"]["promptSet"][0].update(src="sun.png"))
    assert check(result) == [
        v("$.outputs.promptSet[0].src", "asset-outside-scene-assets",
          "a promptSet entry carries media in 'src'; produced or requested assets go in "
          "sceneAssets")
    ]


BREAKDOWN_REQUEST = {**REQUEST, "skillName": "breakdown",
                     "expectedOutputs": ["sceneSpecPatch", "sceneAssets"]}
BREAKDOWN = {
    **RESULT,
    "skillName": "breakdown",
    "outputs": {"sceneSpecPatch": [{"id": "s2", "narration": "shorter"}]},
}


def test_breakdown_base_is_valid() -> None:
    assert check(BREAKDOWN, BREAKDOWN_REQUEST) == []


def test_a_patch_names_its_scene() -> None:
    result = changed(lambda r: r["outputs"]["sceneSpecPatch"][0].pop("id"), BREAKDOWN)
    assert check(result, BREAKDOWN_REQUEST) == [
        v("$.outputs.sceneSpecPatch[0].id", "patch-id",
          "a sceneSpecPatch entry must name the scene it changes in id")
    ]


def test_a_patch_keeps_subject_ids_unique() -> None:
    def change(r: dict[str, Any]) -> None:
        twice = [{"id": "a"}, {"id": "a"}]
        r["outputs"]["sceneSpecPatch"].insert(0, {"id": "s1", "subjects": twice})

    assert check(changed(change, BREAKDOWN), BREAKDOWN_REQUEST) == [
        v("$.outputs.sceneSpecPatch[0].subjects[1].id", "patch-invalid",
          "duplicate subject id 'a'")
    ]


def test_assets_may_bind_to_scenes_and_subjects_the_result_adds() -> None:
    def change(r: dict[str, Any]) -> None:
        r["outputs"]["sceneSpecPatch"].append({"id": "s3", "subjects": [{"id": "moon"}]})
        r["outputs"]["sceneAssets"] = [{"sceneId": "s3", "targetId": "moon"}]

    result = changed(change, BREAKDOWN)
    assert check(result, BREAKDOWN_REQUEST) == []
    result["outputs"].pop("sceneSpecPatch")
    assert [x.rule for x in check(result, BREAKDOWN_REQUEST)] == ["scene-id-unknown"]


def test_a_patch_that_replaces_subjects_rebinds_targets() -> None:
    def change(r: dict[str, Any]) -> None:
        r["outputs"]["sceneSpecPatch"] = [{"id": "s2", "subjects": [{"id": "prism"}]}]
        r["outputs"]["sceneAssets"] = [{"sceneId": "s2", "targetId": "ray"}]

    assert check(changed(change, BREAKDOWN), BREAKDOWN_REQUEST) == [
        v("$.outputs.sceneAssets[0].targetId", "target-id-unknown",
          "'ray' is not a subjects[].id of scene 's2'; its subjects: prism")
    ]


@pytest.mark.parametrize(
    ("kind", "value", "path"),
    [
        ("sceneAssets", [{"sceneId": "s1", "narration": "new line"}],
         "$.outputs.sceneAssets[0].narration"),
        ("promptSet", [{"sceneId": "s1", "prompt": "p", "subjects": [{"id": "x"}]}],
         "$.outputs.promptSet[0].subjects"),
        ("musicBrief", {"mood": "calm", "meta": {"scenes": []}},
         "$.outputs.musicBrief.meta.scenes"),
    ],
)
def test_story_changes_outside_scene_spec_patch_are_refused(
    kind: str, value: Any, path: str
) -> None:
    request = {**REQUEST, "skillName": "music", "expectedOutputs": ["musicBrief"]}
    base = {**RESULT, "skillName": "music", "outputs": {}}
    if kind != "musicBrief":
        request, base = REQUEST, {**RESULT, "outputs": {}}
    result = {**base, "outputs": {kind: value}}
    name = path.rsplit(".", 1)[-1]
    assert check(result, request) == [
        v(path, "story-outside-patch",
          f"'{name}' changes the story; return story changes as sceneSpecPatch")
    ]


def test_story_fields_inside_a_patch_are_fine() -> None:
    result = changed(
        lambda r: r["outputs"]["sceneSpecPatch"][0].update(beat="payoff", subjects=[{"id": "x"}]),
        BREAKDOWN,
    )
    assert check(result, BREAKDOWN_REQUEST) == []


def test_an_edit_plan_cut_must_name_a_real_scene() -> None:
    request = {**REQUEST, "skillName": "editor", "expectedOutputs": ["editPlan"]}
    result = {**RESULT, "skillName": "editor", "status": "error", "error": "no media",
              "recovery": "render first",
              "outputs": {"editPlan": {"cuts": [{"sceneId": "s1"}, {"sceneId": "s7"}, {}]}}}
    assert check(result, request) == [
        v("$.outputs.editPlan.cuts[1].sceneId", "scene-id-unknown", "no scene has id 's7'")
    ]


def test_all_violations_are_reported_in_document_order() -> None:
    def change(r: dict[str, Any]) -> None:
        r.update(requestId="x", status="done")
        r["outputs"]["promptSet"][0].pop("sceneId")

    assert [x.rule for x in check(changed(change))] == [
        "request-id", "status-v1", "scene-id-missing"
    ]


def test_a_request_for_an_unknown_skill_is_one_finding_with_a_did_you_mean() -> None:
    found = check({**RESULT, "skillName": "prompt"}, {**REQUEST, "skillName": "prompt"})
    assert found == [v("$.skillName", "skill-unknown",
                       "in the request: unknown skill 'prompt' (did you mean 'prompts'?); "
                       "callable skills: prompts, breakdown, editor, music")]


def test_violation_prints_path_message_and_rule() -> None:
    assert str(v("$.status", "status-v1", "no")) == "$.status: no [status-v1]"
