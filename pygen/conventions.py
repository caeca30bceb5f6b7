"""The editor's conventions: what the TypeScript types cannot say and the config declares.

`[tool.pygen.conventions]`: which data field maps wired inputs to data fields, where a saved
node keeps its label, type, data and position, whether the editor fills in default data,
whether the graph must be acyclic, how many edges an input takes. Every key is off (or React
Flow's layout) unless declared: a rule or sentence that depends on one exists only when it is.

The saved layout of a node (its envelope) is converted to and from the form validation reads,
`{id, type, position, data}`; the paths of what validation finds are converted back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

Part = str | int


class Conventions(BaseModel):
    """The keys of `[tool.pygen.conventions]`; see docs/configuration.md."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    # The data field that maps a wired input handle to the data field it fills.
    mapping_field: str | None = None
    # When the mapping's values are objects: the key in each that names the data field.
    mapping_value_key: str | None = None
    # A wired input needs an entry in the mapping field.
    mapping_required: bool = False
    # Where a saved node keeps its display label (a dotted path in the node: `data.label`).
    label_key: str | None = None
    # The editor fills in default data for keys a saved node leaves out.
    editor_fills_defaults: bool = False
    # Cycles and self-loops are errors.
    acyclic: bool = False
    # The most edges one input handle takes (unset: no limit).
    edges_per_input: int | None = Field(default=None, ge=1)
    # Where a saved node keeps its type, data and position (dotted paths in the node).
    node_type_key: str = "type"
    node_data_key: str = "data"
    node_position_key: str = "position"
    # Keys every saved node carries with a fixed value (`type = "custom"`).
    node_constants: dict[str, str] = Field(default_factory=dict)
    # The position is saved as `[x, y]` (n8n), not `{x, y}`.
    position_pair: bool = False
    # Edges kept as a connections map under this key (n8n: `connections`), keyed by source
    # node, then connection kind, then output index: `[[{node, type, index}]]`.
    connections_key: str | None = None
    # The node key the connections map names nodes by (n8n: `name`). It is then the node's
    # identity: unique in the workflow, and an `id` is not needed (older n8n exports have none).
    connection_node_key: str = "id"
    # The connection kind examples write (n8n: `main`).
    connection_kind: str = "main"
    # Where a saved node keeps its version (n8n: `typeVersion`), which selects the variant
    # (with variant_field) its data is checked against; unset: the data's variant field.
    node_version_key: str | None = None
    # A string value starting with this is an expression the editor evaluates when the node
    # runs (n8n: `=`, as in `={{ $json.id }}`): accepted in any typed field, its `{{ }}` checked.
    expression_prefix: str | None = Field(default=None, min_length=1)
    # A saved node whose key (a dotted path in the node) has this value has one more output
    # of `connection_kind` than its type declares, after them (n8n: `{ onError =
    # "continueErrorOutput" }`, the error output n8n-workflow's getNodeOutputs appends).
    error_output: dict[str, str] | None = None
    # A required field empty after defaults are applied ("", null, [] of a choice list, or
    # left out while its default is empty) is an error, as the editor itself flags it (n8n:
    # NodeHelpers `getNodeParametersIssues`/`addToIssuesIfMissing`); which fields count is
    # read from the field list (its preset's EMPTY_IS_MISSING type words).
    required_nonempty: bool = False
    # Values the editor treats as "not set", each written as JSON text (`['""', "null"]`; TOML
    # has no null): a field holding one is judged as absent (pygen/validation/empty.py).
    unset_values: list[str] = Field(default_factory=list)
    # A string that reads as a number stands for that number in a number field (the editor
    # parses it when the node runs, e.g. `parseFloat`).
    numeric_strings: bool = False
    # Data equal to the editor's own default data for the node is valid: a field the default
    # data leaves out (or leaves unset) is not owed, a value equal to the default's is fine.
    default_data_valid: bool = False
    # {node type: [top-level field]}: fields the editor's code reads only with a fallback
    # (`data.x ?? 100`, `data.x || "2"`, a destructuring default) or never reads, so a node
    # that leaves one out runs as if it held that default: a required one left out is not
    # owed (a note; `strict` still wants it written). Each entry is a claim about the code,
    # so the config says where (pygen/validation/default_data.py).
    fallback_fields: dict[str, list[str]] = Field(default_factory=dict)

    @field_validator("unset_values")
    @classmethod
    def _json_texts(cls, texts: list[str]) -> list[str]:
        for text in texts:
            try:
                json.loads(text)
            except ValueError:
                raise ValueError(f"{text!r} is not JSON text; write a value as JSON "
                                 "('\"\"' for the empty string, 'null')") from None
        return texts

    @cached_property
    def unset(self) -> tuple[Any, ...]:
        """The unset values as JSON values."""
        return tuple(json.loads(text) for text in self.unset_values)

    @property
    def enveloped(self) -> bool:
        """Whether saved nodes differ from `{id, type, position, data}`."""
        return ((self.connection_node_key, self.node_type_key, self.node_data_key,
                 self.node_position_key) != ("id", "type", "data", "position")) or bool(
            self.node_constants) or self.position_pair


