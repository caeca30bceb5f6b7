"""Planning a call: v1 describes the call and its expected return, and executes nothing.

`plan` is pure: it reads the request and the registry only, never the target skill's files.
"""

from __future__ import annotations

from pygen.protocol.loading import ProtocolError
from pygen.protocol.models import (
    SkillCallInputs,
    SkillCallRequest,
    SkillCallResult,
    SkillCallStatus,
)
from pygen.protocol.registry import Registry, RegistrySkill
from pygen.suggest import did_you_mean


def require_skill(registry: Registry, name: str) -> RegistrySkill:
    """The registry entry for a request's `skillName`, or an error listing the known ones."""
    skill = registry.get(name)
    if skill is None:
        raise ProtocolError(f"$.skillName: {unknown_skill(registry, name)}")
    return skill


def unknown_skill(registry: Registry, name: str) -> str:
    """`unknown skill 'x' (did you mean 'y'?); callable skills: …`, for the agent asking."""
    return (f"unknown skill '{name}'{did_you_mean(name, registry.names())}; callable skills: "
            f"{', '.join(registry.names())}")


def check_expected(request: SkillCallRequest, skill: RegistrySkill) -> None:
    """Asking a skill for a kind it never returns is a mistake in the request (all named)."""
    wrong = [(i, kind) for i, kind in enumerate(request.expected_outputs)
             if kind not in skill.allowed]
    if wrong:
        where = ", ".join(f"$.expectedOutputs[{i}]" for i, _ in wrong)
        kinds = ", ".join(f"'{kind}'" for _, kind in wrong)
        raise ProtocolError(
            f"{where}: skill '{skill.name}' does not return {kinds}; "
            f"it returns: {', '.join(skill.allowed)}"
        )


def _inputs_line(inputs: SkillCallInputs) -> str:
    parts: list[str] = []
    for name, value in inputs.model_dump(by_alias=True, exclude_none=True).items():
        parts.append(f"{name} ({len(value)})" if isinstance(value, list | tuple) else name)
    return "inputs: " + (", ".join(parts) if parts else "none")


def plan(request: SkillCallRequest, registry: Registry) -> SkillCallResult:
    """The planned result for a request: `planned` if the skill is ready, else `dryRun`."""
    skill = require_skill(registry, request.skill_name)
    check_expected(request, skill)
    status = SkillCallStatus.PLANNED if skill.ready else SkillCallStatus.DRY_RUN
    expected = ", ".join(request.expected_outputs)
    purpose = request.purpose.strip().rstrip(".")
    why = (
        "the registry marks its response design ready"
        if skill.ready
        else "its response design is not marked ready in the registry"
    )
    return SkillCallResult(
        request_id=request.request_id,
        skill_name=skill.name,
        status=status,
        summary=(f"{status.value}: a call to {skill.name}"
                 + (f" for \"{purpose}\"" if purpose else "") + f", expecting {expected}."),
        logs=(
            f"skill: {skill.name}, asked for: {skill.asks}",
            f"expected outputs: {expected}",
            _inputs_line(request.inputs),
            f"status {status.value}: {why}",
            "not executed: v1 plans calls only; the skill's files were not read",
        ),
    )
