"""The Skill Call Protocol: typed requests and results between skills, planning-only in v1.

Public surface: the wire models, `load_registry`, `plan`, `validate`, `apply_patches`,
`render_protocol_blocks`, `protocol_schema` and, for `pygen serve`, `register_protocol_tools`.
"""

from pygen.protocol.docs import protocol_schema, render_protocol_blocks
from pygen.protocol.loading import ProtocolError
from pygen.protocol.models import (
    OUTPUT_KINDS,
    EditCut,
    EditPlan,
    MusicBrief,
    OutputKind,
    PostmortemNote,
    PromptAsset,
    PublishBrief,
    RemotionVideoStyle,
    SceneAsset,
    SceneSpec,
    SceneSpecPatch,
    SkillCallInputs,
    SkillCallOutputs,
    SkillCallRequest,
    SkillCallResult,
    SkillCallStatus,
    Subject,
    to_wire,
)
from pygen.protocol.patches import apply_patches
from pygen.protocol.planning import plan
from pygen.protocol.registry import Registry, RegistrySkill, load_registry
from pygen.protocol.rules import Violation, validate

__all__ = [
    "OUTPUT_KINDS",
    "EditCut",
    "EditPlan",
    "MusicBrief",
    "OutputKind",
    "PostmortemNote",
    "PromptAsset",
    "ProtocolError",
    "PublishBrief",
    "Registry",
    "RegistrySkill",
    "RemotionVideoStyle",
    "SceneAsset",
    "SceneSpec",
    "SceneSpecPatch",
    "SkillCallInputs",
    "SkillCallOutputs",
    "SkillCallRequest",
    "SkillCallResult",
    "SkillCallStatus",
    "Subject",
    "Violation",
    "apply_patches",
    "load_registry",
    "plan",
    "protocol_schema",
    "render_protocol_blocks",
    "to_wire",
    "validate",
]
