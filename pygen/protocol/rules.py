"""Checking a result against its request, the scenes and the registry: the seed's rules.

Every check returns violations rather than raising, so one run reports all of them, each
with the JSON path of the offending value. Rule ids (the `rule` field) are stable and named in
`skills/protocol/skill-call.md`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from pygen.protocol.loading import json_path
from pygen.protocol.models import (
    PromptAsset,
    SceneAsset,
    SceneSpec,
    SkillCallRequest,
    SkillCallResult,
    SkillCallStatus,
)
from pygen.protocol.patches import PatchError, apply_patches
from pygen.protocol.planning import unknown_skill
from pygen.protocol.registry import Registry, RegistrySkill

# Keys that only a SceneSpec declares (plus scene containers): finding one inside any other
# output means a story change travelling outside `sceneSpecPatch`. No other output model
# declares these names; tests/protocol/test_models.py keeps it that way.
STORY_KEYS = frozenset({"beat", "narration", "subjects", "sceneSpec", "sceneSpecs", "scenes"})

# Keys that carry media: a promptSet entry is prompt text only, so these belong in sceneAssets.
MEDIA_KEYS = ("src", "url", "uri", "file", "path")

V1_STATUSES = (SkillCallStatus.DRY_RUN, SkillCallStatus.PLANNED, SkillCallStatus.ERROR)


class Violation(BaseModel):
    """One broken rule: where (a JSON path into the result), which rule, and what to do."""

    model_config = ConfigDict(frozen=True)

    path: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message} [{self.rule}]"


def _v(loc: Sequence[int | str], rule: str, message: str) -> Violation:
    return Violation(path=json_path(loc), rule=rule, message=message)


def check_identity(result: SkillCallResult, request: SkillCallRequest) -> Iterator[Violation]:
    if result.request_id != request.request_id:
        yield _v(("requestId",), "request-id",
                 f"'{result.request_id}' does not match the request's '{request.request_id}'")
    if result.skill_name != request.skill_name:
        yield _v(("skillName",), "skill-name",
                 f"'{result.skill_name}' does not match the request's '{request.skill_name}'")


def check_status(result: SkillCallResult, skill: RegistrySkill) -> Iterator[Violation]:
    status = result.status
    if status not in V1_STATUSES:
        yield _v(("status",), "status-v1",
                 f"'{status.value}' is not allowed in v1; return dryRun, planned or error "
                 "(no skill is executed yet)")
    if status is SkillCallStatus.PLANNED and not skill.ready:
        yield _v(("status",), "planned-not-ready",
                 f"'{skill.name}' has no response design ready yet, so it cannot plan; "
                 "return dryRun")
    if status is SkillCallStatus.DRY_RUN:
        for kind in result.outputs.present():
            yield _v(("outputs", kind), "dry-run-outputs",
                     "a dryRun result describes the request only and carries no outputs; "
                     "drop them or return planned")


def check_error(result: SkillCallResult) -> Iterator[Violation]:
    if result.status is not SkillCallStatus.ERROR:
        if result.error is not None:
            yield _v(("error",), "error-status",
                     f"error is set but status is '{result.status.value}'; set status to error")
        return
    if not (result.error or "").strip():
        yield _v(("error",), "error-reason", "an error result must say why in error")
    if not (result.recovery or "").strip():
        yield _v(("recovery",), "error-recovery",
                 "an error result must give a recovery step in recovery")


def check_kinds(
    result: SkillCallResult, request: SkillCallRequest, skill: RegistrySkill
) -> Iterator[Violation]:
    for kind in result.outputs.present():
        if kind not in request.expected_outputs:
            yield _v(("outputs", kind), "kind-not-expected",
                     f"'{kind}' is not in the request's expectedOutputs "
                     f"({', '.join(request.expected_outputs)})")
        if kind not in skill.allowed:
            yield _v(("outputs", kind), "kind-not-allowed",
                     f"skill '{skill.name}' does not return '{kind}'; "
                     f"it returns: {', '.join(skill.allowed)}")


def _subjects_by_scene(scenes: Sequence[SceneSpec]) -> dict[str, frozenset[str]]:
    return {scene.id: frozenset(subject.id for subject in scene.subjects) for scene in scenes}


def check_binding(
    asset: SceneAsset | PromptAsset, loc: tuple[int | str, ...],
    scenes: Mapping[str, frozenset[str]],
) -> Iterator[Violation]:
    """An asset-like output names its scene, and its target is a subject of that scene."""
    if not asset.scene_id:
        yield _v((*loc, "sceneId"), "scene-id-missing",
                 "every asset-like output must name its scene in sceneId")
        return
    subjects = scenes.get(asset.scene_id)
    if subjects is None:
        yield _v((*loc, "sceneId"), "scene-id-unknown",
                 f"no scene has id '{asset.scene_id}'; known: {', '.join(scenes) or 'none'}")
    elif asset.target_id is not None and asset.target_id not in subjects:
        yield _v((*loc, "targetId"), "target-id-unknown",
                 f"'{asset.target_id}' is not a subjects[].id of scene '{asset.scene_id}'; "
                 f"its subjects: {', '.join(sorted(subjects)) or 'none'}")


def check_assets(result: SkillCallResult, scenes: Sequence[SceneSpec]) -> Iterator[Violation]:
    """Bindings are checked against the scenes as they will be once this result's patches apply."""
    outputs = result.outputs
    for index, patch in enumerate(outputs.scene_spec_patch or ()):
        if not patch.id:
            continue  # reported by check_patches
        try:
            scenes = apply_patches(scenes, [patch])
        except PatchError as exc:
            loc = ("outputs", "sceneSpecPatch", index, *exc.loc[1:])
            yield _v(loc, "patch-invalid", exc.detail)
    by_scene = _subjects_by_scene(scenes)
    for index, asset in enumerate(outputs.scene_assets or ()):
        yield from check_binding(asset, ("outputs", "sceneAssets", index), by_scene)
    for index, prompt in enumerate(outputs.prompt_set or ()):
        yield from check_binding(prompt, ("outputs", "promptSet", index), by_scene)
    for index, cut in enumerate(outputs.edit_plan.cuts if outputs.edit_plan else ()):
        if cut.scene_id is not None and cut.scene_id not in by_scene:
            yield _v(("outputs", "editPlan", "cuts", index, "sceneId"), "scene-id-unknown",
                     f"no scene has id '{cut.scene_id}'")


