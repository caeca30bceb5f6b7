"""plan(): dryRun or planned from the registry, a summary and logs, and nothing executed or read."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from pygen.protocol import ProtocolError, load_registry, plan, to_wire, validate
from pygen.protocol.loading import load_request
from pygen.protocol.registry import parse_registry

REPO = Path(__file__).resolve().parents[2]
SHIPPED = load_registry(REPO / "skills" / "protocol" / "registry.toml")
REGISTRY = parse_registry(
    {"skills": [
        {"name": "prompts", "asks": "prompts for assets", "outputs": ["promptSet"],
         "optional_outputs": ["sceneAssets"], "ready": True},
        {"name": "editor", "asks": "an edit plan", "outputs": ["editPlan"]},
    ]},
    "reg.toml",
)
REQUEST: dict[str, Any] = {
    "requestId": "r7",
    "skillName": "prompts",
    "purpose": "write prompts for the hook.",
    "inputs": {"sceneSpecs": [{"id": "s1"}, {"id": "s2"}], "brief": "short", "style": {"fps": 30}},
    "expectedOutputs": ["promptSet", "sceneAssets"],
}


def test_a_ready_skill_is_planned() -> None:
    result = plan(load_request(REQUEST, "r.json"), REGISTRY)
    assert to_wire(result) == {
        "requestId": "r7",
        "skillName": "prompts",
        "status": "planned",
        "summary": "planned: a call to prompts for \"write prompts for the hook\", "
                   "expecting promptSet, sceneAssets.",
        "outputs": {},
        "logs": [
            "skill: prompts, asked for: prompts for assets",
            "expected outputs: promptSet, sceneAssets",
            "inputs: sceneSpecs (2), brief, style",
            "status planned: the registry marks its response design ready",
            "not executed: v1 plans calls only; the skill's files were not read",
        ],
    }


def test_a_skill_not_marked_ready_is_a_dry_run() -> None:
    request = {"requestId": "r8", "skillName": "editor", "purpose": "cut it",
               "expectedOutputs": ["editPlan"]}
    result = plan(load_request(request, "r.json"), REGISTRY)
    assert result.status.value == "dryRun"
    assert result.summary == "dryRun: a call to editor for \"cut it\", expecting editPlan."
    assert result.logs[2:4] == (
        "inputs: none",
        "status dryRun: its response design is not marked ready in the registry",
    )


def test_an_unknown_skill_is_an_error_listing_the_known_ones() -> None:
    with pytest.raises(ProtocolError) as caught:
        plan(load_request({**REQUEST, "skillName": "nope"}, "r.json"), REGISTRY)
    assert str(caught.value) == (
        "$.skillName: unknown skill 'nope'; callable skills: prompts, editor"
    )


def test_asking_for_a_kind_the_skill_never_returns_is_an_error() -> None:
    request = {**REQUEST, "expectedOutputs": ["promptSet", "editPlan"]}
    with pytest.raises(ProtocolError) as caught:
        plan(load_request(request, "r.json"), REGISTRY)
    assert str(caught.value) == (
        "$.expectedOutputs[1]: skill 'prompts' does not return 'editPlan'; "
        "it returns: promptSet, sceneAssets"
    )


@pytest.mark.parametrize("skill", SHIPPED.skills, ids=lambda s: s.name)
def test_every_planned_call_satisfies_the_protocol(skill: Any) -> None:
    request = load_request({"requestId": "r", "skillName": skill.name, "purpose": "p",
                            "expectedOutputs": list(skill.allowed)}, "r.json")
    result = plan(request, SHIPPED)
    assert result.status.value == ("planned" if skill.ready else "dryRun")
    assert validate(result, request, (), SHIPPED) == []


_WATCHED = ("open", "os.listdir", "os.scandir", "subprocess.Popen", "os.system", "os.exec")
_seen: list[str] | None = None
_hooked = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _seen is not None and event.startswith(_WATCHED):
        _seen.append(f"{event} {args[0] if args else ''}")


def test_plan_opens_no_file_and_runs_nothing() -> None:
    # The v1 constraint: the target skill's files are never read or executed. An audit hook
    # sees every open/listdir/exec the interpreter makes while plan runs.
    global _seen, _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    request = load_request(REQUEST, "r.json")
    plan(request, REGISTRY)  # warm up: lazy imports may open files the first time
    _seen = []
    try:
        plan(request, REGISTRY)
        plan(load_request({**REQUEST, "skillName": "editor", "expectedOutputs": ["editPlan"]},
                          "r.json"), REGISTRY)
        seen = list(_seen)
    finally:
        _seen = None
    assert seen == []
