"""Property tests: generated valid results pass; one injected fault yields exactly its rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pygen.protocol import load_registry, plan, validate
from pygen.protocol.loading import load_request, load_result, load_scenes
from pygen.protocol.rules import STORY_KEYS

REPO = Path(__file__).resolve().parents[2]
REGISTRY = load_registry(REPO / "skills" / "protocol" / "registry.toml")
NAMES = st.text("abcdefgh-", min_size=1, max_size=6)


@st.composite
def scene_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    scene_ids = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    return [
        {"id": scene_id,
         "subjects": [{"id": s} for s in draw(st.lists(NAMES, max_size=3, unique=True))]}
        for scene_id in scene_ids
    ]


@st.composite
def bound(draw: st.DrawFn, scenes: list[dict[str, Any]]) -> dict[str, Any]:
    """An asset-like output bound to a scene and, maybe, one of its subjects."""
    scene = draw(st.sampled_from(scenes))
    prompt = draw(st.text("xyz ", max_size=5)) + "p"
    item: dict[str, Any] = {"sceneId": scene["id"], "prompt": prompt}
    if scene["subjects"] and draw(st.booleans()):
        item["targetId"] = draw(st.sampled_from(scene["subjects"]))["id"]
    return item


@st.composite
def valid_cases(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """(result, request, scenes) for a ready skill that returns promptSet and sceneAssets."""
    scenes = draw(scene_lists())
    request = {"requestId": draw(NAMES), "skillName": "aigc-prompt-optimizer", "purpose": "p",
               "expectedOutputs": ["promptSet", "sceneAssets"]}
    outputs: dict[str, Any] = {
        "promptSet": draw(st.lists(bound(scenes), min_size=1, max_size=3)),
    }
    if draw(st.booleans()):
        outputs["sceneAssets"] = draw(st.lists(bound(scenes), min_size=1, max_size=3))
    result = {"requestId": request["requestId"], "skillName": request["skillName"],
              "status": "planned", "summary": "s", "outputs": outputs, "logs": []}
    return result, request, scenes


def check(result: dict[str, Any], request: dict[str, Any], scenes: list[dict[str, Any]]) -> Any:
    return validate(load_result(result, "x"), load_request(request, "r"),
                    load_scenes(scenes, "s"), REGISTRY)


@settings(max_examples=80, deadline=None, database=None)
@given(valid_cases())
def test_generated_valid_results_have_no_violations(case: Any) -> None:
    assert check(*case) == []


# A fault breaks a valid result in place and returns the rule ids (space-separated) it must
# trigger and one path that must be reported.
Fault = Callable[[dict[str, Any], st.DrawFn], tuple[str, str]]


def _first_prompt(result: dict[str, Any]) -> dict[str, Any]:
    prompt: dict[str, Any] = result["outputs"]["promptSet"][0]
    return prompt


def drop_scene_id(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    del _first_prompt(result)["sceneId"]
    return "scene-id-missing", "$.outputs.promptSet[0].sceneId"


def unknown_scene(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    _first_prompt(result)["sceneId"] = "NOT-A-SCENE"
    return "scene-id-unknown", "$.outputs.promptSet[0].sceneId"


def unknown_target(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    _first_prompt(result)["targetId"] = "NOT-A-SUBJECT"
    return "target-id-unknown", "$.outputs.promptSet[0].targetId"


def v1_status(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result["status"] = draw(st.sampled_from(["rendering", "done"]))
    return "status-v1", "$.status"


def dry_run(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result["status"] = "dryRun"
    return "dry-run-outputs", "$.outputs.promptSet"


def error_without_recovery(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result.update(status="error", error="it failed")
    return "error-recovery", "$.recovery"


def error_without_reason(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result.update(status="error", recovery="retry")
    return "error-reason", "$.error"


def other_request(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result["requestId"] += "-other"
    return "request-id", "$.requestId"


def other_skill(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result["skillName"] = "prompt-master"
    return "skill-name", "$.skillName"


def unexpected_kind(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    result["outputs"]["musicBrief"] = {"mood": "calm"}
    return "kind-not-expected kind-not-allowed", "$.outputs.musicBrief"


def story_outside(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    key = draw(st.sampled_from(sorted(STORY_KEYS)))
    _first_prompt(result)[key] = "changed"
    return "story-outside-patch", f"$.outputs.promptSet[0].{key}"


def media_in_prompt(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    _first_prompt(result)["url"] = "https://example.com/a.png"
    return "asset-outside-scene-assets", "$.outputs.promptSet[0].url"


def empty_prompt(result: dict[str, Any], draw: st.DrawFn) -> tuple[str, str]:
    _first_prompt(result)["prompt"] = " "
    return "prompt-text", "$.outputs.promptSet[0].prompt"


FAULTS: list[Fault] = [
    drop_scene_id, unknown_scene, unknown_target, v1_status, dry_run, error_without_recovery,
    error_without_reason, other_request, other_skill, unexpected_kind, story_outside,
    media_in_prompt, empty_prompt,
]


@settings(max_examples=100, deadline=None, database=None)
@given(valid_cases(), st.sampled_from(FAULTS), st.data())
def test_one_fault_yields_exactly_its_rule(case: Any, fault: Fault, data: st.DataObject) -> None:
    result, request, scenes = case
    broken = copy.deepcopy(result)
    rules, path = fault(broken, data.draw)
    violations = check(broken, request, scenes)
    assert {v.rule for v in violations} == set(rules.split())
    assert path in [v.path for v in violations]


@settings(max_examples=60, deadline=None, database=None)
@given(st.sampled_from(REGISTRY.skills), st.data())
def test_planned_calls_always_satisfy_the_protocol(skill: Any, data: st.DataObject) -> None:
    kinds = data.draw(st.lists(st.sampled_from(skill.allowed), min_size=1, unique=True))
    scenes = data.draw(scene_lists())
    request = load_request({"requestId": data.draw(NAMES), "skillName": skill.name,
                            "purpose": data.draw(st.text(max_size=20)), "expectedOutputs": kinds,
                            "inputs": {"sceneSpecs": scenes}}, "r")
    result = plan(request, REGISTRY)
    assert validate(result, request, load_scenes(scenes, "s"), REGISTRY) == []
    assert result.request_id == request.request_id