def check_prompts(result: SkillCallResult) -> Iterator[Violation]:
    """A promptSet entry is prompt text: it has some, and carries no media."""
    for index, prompt in enumerate(result.outputs.prompt_set or ()):
        loc = ("outputs", "promptSet", index)
        if not prompt.prompt.strip():
            yield _v((*loc, "prompt"), "prompt-text",
                     "a promptSet entry must carry its prompt text in prompt")
        for key in MEDIA_KEYS:
            if key in prompt.extras():
                yield _v((*loc, key), "asset-outside-scene-assets",
                         f"a promptSet entry carries media in '{key}'; produced or requested "
                         "assets go in sceneAssets")


def check_patches(result: SkillCallResult) -> Iterator[Violation]:
    for index, patch in enumerate(result.outputs.scene_spec_patch or ()):
        if not patch.id:
            yield _v(("outputs", "sceneSpecPatch", index, "id"), "patch-id",
                     "a sceneSpecPatch entry must name the scene it changes in id")


def _story_keys(value: Any, loc: tuple[int | str, ...]) -> Iterator[tuple[int | str, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in STORY_KEYS:
                yield (*loc, key)
            else:
                yield from _story_keys(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _story_keys(item, (*loc, index))


def check_story(result: SkillCallResult) -> Iterator[Violation]:
    """Story fields anywhere but sceneSpecPatch are an implicit change to the scenes."""
    dumped = result.outputs.model_dump(mode="json", by_alias=True, exclude_none=True)
    dumped.pop("sceneSpecPatch", None)
    for loc in _story_keys(dumped, ("outputs",)):
        yield _v(loc, "story-outside-patch",
                 f"'{loc[-1]}' changes the story; return story changes as sceneSpecPatch")


def validate(
    result: SkillCallResult,
    request: SkillCallRequest,
    scene_specs: Sequence[SceneSpec],
    registry: Registry,
) -> list[Violation]:
    """Every rule the result breaks, in document order; empty when it is valid.

    A request naming a skill the registry does not know is one finding; the checks that
    need the skill's registry entry are then left out.
    """
    skill = registry.get(request.skill_name)
    known = skill is not None
    return [
        *([] if known else [_v(("skillName",), "skill-unknown", "in the request: "
                               + unknown_skill(registry, request.skill_name))]),
        *check_identity(result, request),
        *(check_status(result, skill) if skill is not None else ()),
        *check_error(result),
        *(check_kinds(result, request, skill) if skill is not None else ()),
        *check_patches(result),
        *check_assets(result, scene_specs),
        *check_prompts(result),
        *check_story(result),
    ]


def validation_report(violations: Sequence[Violation]) -> dict[str, Any]:
    """The shape both the CLI's --json and the MCP tool return."""
    return {"valid": not violations, "violations": [v.model_dump() for v in violations]}
