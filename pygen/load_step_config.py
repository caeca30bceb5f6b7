"""The `load_step` table of the configuration: what the editor's load step rewrites in a
saved workflow (legacy types, types picked by a data value, handle maps, functions that
reassign handles by code)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


class ByDataStep(BaseModel):
    """One legacy type whose current type the load code picks by a data value."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    key: str = Field(min_length=1)
    values: dict[str, str] = Field(default_factory=dict)
    otherwise: str | None = None


class HandleFunctionStep(BaseModel):
    """The node types on whose inputs / outputs a load-step function reassigns handle ids."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    inputs: list[str] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)


class LoadStep(BaseModel):
    """What the editor's load step rewrites in a saved workflow before it shows it: legacy
    node types, and per node type legacy input (target) and output (source) handle ids. Each
    key takes maps the code declares, `path/file.ts:NAME` (a constant whose value is an
    object literal of strings, anywhere in the file), or maps written here, or a list of both;
    a later map wins."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    # {legacy type: current type}
    node_types: list[str | dict[str, str]] = Field(default_factory=list)
    # {legacy type: {key, values: {data value: current type}, otherwise}}: the current type
    # picked by a value of the node's data, as a branch on it in the load code picks it.
    node_types_by_data: dict[str, ByDataStep] = Field(default_factory=dict)
    # {"path/file.ts:NAME": {inputs: [node type], outputs: [node type]}}: a function of the
    # load step that reassigns edges' sourceHandle / targetHandle by code, not by a map.
    handle_functions: dict[str, HandleFunctionStep] = Field(default_factory=dict)
    # {node type: {legacy handle id: current handle id}}
    input_handles: list[str | dict[str, dict[str, str]]] = Field(default_factory=list)
    output_handles: list[str | dict[str, dict[str, str]]] = Field(default_factory=list)
    # Maps the code keeps of the handle ids its node components draw, `path/file.ts:NAME` of
    # a constant `{node type: {handle id: string}}` (the keys of each type's map are its
    # ids, the values are not read): an edge on an id such a map has, which the catalog does
    # not declare, connects in the editor, so it is a warning that the catalog is stale.
    drawn_inputs: list[str] = Field(default_factory=list)
    drawn_outputs: list[str] = Field(default_factory=list)

    @field_validator("node_types", "input_handles", "output_handles", "drawn_inputs",
                     "drawn_outputs", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str | dict) else value
