"""The legacy names an editor's load step rewrites (config `load_step`), as the model holds them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LoadRenames(BaseModel):
    """What the editor's load step rewrites in a saved workflow (config `load_step`): legacy
    node types and, per node type, legacy handle ids, each to its current name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node_types: dict[str, str] = Field(default_factory=dict)
    input_handles: dict[str, dict[str, str]] = Field(default_factory=dict)
    output_handles: dict[str, dict[str, str]] = Field(default_factory=dict)
    # Where the maps were read (`file.ts:NAME`, `config`), for doctor.
    sources: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.node_types or self.input_handles or self.output_handles)
