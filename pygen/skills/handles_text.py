"""How a node's handles read in its skill: each one's id, label, type and connection rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pygen.dynamic_handles import DynamicHandles
from pygen.model import ComputedValue, Handle, NodeDef
from pygen.skills.markdown import code, one_line

# Not declared is not "none": nothing is known about the handles, so nothing is promised.
UNDECLARED = "not declared"


def handle_text(handle: Handle) -> str:
    name = code(handle.id) if handle.id is not None else "unnamed"
    notes = [n for n in (handle.label and one_line(handle.label),
                         handle.type and f"type {code(handle.type)}") if n]
    if handle.accepts:
        notes.append(f"accepts only {names_text(handle.accepts)}")
    if handle.limit is not None:
        notes.append("one edge at most" if handle.limit == 1 else
                     f"{handle.limit} edges at most")
    if handle.connects_to:
        notes.append(f"connects only to {names_text(handle.connects_to)}")
    return name + (f" ({', '.join(notes)})" if notes else "")


def names_text(values: Iterable[str]) -> str:
    return " / ".join(code(v) for v in values)


def _unnamed_text(count: int) -> str:
    """React Flow gives an unnamed handle the id `null`: an edge to it names no handle."""
    return (f"{count} unnamed handle{'s' if count > 1 else ''} (id `null`: an edge to "
            "or from it names no handle)")


def side_text(node: NodeDef, side: Literal["inputs", "outputs"]) -> str:
    """One side of a node as its skill says it: its handles, "none" only when the code
    declares none, "not declared" when it says nothing, "dynamic" when they are computed."""
    computed = tuple(c for c in node.computed if c.field == side)
    return handles_text(getattr(node, side), getattr(node, f"{side}_declared"), computed,
                        getattr(node, f"{side}_dynamic"))


def dynamic_text(dynamic: DynamicHandles) -> str:
    """`dynamic (ids `col_<id>`)`: the patterns with `<id>` for what varies."""
    if not dynamic.patterns:
        return "dynamic (computed from the node's data; any id)"
    return f"dynamic (ids {names_text(p.replace('*', '<id>') for p in dynamic.patterns)})"


def handles_text(handles: tuple[Handle, ...], declared: bool = True,
                 computed: tuple[ComputedValue, ...] = (),
                 dynamic: DynamicHandles | None = None) -> str:
    if dynamic is not None:
        fixed = handles_text(handles, True) if handles else ""
        return f"{fixed}; and {dynamic_text(dynamic)}" if fixed else dynamic_text(dynamic)
    if not declared:
        whole = next((c for c in computed if "[" not in c.path and "." not in c.path), None)
        return f"{UNDECLARED} (computed at run time: {code(whole.text)})" if whole else (
            UNDECLARED)
    if not handles:
        return "none"
    named = [handle_text(h) for h in handles if h.id is not None or h.label or h.type]
    unnamed = len(handles) - len(named)
    return ", ".join([*named, *([_unnamed_text(unnamed)] if unnamed else [])])
