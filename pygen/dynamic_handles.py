"""What is known about one side of a node's handles, and the id patterns of dynamic ones."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

# What is known about one side (inputs or outputs) of a node: `declared`, a list the code
# writes (empty: the node has none); `not-declared`, nothing (no such key, or not readable);
# `dynamic`, handles computed from the node's data or at run time, maybe with id patterns.
HandleSide = Literal["declared", "not-declared", "dynamic"]


class DynamicHandles(BaseModel):
    """Handles computed from a node's data or at run time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Id patterns, `*` standing for any run of characters (`col_*`, from a template-literal
    # type `col_${string}` or the config); empty: any id.
    patterns: tuple[str, ...] = ()
    # Where the patterns come from, for the reader: `config`, or the type text in the code.
    via: str | None = None


def pattern_matches(pattern: str, handle_id: str) -> bool:
    """Whether a handle id fits a dynamic-handle pattern (`*`: any run of characters)."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return handle_id == pattern
    if not (handle_id.startswith(parts[0]) and handle_id.endswith(parts[-1])
            and len(handle_id) >= len(parts[0]) + len(parts[-1])):
        return False
    at, end = len(parts[0]), len(handle_id) - len(parts[-1])
    for middle in parts[1:-1]:
        found = handle_id.find(middle, at, end)
        if found < 0:
            return False
        at = found + len(middle)
    return True
