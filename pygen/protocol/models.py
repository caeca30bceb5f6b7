"""The wire shapes of the Skill Call Protocol (seed 001), as frozen pydantic models.

Field names are snake_case in Python and the seed's camelCase on the wire (an alias
generator), so `SceneAsset(scene_id="s1")` dumps as `{"sceneId": "s1"}` and both spellings
are accepted on input. The seed fixes `SkillCallRequest` and `SkillCallResult` completely, so
they refuse unknown keys; it names but leaves open `SceneSpec`, `SceneAsset`, `PromptAsset`,
`MusicBrief`, `EditPlan`, `PublishBrief`, `PostmortemNote` and `RemotionVideoStyle`. Those get
only the fields the protocol's rules read (ids, `sceneId`, `targetId`, prompt text) plus a
few descriptive ones, and `extra="allow"` so a skill may return more without a schema change.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer
from pydantic.alias_generators import to_camel
from pydantic.fields import ComputedFieldInfo, FieldInfo


def _title(name: str, info: FieldInfo | ComputedFieldInfo) -> str:
    # Schema titles show the wire name instead of pydantic's "Sceneid".
    return to_camel(name)


def _compact(value: float) -> int | float:
    # Whole numbers go back out as written (5, not 5.0); JSON does not tell them apart.
    return int(value) if value.is_integer() else value


# Finite: `Infinity` would pass `ge=0` and come out of `apply` as text that is not JSON.
NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False), PlainSerializer(_compact)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False), PlainSerializer(_compact)]


class Wire(BaseModel):
    """Base of every protocol shape: camelCase on the wire, immutable, closed by default."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        extra="forbid",
        use_attribute_docstrings=True,
        field_title_generator=_title,
    )


