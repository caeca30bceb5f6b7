"""What `pygen init` reads from a TypeScript literal without parsing it: the shape of an
array or object literal (its entries' keys, its spreads), and the candidate catalog it may be.

Both the file scan (pygen.init.scan) and the forms built elsewhere in a file
(pygen.init.forms) build on this reader, so neither imports the other's module for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pygen.init.toplevel import code_stops

TYPE_KEYS = ("type", "kind", "nodeType")
SHAPE_KEYS = frozenset({"inputs", "outputs", "handles", "ports", "defaultData", "defaultConfig",
                        "defaults", "data", "initialData"})
KEY = re.compile(r"\s*(?:\[[^\]\n]*\]|([\"']?)([A-Za-z_$][\w$-]*)\1)\s*:")
SPREAD = re.compile(r"\s*\.\.\.\s*([A-Za-z_$][\w$]*)")
# A constant holding one definition: its name → (its type key, whether it is exported).
Singles = dict[str, tuple[str | None, bool]]


@dataclass(frozen=True)
class Dialect:
    """What a catalog's entries say beyond their type key, read from the code: the entry keys
    holding the label and category, a field list describing the data (and its preset) or a
    zod schema, the key telling versions apart, and the handle sides no entry declares."""

    label: str | None = None
    category: str | None = None
    field_list: str | None = None
    preset: str | None = None
    variant_field: str | None = None
    no_inputs: bool = False
    no_outputs: bool = False
    zod: str | None = None
    # The field list's descriptor keys spelled otherwise than the generic dialect's
    # (`(("name", "key"), ("default", "defaultValue"))`), read from the descriptors.
    field_keys: tuple[tuple[str, str], ...] = ()
    # The entry key holding default data when it is not `defaultData`, by its keys.
    default_data: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A constant that looks like a node catalog."""

    name: str
    path: Path
    line: int
    form: str  # "array", "object", "call", "class", "glob", "list" or "registrations"
    entries: int
    type_key: str | None
    spreads: tuple[str, ...] = ()
    # True when `entries` says nothing of the size (a catalog built by `.map(...)`).
    unsized: bool = False
    dialect: Dialect | None = None
    # The interfaces and base classes a class candidate's file declares (`implements INode`).
    heritage: frozenset[str] = frozenset()


@dataclass
class Shape:
    """What a literal holds: its entries' keys, its spreads, how many entries."""

    entries: int = 0
    entry_keys: list[set[str]] = field(default_factory=list)
    spreads: list[str] = field(default_factory=list)


# What a literal's reader stops at: quotes and comments (skipped), brackets and commas.
_LITERAL_STOP = re.compile(r"[\"'`\[\]{}(),]|//|/\*")


def read_literal(text: str, start: int) -> tuple[Shape, int]:
    """The shape of the literal opening at `start` (`[` or `{`), and where it ends."""
    shape, depth = Shape(), 0
    for i in code_stops(text, _LITERAL_STOP, start):
        char = text[i]
        if char in "[{(":
            depth += 1
            if depth == 2 and char == "{":
                shape.entries += 1
                shape.entry_keys.append(set())
        elif char in "]})":
            depth -= 1
            if depth == 0:
                return shape, i + 1
        if char in "[{," and depth in (1, 2):
            _note(text, i + 1, depth, shape)
    return shape, len(text)


def _note(text: str, at: int, depth: int, shape: Shape) -> None:
    """Record the spread (depth 1) or the entry key (depth 2) that starts at `at`."""
    if depth == 1:
        spread = SPREAD.match(text, at)
        if spread:
            shape.spreads.append(spread.group(1))
        return
    key = KEY.match(text, at)
    if key and key.group(2) and shape.entry_keys:
        shape.entry_keys[-1].add(key.group(2))


def entry_keys(text: str, start: int) -> set[str]:
    """The keys of the object literal opening at `start` (read as a one-entry array)."""
    shape, _ = read_literal("[" + text[start:], 0)
    return shape.entry_keys[0] if shape.entry_keys else set()


def grouped(candidates: list[Candidate], form: str) -> dict[str, list[Candidate]]:
    """The candidates of one form (one per call or class property) by name, in order."""
    groups: dict[str, list[Candidate]] = {}
    for c in candidates:
        if c.form == form:
            groups.setdefault(c.name, []).append(c)
    return groups