DEFAULT = Conventions()
# Canonical key -> the convention naming where a saved node keeps it. A node's identity is the
# key connections name it by: its name where the connections map names nodes by name.
_CANONICAL = {"id": "connection_node_key", "type": "node_type_key", "data": "node_data_key",
              "position": "node_position_key"}


def split(dotted: str) -> tuple[str, ...]:
    return tuple(dotted.split("."))


def get_path(value: object, parts: tuple[Part, ...]) -> tuple[bool, Any]:
    """(found, value) at the path."""
    for part in parts:
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return False, None
    return True, value


def set_path(target: dict[str, Any], parts: tuple[str, ...], value: Any) -> None:
    """Set a value, creating objects on the way (an existing key keeps its value)."""
    for part in parts[:-1]:
        inner = target.get(part)
        if not isinstance(inner, dict):
            inner = target[part] = {}
        target = inner
    target.setdefault(parts[-1], value)


def canonical_node(node: object, conv: Conventions) -> object:
    """A saved node in the form validation reads; keys outside the envelope are dropped."""
    if not conv.enveloped or not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, attr in _CANONICAL.items():
        found, value = get_path(node, split(getattr(conv, attr)))
        if found:
            out[key] = value
    if conv.position_pair:
        out["position"] = as_point(out.get("position"))
    _keep_version(node, out, conv)
    return out


def _keep_version(node: Mapping[str, Any], out: dict[str, Any], conv: Conventions) -> None:
    """The node's version stays where it is saved: it selects the schema of its data."""
    if conv.node_version_key:
        found, value = get_path(node, split(conv.node_version_key))
        if found:
            set_path(out, split(conv.node_version_key), value)


def as_point(value: object) -> object:
    """`[x, y]` as `{x, y}`; anything else as it is (validation reports it)."""
    if isinstance(value, list) and len(value) == 2:
        return {"x": value[0], "y": value[1]}
    return value


def as_pair(value: object) -> object:
    """`{x, y}` as `[x, y]`."""
    return [value.get("x"), value.get("y")] if isinstance(value, dict) else value


def saved_node(node: Mapping[str, Any], conv: Conventions) -> dict[str, Any]:
    """A node `{id, type, position, data}` in the layout the editor saves."""
    if not conv.enveloped:
        return dict(node)
    out: dict[str, Any] = {k: node[k] for k in ("id",) if k in node}
    out.update(conv.node_constants)
    # Paths that share a head (`data.type`, `data.config`) merge into one object.
    for key in ("type", "position", "data"):
        if key in node:
            kept = as_pair(node[key]) if key == "position" and conv.position_pair else node[key]
            set_path(out, split(getattr(conv, _CANONICAL[key])), kept)
    _keep_version(node, out, conv)
    return out


def saved_path(parts: tuple[Part, ...], conv: Conventions) -> tuple[Part, ...]:
    """A path in the canonical form (`nodes, 1, data, x`) as a path in the saved document."""
    if not conv.enveloped or len(parts) < 3 or parts[0] != "nodes" or parts[2] not in _CANONICAL:
        return parts
    return (*parts[:2], *split(getattr(conv, _CANONICAL[str(parts[2])])), *parts[3:])


def saved_node_path(parts: tuple[Part, ...], conv: Conventions) -> tuple[Part, ...]:
    """Likewise for a path inside one node (`data, x`)."""
    return saved_path(("nodes", 0, *parts), conv)[2:]
