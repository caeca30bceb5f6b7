"""Handles computed from a node's data or at run time: the `dynamic` side of a node.

Two sources:
- the code: the extractor marks a side dynamic when its value is only known at run time and
  the checker types it as template literals (`` `col_${string}`[] `` gives the pattern `col_*`);
- the config, `dynamic_handles`: `{node type: {outputs = ["col_*"]}}`, for handles the code
  computes from the node's data where no type says their shape (`[]`: any id). Applied here,
  after extraction and after the cache, so a config edit is seen without extracting again.
A side with no such evidence keeps what the extractor found: declared, or not declared.
"""

from __future__ import annotations

from typing import Literal

from pygen.config import Config
from pygen.dynamic_handles import DynamicHandles
from pygen.model import Diagnostic, NodeDef

Side = Literal["inputs", "outputs"]
SIDES: tuple[Side, Side] = ("inputs", "outputs")


def with_dynamic_sides(nodes: tuple[NodeDef, ...], diagnostics: tuple[Diagnostic, ...],
                       config: Config) -> tuple[tuple[NodeDef, ...], tuple[Diagnostic, ...]]:
    """The nodes with their dynamic sides set; one warning per configured type no node has."""
    declared = config.settings.dynamic_handles
    out: list[NodeDef] = []
    for node in nodes:
        changes: dict[str, DynamicHandles] = {}
        own = declared.get(node.key) or declared.get(node.type)
        for side in SIDES:
            patterns = getattr(own, side) if own is not None else None
            if patterns is not None:
                changes[f"{side}_dynamic"] = DynamicHandles(patterns=tuple(patterns),
                                                            via="config")
        out.append(node.model_copy(update=changes) if changes else node)
    known = {n.type for n in nodes} | {n.key for n in nodes}
    notes = [Diagnostic(level="warning", kind="config", message=(
        f"dynamic_handles names node type '{name}', which the catalog does not have; "
        "fix or remove that entry")) for name in declared if name not in known]
    if not notes and all(a is b for a, b in zip(out, nodes, strict=True)):
        return nodes, diagnostics
    return tuple(out), (*diagnostics, *notes)

