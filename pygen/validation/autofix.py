"""Apply the mechanical fixes validation findings carry, and say what changed.

A fix only renames, removes, or sets a value the catalog determines (a default, a field name,
a layout position); it never writes content such as prompts or URLs. The workflow given is
never modified: fixes apply to a copy, re-validating after each pass because one repair can
uncover another (a renamed field may then be out of range).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, NotRequired

# pydantic (the MCP output schema) needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict

from pygen.validation.findings import Finding, Fix, FixDict

_MAX_PASSES = 3


class Change(TypedDict):
    rule: str
    message: str
    fix: FixDict


class FixResult(TypedDict):
    # The fixed workflow; the served tool leaves it out unless asked (the changes say what
    # differs, and an unchanged workflow sent back is only reading).
    workflow: NotRequired[Any]
    # Each {rule, message, fix}; plain objects so the MCP tool list stays small.
    changes: list[dict[str, Any]]
    # What is left after the fixes (errors and warnings no mechanical fix covers).
    remaining: list[dict[str, Any]]
    valid: bool


def without_workflow(result: FixResult) -> FixResult:
    """The result without the fixed workflow: the changes, what is left, the verdict."""
    return {"changes": result["changes"], "remaining": result["remaining"],
            "valid": result["valid"]}


def autofix(document: Any, validate: Callable[[Any], Sequence[Finding]]) -> FixResult:
    """Fix what can be fixed mechanically, re-validating between passes."""
    fixed = copy.deepcopy(document)
    changes: list[dict[str, Any]] = []
    findings = list(validate(fixed))
    for _ in range(_MAX_PASSES):
        todo = [f for f in findings if f.fix is not None]
        applied = [f for f in _ordered(todo) if f.fix is not None and apply_fix(fixed, f.fix)]
        if not applied:
            break
        changes += [dict(Change(rule=f.rule, message=f.message, fix=f.fix.to_dict()))
                    for f in applied if f.fix is not None]
        findings = list(validate(fixed))
    return {"workflow": fixed, "changes": changes,
            "remaining": [dict(f.to_dict()) for f in findings],
            "valid": all(f.level != "error" for f in findings)}


def _ordered(findings: list[Finding]) -> list[Finding]:
    """Removals of list items last and from the highest index down, so indices stay true."""
    def key(f: Finding) -> tuple[int, tuple[int, ...]]:
        assert f.fix is not None
        at = f.fix.at
        removes_item = f.fix.op == "remove" and bool(at) and isinstance(at[-1], int)
        return (1, tuple(-p for p in at if isinstance(p, int))) if removes_item else (0, ())
    unique = {(f.fix.op, f.fix.at): f for f in findings if f.fix is not None}
    return sorted(unique.values(), key=key)


def apply_fix(document: Any, fix: Fix) -> bool:
    """Apply one fix in place; False when its target no longer exists (already fixed)."""
    if not fix.at:
        return False
    parent = _resolve(document, fix.at[:-1], create=fix.op == "set")
    last = fix.at[-1]
    if isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
        if fix.op == "remove":
            del parent[last]
        elif fix.op == "set":
            parent[last] = copy.deepcopy(fix.value)
        else:
            return False
        return True
    if not isinstance(parent, dict) or not isinstance(last, str):
        return False
    return _apply_in_dict(parent, last, fix)


def _apply_in_dict(parent: dict[str, Any], key: str, fix: Fix) -> bool:
    if fix.op == "set":
        parent[key] = copy.deepcopy(fix.value)
        return True
    if key not in parent:
        return False
    if fix.op == "remove":
        del parent[key]
        return True
    if fix.to is None or fix.to in parent:
        return False
    # Rebuild to keep the renamed key where it was: agents diff what they sent.
    items = list(parent.items())
    parent.clear()
    parent.update((fix.to if k == key else k, v) for k, v in items)
    return True


def _has(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _resolve(document: Any, parts: Sequence[str | int], create: bool) -> Any:
    node = document
    for part in parts:
        if _has(node, part):
            node = node[part]
        elif create and isinstance(node, dict) and isinstance(part, str):
            node[part] = {}  # a set fix into a missing object (the mapping field left out)
            node = node[part]
        else:
            return None
    return node
