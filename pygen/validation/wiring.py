"""Rules on edges beyond "the handle exists": field mappings and connection compatibility.

- With a declared mapping field (conventions `mapping_field`), each entry names a data field
  that exists (`field-mapping-unknown-field`), and, when `mapping_required`, each wired target
  handle has an entry (`field-mapping-missing`).
- Handles may declare types in the schema document (`x-handles[type].inputTypes` /
  `outputTypes`, {handle id: type}); an output of one type wired into an input of another is
  an error (`connection-type`).
- Connection rules the definitions state (entry_fields `handle_accepts` / `connects_to`):
  `x-handles[type].accepts` ({input id: [node types or output types]}) says what may be wired
  into an input (`connection-accepts`); `x-handles[type].connectsTo` ({output id, or "*" for
  every output: [node types or input types]}) says where an output may go
  (`connection-connects-to`). Where a handle declares no type its id stands in for it (ids
  usually name what flows: `image`), so a rule never refuses a wire it cannot judge.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pygen.conventions import Conventions
from pygen.jsonvalues import show
from pygen.model import rule_allows, types_compatible
from pygen.schema.fields import MappingShape, mapping_shape, mapping_target, properties
from pygen.schema.node_schema import Schema
from pygen.suggest import guess
from pygen.validation.findings import Finding, Fix, error_at, path_of


@dataclass(frozen=True)
class HandleTypes:
    """Declared handle types of one node type (empty when its catalog declares none)."""

    inputs: Mapping[str, str] = field(default_factory=dict)
    outputs: Mapping[str, str] = field(default_factory=dict)
    accepts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    connects_to: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # {input id: the most edges it takes} (entry_fields handle_limit).
    limits: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_doc(cls, entry: object) -> HandleTypes:
        """Read the optional keys of one `x-handles` entry; anything malformed is ignored."""
        if not isinstance(entry, dict) or entry.get("declared") is False:
            return cls()
        limits = {k: v for k, v in _dict(entry.get("inputLimits")).items()
                  if isinstance(v, int) and not isinstance(v, bool) and v >= 1}
        return cls(_str_map(entry.get("inputTypes")), _str_map(entry.get("outputTypes")),
                   _lists(entry.get("accepts")), _lists(entry.get("connectsTo")), limits)

    def outgoing(self, handle: str | None) -> tuple[str, ...]:
        """Where this output may connect: its own rule, else the node's (`*`)."""
        return self.connects_to.get(handle or "") or self.connects_to.get("*", ())


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _lists(value: object) -> dict[str, tuple[str, ...]]:
    return {k: tuple(str(x) for x in v) for k, v in _dict(value).items() if isinstance(v, list)}


def _str_map(value: object) -> dict[str, str]:
    return {k: v for k, v in _dict(value).items() if isinstance(v, str)}


@dataclass(frozen=True)
class End:
    """One end of an edge, resolved: node index, id, type and the handle used."""

    index: int
    node_id: str
    node_type: str
    handle: str | None


def connection(edge_at: tuple[str | int, ...], source: End, target: End,
               source_types: HandleTypes, target_types: HandleTypes) -> Iterator[Finding]:
    out_type = source_types.outputs.get(source.handle or "")
    in_type = target_types.inputs.get(target.handle or "")
    where = path_of("$", (*edge_at, "targetHandle"))
    if out_type and in_type and not compatible(out_type, in_type):
        yield error_at(where, f"{source.node_type} output {show(source.handle)} carries "
                       f"{out_type}, but input {show(target.handle)} of {target.node_type} takes "
                       f"{in_type}", rule="connection-type")
    accepts = target_types.accepts.get(target.handle or "", ())
    if not rule_allows(accepts, source.node_type, out_type or source.handle):
        yield error_at(where, f"input {show(target.handle)} of {target.node_type} accepts only "
                       f"{', '.join(accepts)}; wire one of those into it, not "
                       f"{_end_text(source, out_type, 'output')}", rule="connection-accepts")
    goes_to = source_types.outgoing(source.handle)
    if not rule_allows(goes_to, target.node_type, in_type or target.handle):
        yield error_at(where, f"{source.node_type} output {show(source.handle)} connects only "
                       f"to {', '.join(goes_to)}; not to "
                       f"{_end_text(target, in_type, 'input')}", rule="connection-connects-to")


def _end_text(end: End, handle_type: str | None, side: str) -> str:
    kind = f", {handle_type}" if handle_type else ""
    return f"{end.node_type} ({side} {show(end.handle)}{kind})"


def compatible(out_type: str, in_type: str) -> bool:
    """Same type, a wildcard, or overlapping unions (`image | video`)."""
    return types_compatible(out_type, in_type)


def field_mappings(node: Mapping[str, Any], at: tuple[str | int, ...], schema: Schema,
                   wired: Mapping[str, str | None], conv: Conventions) -> Iterator[Finding]:
    """`wired`: target handle id → the source handle wired into it (None when unnamed).

    Only with a declared mapping field (conventions `mapping_field`), checked on the data as
    the editor sees it (its default filled in when the editor is declared to fill defaults).
    """
    props = properties(schema)
    shape = mapping_shape(props, conv.mapping_field, conv.mapping_value_key)
    data = node.get("data")
    if shape is None or not isinstance(data, dict):
        return
    # Left out, the field holds its default when the editor fills defaults in, else nothing.
    absent = props[shape.field].get("default") if conv.editor_fills_defaults else {}
    mappings = data.get(shape.field, absent)
    if not isinstance(mappings, dict):
        return
    base = (*at, "data", shape.field)
    if conv.mapping_required:
        yield from _missing_entries(mappings, base, props, wired, shape)
    yield from _unknown_targets(mappings, base, props, shape)


def _missing_entries(mappings: Mapping[str, Any], base: tuple[str | int, ...],
                     props: Mapping[str, Schema], wired: Mapping[str, str | None],
                     shape: MappingShape) -> Iterator[Finding]:
    for handle, source_handle in wired.items():
        if handle in mappings:
            continue
        target = mapping_target(props, handle, source_handle, shape)
        value = shape.entry_for(target) if target is not None else None
        what = "<the data field it fills>" if shape.values == "string" else "<its entry>"
        yield error_at(path_of("$", base), f"input {show(handle)} is wired but has no entry; "
                       f"add {show(handle)}: {what}", target if value is not None else None,
                       rule="field-mapping-missing",
                       fix=Fix("set", (*base, handle), value) if value is not None else None)


def _unknown_targets(mappings: Mapping[str, Any], base: tuple[str | int, ...],
                     props: Mapping[str, Schema], shape: MappingShape) -> Iterator[Finding]:
    fields = [n for n in props if n != shape.field]
    inner = (shape.value_key,) if shape.values == "object" and shape.value_key else ()
    for handle, entry in mappings.items():
        name = shape.target_of(entry)
        if name is not None and name not in props:
            near = guess(name, fields)
            at_entry = (*base, handle, *inner)
            yield error_at(path_of("$", at_entry), f"names {show(name)}, which is not a data "
                           "field of this node", near.name if near else None,
                           rule="field-mapping-unknown-field",
                           fix=Fix("set", at_entry, near.name) if near else None)


def wired_inputs(edges: Sequence[tuple[End, End]]) -> dict[int, dict[str, str | None]]:
    """Node index → {target handle: source handle} for every edge with a named target."""
    out: dict[int, dict[str, str | None]] = {}
    for source, target in edges:
        if target.handle is not None:
            out.setdefault(target.index, {}).setdefault(target.handle, source.handle)
    return out
