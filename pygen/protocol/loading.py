"""Reading protocol JSON: text to models, with one-line errors that name the file and field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from pygen import jsonread
from pygen.errors import PygenError
from pygen.protocol.models import (
    OUTPUT_KINDS,
    SceneSpec,
    SceneSpecPatch,
    SkillCallRequest,
    SkillCallResult,
)

M = TypeVar("M", bound=BaseModel)

_KINDS = ", ".join(OUTPUT_KINDS)


class ProtocolError(PygenError):
    """Protocol input that cannot be read or planned: bad JSON, unknown skill or kind."""


def json_path(loc: Sequence[int | str]) -> str:
    """`("outputs", "sceneAssets", 0, "sceneId")` -> `$.outputs.sceneAssets[0].sceneId`."""
    path = "$"
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def parse_json(text: str | bytes, source: str) -> Any:
    """Strict JSON (pygen.jsonread), its errors as ProtocolError."""
    try:
        return jsonread.loads(text, source)
    except jsonread.JsonInputError as exc:
        raise ProtocolError(str(exc)) from None


def field_message(error: ErrorDetails) -> str:
    """Pydantic's message for one field, reworded where the protocol has a better one."""
    loc = error["loc"]
    name = str(loc[-1]) if loc else "value"
    kind = error["type"]
    if kind == "extra_forbidden" and len(loc) >= 2 and loc[-2] == "outputs":
        return f"unknown output kind '{name}'; valid kinds: {_KINDS}"
    if kind == "extra_forbidden":
        return f"unknown field '{name}'"
    expected = str(error.get("ctx", {}).get("expected", ""))
    if kind == "literal_error" and f"'{OUTPUT_KINDS[0]}'" in expected:
        return f"unknown output kind {error['input']!r}; valid kinds: {_KINDS}"
    if kind == "literal_error" and loc == ("status",):
        return f"a request's status is always 'dryRun', not {error['input']!r}"
    if kind == "missing":
        return f"missing required field '{name}'"
    if kind == "value_error":
        return str(error.get("ctx", {}).get("error", error["msg"]))
    return str(error["msg"])


def describe(exc: ValidationError, source: str, prefix: Sequence[int | str] = ()) -> str:
    """The first problem as `source: $.path: message`, with a count of the rest."""
    errors = exc.errors()
    # A container's error caused by a bad item (too short once the item failed) adds nothing.
    locs = [tuple(e["loc"]) for e in errors]
    errors = [e for e in errors
              if not any(len(o) > len(e["loc"]) and o[:len(e["loc"])] == tuple(e["loc"])
                         for o in locs)]
    first = errors[0]
    where = json_path([*prefix, *first["loc"]])
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{source}: {where}: {field_message(first)}{more}"


def load_model(model: type[M], data: Any, source: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError(describe(exc, source)) from None


def load_request(data: Any, source: str) -> SkillCallRequest:
    request = load_model(SkillCallRequest, data, source)
    if request.inputs.scene_specs is not None:
        check_scene_ids(request.inputs.scene_specs, source, ("inputs", "sceneSpecs"))
    return request


def load_result(data: Any, source: str) -> SkillCallResult:
    return load_model(SkillCallResult, data, source)


def load_scenes(data: Any, source: str) -> tuple[SceneSpec, ...]:
    """A JSON array of scene specs, or an object holding one under `sceneSpecs`."""
    prefix: tuple[str, ...] = ()
    if isinstance(data, dict) and "sceneSpecs" in data:
        data, prefix = data["sceneSpecs"], ("sceneSpecs",)
    if not isinstance(data, list):
        raise ProtocolError(f"{source}: $: expected a JSON array of scene specs")
    try:
        scenes = TypeAdapter(tuple[SceneSpec, ...]).validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(describe(exc, source, prefix)) from None
    check_scene_ids(scenes, source, prefix)
    return scenes


def load_patches(data: Any, source: str) -> tuple[SceneSpecPatch, ...]:
    """A JSON array of patches, or a result-like object holding one under `sceneSpecPatch`."""
    prefix: tuple[str, ...] = ()
    if isinstance(data, dict) and "outputs" in data:
        data, prefix = data["outputs"], ("outputs",)
    if isinstance(data, dict) and "sceneSpecPatch" in data:
        data, prefix = data["sceneSpecPatch"], (*prefix, "sceneSpecPatch")
    if not isinstance(data, list):
        raise ProtocolError(f"{source}: $: expected a JSON array of sceneSpecPatch entries")
    try:
        return TypeAdapter(tuple[SceneSpecPatch, ...]).validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(describe(exc, source, prefix)) from None


def check_scene_ids(
    scenes: Sequence[SceneSpec], source: str, prefix: Sequence[int | str] = ()
) -> None:
    """Scene ids, and subject ids within a scene, must be unique for bindings to mean anything."""
    seen: set[str] = set()
    for index, scene in enumerate(scenes):
        if scene.id in seen:
            path = json_path([*prefix, index, "id"])
            raise ProtocolError(f"{source}: {path}: duplicate scene id '{scene.id}'")
        seen.add(scene.id)
        subjects: set[str] = set()
        for sub_index, subject in enumerate(scene.subjects):
            if subject.id in subjects:
                path = json_path([*prefix, index, "subjects", sub_index, "id"])
                raise ProtocolError(f"{source}: {path}: duplicate subject id '{subject.id}'")
            subjects.add(subject.id)
