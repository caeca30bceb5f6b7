"""Applying `sceneSpecPatch` entries: the caller's explicit step, never done implicitly.

Each patch is a `Partial<SceneSpec>`: its `id` names the scene, every other key present
replaces that key (`null` clears it; `subjects` is replaced as a whole). A patch whose id
matches no scene adds one at the end. The input scenes are never touched: every scene in the
output is a fresh deep copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from pygen.protocol.loading import ProtocolError, field_message, json_path
from pygen.protocol.models import SceneSpec, SceneSpecPatch


class PatchError(ProtocolError):
    """A patch that cannot apply; `loc` is its path within the patch list."""

    def __init__(self, loc: tuple[int | str, ...], detail: str) -> None:
        super().__init__(f"{json_path(loc)}: {detail}")
        self.loc = loc
        self.detail = detail


def _merge(scene: SceneSpec | None, patch: SceneSpecPatch, index: int) -> SceneSpec:
    changes = patch.model_dump(by_alias=True, exclude_unset=True)
    base = scene.model_dump(by_alias=True) if scene is not None else {}
    try:
        merged = SceneSpec.model_validate({**base, **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise PatchError((index, *first["loc"]), field_message(first)) from None
    seen: set[str] = set()
    for position, subject in enumerate(merged.subjects):
        if subject.id in seen:
            loc = (index, "subjects", position, "id")
            raise PatchError(loc, f"duplicate subject id '{subject.id}'")
        seen.add(subject.id)
    return merged


def apply_patches(
    scene_specs: Sequence[SceneSpec], patches: Sequence[SceneSpecPatch]
) -> tuple[SceneSpec, ...]:
    """New scene specs with the patches applied in order; the inputs stay as they were.

    Raises PatchError (a ProtocolError) naming the patch when one has no id or would leave a
    scene with duplicate subject ids.
    """
    scenes = [scene.model_copy(deep=True) for scene in scene_specs]
    for index, patch in enumerate(patches):
        if not patch.id:
            raise PatchError((index, "id"), "a sceneSpecPatch entry needs the id of the scene "
                             "it changes")
        position = next((i for i, scene in enumerate(scenes) if scene.id == patch.id), None)
        if position is None:
            scenes.append(_merge(None, patch, index))
        else:
            scenes[position] = _merge(scenes[position], patch, index)
    return tuple(scenes)
