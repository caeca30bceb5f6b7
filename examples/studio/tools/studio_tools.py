"""MCP tools of the studio example: schema only, no work.

Each tool declares the parameters a real studio backend would take, so the skill generator
can read their input schemas, but every handler just returns a fixed message saying it is a
schema-only example and did nothing. Importing this module has no side effects beyond
building the server object: no network, no files, no threads.

Naming follows the editor: a node type in kebab case (`generate-image`) maps to the tool
of the same name in snake case (`generate_image`), and a camelCase data field
(`aspectRatio`) to a snake_case parameter (`aspect_ratio`). Enums repeat the string unions
of `src/types/providers.ts` value for value.
"""

# No `from __future__ import annotations`: pydantic and the SDK then resolve every type
# eagerly, so the module also works when a loader runs it by path without sys.modules.
from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, ConfigDict, Field

NO_WORK = "Schema-only example: this tool does no work and generated nothing."

# Mirrors of src/types/providers.ts; keep them identical.
ImageProvider = Literal["flux", "flux-pro", "flux-kontext", "nano-banana-pro", "ideogram"]
VideoProvider = Literal["kling", "veo-3", "runway-gen4", "hailuo"]
MusicProvider = Literal["suno", "udio", "stable-audio"]
UpscaleProvider = Literal["topaz", "real-esrgan"]
SpeechProvider = Literal["elevenlabs", "openai-tts"]
AspectRatio = Literal["1:1", "16:9", "9:16", "4:3", "3:4", "21:9"]
ImageResolution = Literal["1k", "2k", "4k"]
VideoDuration = Literal[5, 10]
UpscaleFactor = Literal[2, 4]
CameraMotion = Literal["static", "pan-left", "pan-right", "zoom-in", "zoom-out", "orbit"]
VoiceId = Literal["aria", "brian", "charlotte", "daniel", "nova"]

JobStatus = Literal["queued", "running", "completed", "failed", "skipped"]


class GenerationJob(BaseModel):
    """What a generation tool returns: the job and, once finished, its asset URL."""

    job_id: Annotated[str, Field(description="Id of the generation job; empty when skipped.")]
    status: Annotated[JobStatus, Field(description="Where the job is.")]
    url: Annotated[str | None, Field(description="Asset URL once the job completed.")] = None
    message: Annotated[str, Field(description="Human-readable note about the job.")] = ""


class Camera(BaseModel):
    """Camera move across an animated clip."""

    model_config = ConfigDict(frozen=True)

    motion: Annotated[CameraMotion, Field(description="Kind of move.")] = "zoom-in"
    strength: Annotated[
        float, Field(ge=0, le=1, description="Intensity from 0 (barely) to 1 (strong).")
    ] = 0.5


# Shared, never mutated (frozen), so one instance can be every call's default.
DEFAULT_CAMERA = Camera()


class Position(BaseModel):
    x: float
    y: float


class WorkflowNode(BaseModel):
    id: Annotated[str, Field(description="Unique within the workflow; edges refer to it.")]
    type: Annotated[str, Field(description="A node type from the catalog, e.g. generate-image.")]
    position: Position
    data: Annotated[dict[str, Any], Field(description="The node's data object; see its skill.")]


class WorkflowEdge(BaseModel):
    id: str
    source: Annotated[str, Field(description="Id of the node the edge leaves.")]
    sourceHandle: Annotated[str, Field(description="One of the source node's outputs.")]
    target: Annotated[str, Field(description="Id of the node the edge enters.")]
    targetHandle: Annotated[str, Field(description="One of the target node's inputs.")]


class WorkflowSettings(BaseModel):
    defaultAspectRatio: AspectRatio = "16:9"
    concurrency: Annotated[int, Field(ge=1, description="Most nodes run at once.")] = 2


class Workflow(BaseModel):
    nodes: list[WorkflowNode]
    edges: list[WorkflowEdge]
    settings: WorkflowSettings = WorkflowSettings()


def _skipped() -> GenerationJob:
    return GenerationJob(job_id="", status="skipped", message=NO_WORK)


