"""The names the model knows, for the prose lint: node types, handle ids, data fields at any
depth, enum values, type names, default data keys, tool names and tool parameters; per node
and for the whole model, each compared in any case style (`aspect_ratio` is `aspectRatio`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pygen.model import DataField, Model, NodeDef, ToolSchema, TypeRef
from pygen.skills.retired_record import schema_names
from pygen.suggest import NameIndex, normalised


@dataclass(frozen=True)
class Vocabulary:
    """Every name the model knows, and the names of each node (for closest matches)."""

    names: frozenset[str]
    by_node: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def _norms(self) -> dict[str | None, frozenset[str]]:
        norms: dict[str | None, frozenset[str]] = {None: frozenset(map(normalised, self.names))}
        norms.update((key, frozenset(map(normalised, names)))
                     for key, names in self.by_node.items())
        return norms

    @cached_property
    def _indexes(self) -> dict[str | None, NameIndex]:
        return {}

    def index(self, node_type: str | None) -> NameIndex:
        """The names of the node (or of the model), indexed once for close matches."""
        if node_type not in self._indexes:
            names = self.names if node_type is None else self.by_node.get(node_type, ())
            self._indexes[node_type] = NameIndex(names)
        return self._indexes[node_type]

    def has(self, token: str, node_type: str | None = None) -> bool:
        """Whether `token`, exactly as written, is a name of the node (or of the model)."""
        return token in (self.by_node.get(node_type, self.names) if node_type else self.names)

    def knows(self, token: str, node_type: str | None = None) -> bool:
        """Whether `token`, in any case style, names something of the node (or the model)."""
        norms = self._norms.get(node_type, self._norms[None])
        return normalised(token) in norms

    @cached_property
    def of_nodes(self) -> frozenset[str]:
        """Every name some node has, exactly as written."""
        return frozenset().union(*self.by_node.values())


def type_names(ref: TypeRef) -> Iterator[str]:
    if ref.name:
        yield ref.name
    if isinstance(ref.value, str):
        yield ref.value
    for member in (*ref.types, *((ref.items,) if ref.items else ())):
        yield from type_names(member)
    for sub in ref.fields:
        yield from field_names(sub)


def field_names(data_field: DataField) -> Iterator[str]:
    yield data_field.name
    yield from type_names(data_field.type)


def data_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield str(key)
            yield from data_keys(sub)
    elif isinstance(value, list):
        for item in value:
            yield from data_keys(item)


def tool_names(tool: ToolSchema) -> Iterator[str]:
    yield tool.name
    yield from schema_names(tool.input_schema)


def node_names(node: NodeDef) -> frozenset[str]:
    names: set[str] = {node.type, *(h.id for h in (*node.inputs, *node.outputs) if h.id)}
    data_type = node.data_type
    if data_type.name:
        names.add(data_type.name)
    for data_field in data_type.fields:
        names.update(field_names(data_field))
    for variant in data_type.variants:
        names.update(n for n in (variant.name, variant.discriminant) if n)
        if isinstance(variant.value, str):
            names.add(variant.value)
        for data_field in variant.fields:
            names.update(field_names(data_field))
    names.update(data_keys(node.default_data))
    if node.tool is not None:
        names.update(tool_names(node.tool))
    return frozenset(names)


def vocabulary(model: Model, extra: Iterable[str] = ()) -> Vocabulary:
    by_node = {node.type: node_names(node) for node in model.nodes}
    names = set(extra).union(*by_node.values())
    for tool in model.tools:
        names.update(tool_names(tool))
    return Vocabulary(frozenset(names), by_node)
