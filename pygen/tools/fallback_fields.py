"""Conventions `fallback_fields` held against the catalog: an entry naming a node type the
catalog lacks, or a field its data type does not declare, answers for nothing (a typo, or a
catalog that moved on), so it is said once, at gen, rather than left to pass in silence."""

from __future__ import annotations

from collections.abc import Iterable

from pygen.conventions import Conventions
from pygen.model import Diagnostic, NodeDef


def unmatched(conv: Conventions, nodes: Iterable[NodeDef]) -> tuple[Diagnostic, ...]:
    """A warning per listed node type the catalog lacks and per listed field its type lacks."""
    if not conv.fallback_fields:
        return ()
    fields: dict[str, set[str]] = {}
    for node in nodes:
        fields.setdefault(node.type, set()).update(f.name for f in node.data_type.fields)
    notes: list[Diagnostic] = []
    for node_type, names in conv.fallback_fields.items():
        if node_type not in fields:
            notes.append(_note(f"conventions.fallback_fields: no node type {node_type!r} in "
                               f"the catalog; its entry answers for nothing", node_type))
            continue
        for name in names:
            if name not in fields[node_type]:
                notes.append(_note(f"conventions.fallback_fields: {node_type!r} has no data "
                                   f"field {name!r}; it answers for nothing", node_type))
    return tuple(notes)


def _note(message: str, node_type: str | None = None) -> Diagnostic:
    return Diagnostic(level="warning", kind="fallback-fields", message=message, node_type=node_type)
