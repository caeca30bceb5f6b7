"""Every problem of a protocol call at once, as findings with paths: for the MCP tools.

An agent that sent a result with three slips gets three findings in one answer, not the first
slip as a tool error: shape problems (a value of the wrong type, an unknown field) and rule
problems (an output kind the request did not expect) alike. A shape problem leaves the rest
checkable: the offending values are set aside and the rules run over what remains.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from pygen.protocol.loading import ProtocolError, check_scene_ids, field_message, json_path
from pygen.protocol.models import SceneSpec, SkillCallRequest, SkillCallResult
from pygen.protocol.planning import check_expected, unknown_skill
from pygen.protocol.registry import Registry
from pygen.protocol.rules import Violation, validate

M = TypeVar("M")
_PASSES = 3


def shape_findings(exc: ValidationError, rule: str, label: str,
                   prefix: Sequence[int | str] = ()) -> list[Violation]:
    """One finding per field pydantic rejected (a container failing for its item is left out)."""
    errors = exc.errors()
    locs = [tuple(e["loc"]) for e in errors]
    return [Violation(path=json_path([*prefix, *e["loc"]]), rule=rule,
                      message=f"{label}{field_message(e)}")
            for e in errors
            if not any(len(o) > len(e["loc"]) and o[:len(e["loc"])] == tuple(e["loc"])
                       for o in locs)]


def lenient(adapter: TypeAdapter[M], data: Any, rule: str,
            label: str = "") -> tuple[M | None, list[Violation]]:
    """The value read from `data` and its shape findings. A value with shape problems is read
    again without the values at fault, so the rules can still check the rest; None when even
    that fails."""
    try:
        return adapter.validate_python(data), []
    except ValidationError as exc:
        # The first pass's paths are exact; later passes only look for a checkable rest.
        findings = shape_findings(exc, rule, label)
        failed = exc
    work = copy.deepcopy(data)
    for _ in range(_PASSES):
        if not any([_drop(work, e["loc"]) for e in failed.errors()]):  # every one, no short cut
            break
        try:
            return adapter.validate_python(work), findings
        except ValidationError as exc:
            failed = exc
    return None, findings


def _drop(data: Any, loc: Sequence[int | str]) -> bool:
    """Remove the value at `loc` (a dict key only: list positions carry meaning)."""
    node = data
    for part in loc[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    if isinstance(node, dict) and loc and loc[-1] in node:
        del node[loc[-1]]
        return True
    return False


def _model(model: type[BaseModel]) -> TypeAdapter[Any]:
    return TypeAdapter(model)


def check_call(result: Any, request: Any, scene_specs: Any,
               registry: Registry) -> list[Violation]:
    """Every shape and rule problem of a result, its request and the scene specs."""
    read_result, findings = lenient(_model(SkillCallResult), result, "shape")
    read_request, more = lenient(_model(SkillCallRequest), request, "request-shape",
                                 "in the request: ")
    findings += more
    scenes, more = lenient(TypeAdapter(tuple[SceneSpec, ...]), scene_specs, "scene-shape",
                           "in scene_specs: ")
    findings += more
    try:
        check_scene_ids(scenes or (), "scene_specs")
    except ProtocolError as exc:
        _, path, message = str(exc).split(": ", 2)
        findings.append(Violation(path=path, rule="scene-id-duplicate",
                                  message=f"in scene_specs: {message}"))
    if read_result is not None and read_request is not None:
        findings += validate(read_result, read_request, scenes or (), registry)
    return findings


def request_findings(request: Any, registry: Registry) -> list[Violation]:
    """Every problem that keeps a request from being planned (paths into the request)."""
    read, findings = lenient(_model(SkillCallRequest), request, "request-shape")
    name = request.get("skillName") if isinstance(request, dict) else None
    if isinstance(name, str) and name and registry.get(name) is None:
        findings.append(Violation(path="$.skillName", rule="skill-unknown",
                                  message=unknown_skill(registry, name)))
    skill = registry.get(read.skill_name) if read is not None else None
    if read is None or skill is None:
        return findings
    try:
        check_scene_ids(read.inputs.scene_specs or (), "request", ("inputs", "sceneSpecs"))
        check_expected(read, skill)
    except ProtocolError as exc:
        path, _, message = str(exc).removeprefix("request: ").partition(": ")
        findings.append(Violation(path=path, rule="request", message=message))
    return findings