def generate_image(
    prompt: Annotated[str, Field(min_length=1, description="What to draw.")],
    provider: Annotated[ImageProvider, Field(description="Backend that renders the image.")] = (
        "nano-banana-pro"
    ),
    model: Annotated[str, Field(description="Provider-specific model id.")] = (
        "gemini-2.5-flash-image"
    ),
    style: Annotated[str, Field(description="Free-form style hint appended to the prompt.")] = "",
    aspect_ratio: Annotated[AspectRatio, Field(description="Frame shape of the image.")] = "16:9",
    negative_prompt: Annotated[str, Field(description="What the image must not contain.")] = "",
    resolution: Annotated[ImageResolution | None, Field(description="Output resolution tier.")] = (
        None
    ),
    seed: Annotated[int, Field(ge=-1, description="Random seed; -1 picks a new one.")] = -1,
    reference_image_url: Annotated[
        str | None, Field(description="Image the result should stay close to.")
    ] = None,
) -> GenerationJob:
    """Generate a still image from a text prompt. Returns the job; its url is the image."""
    return _skipped()


def upscale_image(
    source_image_url: Annotated[str, Field(description="Image to enlarge.")],
    provider: Annotated[UpscaleProvider, Field(description="Backend that upscales.")] = "topaz",
    scale: Annotated[UpscaleFactor, Field(description="How much each side is enlarged.")] = 2,
) -> str:
    """Upscale an image, sharpening its detail."""
    return NO_WORK


def image_to_video(
    source_image_url: Annotated[str, Field(description="First frame of the clip.")],
    prompt: Annotated[str, Field(description="Motion and action to animate.")] = "",
    provider: Annotated[VideoProvider, Field(description="Backend that renders the clip.")] = (
        "kling"
    ),
    model: Annotated[str, Field(description="Provider-specific model id.")] = "kling-v2.1",
    duration_seconds: Annotated[VideoDuration, Field(description="Clip length in seconds.")] = 5,
    aspect_ratio: Annotated[AspectRatio, Field(description="Frame shape of the clip.")] = "16:9",
    negative_prompt: Annotated[str, Field(description="What the clip must not show.")] = "",
    camera: Annotated[Camera, Field(description="Camera move across the clip.")] = DEFAULT_CAMERA,
    generate_audio: Annotated[
        bool, Field(description="Ask the provider for a native soundtrack as well.")
    ] = False,
) -> GenerationJob:
    """Animate a still image into a short video clip. Returns the job; its url is the clip."""
    return _skipped()


def generate_music(
    prompt: Annotated[str, Field(min_length=1, description="Mood, genre and instruments.")],
    provider: Annotated[MusicProvider, Field(description="Backend that composes.")] = "suno",
    model: Annotated[str, Field(description="Provider-specific model id.")] = "chirp-v4",
    duration_seconds: Annotated[
        int, Field(ge=5, le=240, description="Track length in seconds.")
    ] = 30,
    instrumental: Annotated[bool, Field(description="Leave out vocals.")] = True,
    lyrics: Annotated[str | None, Field(description="Lyrics to sing, if not instrumental.")] = (
        None
    ),
    negative_prompt: Annotated[str, Field(description="Sounds or instruments to avoid.")] = "",
) -> GenerationJob:
    """Compose a music track. Returns the job; its url is the audio file."""
    return _skipped()


def text_to_speech(
    text: Annotated[str, Field(min_length=1, description="Words to speak.")],
    provider: Annotated[SpeechProvider, Field(description="Backend that speaks.")] = "elevenlabs",
    voice: Annotated[VoiceId, Field(description="Voice to speak with.")] = "aria",
    speed: Annotated[float, Field(gt=0, le=4, description="Playback speed multiplier.")] = 1.0,
) -> str:
    """Speak a piece of text aloud in a chosen voice."""
    return NO_WORK


def create_workflow(
    name: Annotated[str, Field(min_length=1, max_length=120, description="Workflow title.")],
) -> str:
    """Create an empty workflow and return its id and editor URL."""
    return NO_WORK


def update_workflow_json(
    workflow_id: Annotated[str, Field(description="Id returned by create_workflow.")],
    workflow: Annotated[
        Workflow, Field(description="The complete workflow; it replaces the stored one.")
    ],
) -> str:
    """Replace a workflow's nodes, edges and settings with the given JSON."""
    return NO_WORK


def build_server() -> MCPServer:
    """The example server with every tool registered; nothing runs until it is served."""
    server: MCPServer = MCPServer("studio")
    # Tools typed `-> str` stay unstructured: only the job-returning ones get an outputSchema.
    structured: tuple[Callable[..., Any], ...] = (generate_image, image_to_video, generate_music)
    plain: tuple[Callable[..., Any], ...] = (
        upscale_image,
        text_to_speech,
        create_workflow,
        update_workflow_json,
    )
    for fn in structured:
        server.add_tool(fn)
    for fn in plain:
        server.add_tool(fn, structured_output=False)
    return server


server = build_server()