class Open(Wire):
    """A shape the seed leaves open: the listed fields plus any others the skill returns."""

    model_config = ConfigDict(extra="allow")

    def extras(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class SkillCallStatus(StrEnum):
    """Where a call stands. v1 results may only be `dryRun`, `planned` or `error`."""

    DRY_RUN = "dryRun"
    PLANNED = "planned"
    RENDERING = "rendering"
    DONE = "done"
    ERROR = "error"


OutputKind = Literal[
    "sceneSpecPatch",
    "sceneAssets",
    "promptSet",
    "musicBrief",
    "editPlan",
    "publishBrief",
    "postmortem",
]
"""A key of `SkillCallResult.outputs`; a request lists the kinds it expects back."""

OUTPUT_KINDS: tuple[OutputKind, ...] = (
    "sceneSpecPatch",
    "sceneAssets",
    "promptSet",
    "musicBrief",
    "editPlan",
    "publishBrief",
    "postmortem",
)


class Subject(Open):
    """Someone or something that appears in a scene; assets aim at it through `targetId`."""

    id: str = Field(min_length=1)
    """Unique within its scene; the value an asset's `targetId` must match."""
    name: str | None = None
    description: str | None = None


class SceneSpec(Open):
    """One scene of the video. `id` and `subjects` are what the binding rules check.

    `beat` and `narration` are the story fields: only a `sceneSpecPatch` may change them.
    """

    id: str = Field(min_length=1)
    """Unique across the scene list; the value assets put in `sceneId`."""
    title: str | None = None
    beat: str | None = None
    """The scene's role in the story (hook, setup, explanation, payoff...)."""
    narration: str | None = None
    """Voice-over or on-screen text."""
    duration_seconds: NonNegative | None = None
    subjects: tuple[Subject, ...] = ()


class SceneSpecPatch(Open):
    """`Partial<SceneSpec>`: the only way a result changes the story.

    `id` names the scene to change (a new id adds a scene at the end); every other key present
    replaces that key of the scene, `null` clears it. Left optional here so a patch without an
    id is reported as a rule violation with its path rather than refused as unreadable.
    """

    id: str | None = None
    title: str | None = None
    beat: str | None = None
    narration: str | None = None
    duration_seconds: NonNegative | None = None
    subjects: tuple[Subject, ...] | None = None


class SceneAsset(Open):
    """An asset a skill produced (it has `src`) or asks to be produced (no `src` yet).

    `sceneId` and `targetId` are optional in the shape so their absence or mismatch is reported
    by `validate` with a path, not refused at parse time.
    """

    id: str | None = None
    scene_id: str | None = None
    """The scene the asset belongs to; required by the binding rules."""
    target_id: str | None = None
    """The subject it depicts, when it depicts one; must be a `subjects[].id` of that scene."""
    kind: str | None = None
    """Free text: image, svg, video, audio, font..."""
    src: str | None = None
    """Path or URL of the produced file; absent while the asset is only requested."""
    prompt: str | None = None
    notes: str | None = None


class PromptAsset(Open):
    """Prompt text for a generator, bound to a scene; may later become a `SceneAsset`.

    It carries text only: media (`src`, `url`...) belongs in `sceneAssets`.
    """

    id: str | None = None
    scene_id: str | None = None
    """The scene the prompt is for; required by the binding rules."""
    target_id: str | None = None
    """The subject it describes, when it describes one; must be in that scene's `subjects`."""
    prompt: str = ""
    """The prompt text itself; an empty prompt is a rule violation."""
    tool: str | None = None
    """Which generator or agent the prompt is written for (midjourney, suno, claude...)."""
    negative_prompt: str | None = None
    notes: str | None = None


class MusicBrief(Open):
    """Background music for the whole video, exploratory or locked."""

    mode: Literal["exploration", "locked"] | None = None
    mood: str | None = None
    genre: str | None = None
    tempo_bpm: Positive | None = None
    duration_seconds: NonNegative | None = None
    prompt: str | None = None
    notes: str | None = None


class EditCut(Open):
    """One cut of an edit plan; `sceneId`, when given, must name a scene."""

    scene_id: str | None = None
    start_seconds: NonNegative | None = None
    end_seconds: NonNegative | None = None
    transition: str | None = None
    notes: str | None = None


class EditPlan(Open):
    """The cut list made once timing and media exist."""

    summary: str | None = None
    cuts: tuple[EditCut, ...] = ()


class PublishBrief(Open):
    """Where and how the video is published: route, title, copy, per-platform changes."""

    platforms: tuple[str, ...] = ()
    title: str | None = None
    description: str | None = None
    hashtags: tuple[str, ...] = ()
    notes: str | None = None


class PostmortemNote(Open):
    """A testing or release review."""

    summary: str | None = None
    findings: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()


class RemotionVideoStyle(Open):
    """The look the orchestrator asks every skill to respect."""

    aspect_ratio: str | None = None
    """Such as "16:9" or "9:16"."""
    fps: int | None = Field(default=None, gt=0)
    tone: str | None = None
    palette: tuple[str, ...] = ()
    font: str | None = None


class SkillCallInputs(Wire):
    """What the orchestrator hands the skill; every part is optional."""

    scene_specs: tuple[SceneSpec, ...] | None = None
    scene_assets: tuple[SceneAsset, ...] | None = None
    brief: str | None = None
    target_scene_ids: tuple[str, ...] | None = None
    target_subject_ids: tuple[str, ...] | None = None
    style: RemotionVideoStyle | None = None
    constraints: tuple[str, ...] | None = None


class SkillCallRequest(Wire):
    """A request from the orchestrator to another skill. Always `dryRun` in v1."""

    request_id: str = Field(min_length=1)
    skill_name: str = Field(min_length=1)
    """A callable skill: one `list_callable_skills` lists."""
    purpose: str
    status: Literal[SkillCallStatus.DRY_RUN] = SkillCallStatus.DRY_RUN
    inputs: SkillCallInputs = SkillCallInputs()
    expected_outputs: tuple[OutputKind, ...] = Field(min_length=1)
    """The output kinds the caller wants back; each must be one the skill returns."""


class SkillCallOutputs(Wire):
    """The result's payload, one optional key per output kind."""

    scene_spec_patch: tuple[SceneSpecPatch, ...] | None = None
    scene_assets: tuple[SceneAsset, ...] | None = None
    prompt_set: tuple[PromptAsset, ...] | None = None
    music_brief: MusicBrief | None = None
    edit_plan: EditPlan | None = None
    publish_brief: PublishBrief | None = None
    postmortem: PostmortemNote | None = None

    def present(self) -> tuple[OutputKind, ...]:
        """The kinds this result carries, in the seed's order."""
        dumped = self.model_dump(by_alias=True, exclude_none=True)
        return tuple(kind for kind in OUTPUT_KINDS if kind in dumped)


class SkillCallResult(Wire):
    """A skill's answer to one request.

    `recovery` is the one addition to the seed's shape: the status rules ask an `error` result
    for a reason and a recovery step, and a separate field keeps both checkable.
    """

    request_id: str = Field(min_length=1)
    skill_name: str = Field(min_length=1)
    status: SkillCallStatus
    summary: str
    outputs: SkillCallOutputs = SkillCallOutputs()
    logs: tuple[str, ...] = ()
    error: str | None = None
    """Why the call failed; required when `status` is `error`."""
    recovery: str | None = None
    """What to do next after an error; required when `status` is `error`."""


def to_wire(model: BaseModel) -> dict[str, Any]:
    """The JSON form: camelCase keys, absent optionals left out."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)
