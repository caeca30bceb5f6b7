"""The legacy names an editor's load step rewrites (config `load_step`), as the model holds them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ByData(BaseModel):
    """A legacy type whose current type the load step picks by a value of the node's data
    (`if (data.provider === "x") type = "a" else if ... else type = "c"`): `key` is the data
    key read (dots for nested keys), `values` maps its value to the current type, `otherwise`
    is the type of the last `else` (none: a value no branch names keeps the legacy type)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    values: dict[str, str] = Field(default_factory=dict)
    otherwise: str | None = None


class CodeRewrite(BaseModel):
    """A load-step function that reassigns edges' handle ids by a rule no map holds (by the
    other end's node type, say): on these node types' inputs (targetHandle) and outputs
    (sourceHandle) a saved handle is what that function turns into the loaded one, which
    pygen cannot work out without running it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()


class LoadRenames(BaseModel):
    """What the editor's load step rewrites in a saved workflow (config `load_step`): legacy
    node types and, per node type, legacy handle ids, each to its current name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node_types: dict[str, str] = Field(default_factory=dict)
    # Legacy types whose current type depends on a value of the node's data.
    node_types_by_data: dict[str, ByData] = Field(default_factory=dict)
    input_handles: dict[str, dict[str, str]] = Field(default_factory=dict)
    output_handles: dict[str, dict[str, str]] = Field(default_factory=dict)
    # `file.ts:NAME` of a function that rewrites handles by code -> the node types it does so on.
    handle_functions: dict[str, CodeRewrite] = Field(default_factory=dict)
    # {node type: handle ids} its components draw, from maps the code keeps (`drawn_inputs`,
    # `drawn_outputs`): ids the editor connects whatever the catalog's list says.
    drawn_inputs: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    drawn_outputs: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # Where the maps were read (`file.ts:NAME`, `config`), for doctor.
    sources: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.node_types or self.node_types_by_data or self.input_handles
                    or self.output_handles or self.handle_functions or self.drawn_inputs
                    or self.drawn_outputs)

    def current_type(self, saved: str, data: object) -> str | None:
        """The type the load step gives a node saved as `saved` with this data, or None."""
        if saved in self.node_types:
            return self.node_types[saved]
        by = self.node_types_by_data.get(saved)
        if by is None:
            return None
        value: object = data
        for part in by.key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return by.values.get(value, by.otherwise) if isinstance(value, str) else by.otherwise
