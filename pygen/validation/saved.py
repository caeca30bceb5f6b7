"""The repo's own saved workflows (config `saved_workflows`): the oracle for every rule.

`check` validates each against the current catalog and reports every finding with its file and
JSON path; `doctor` groups them by what went stale (a removed node type, a handle that no
longer exists, an enum value that was dropped). The nodes of these files that validate are the
real configurations of their node types, offered to agents beside the generated example.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen import jsonread
from pygen.conventions import canonical_node
from pygen.validation.catalog import Catalog
from pygen.validation.findings import Finding, error_at
from pygen.validation.workflow import validate_node, validate_workflow

# What a stale saved workflow's findings say about the code's change, by rule.
STALE_KINDS: dict[str, str] = {
    "unknown-node-type": "node type removed or renamed",
    "edge-handle": "handle that no longer exists",
    "enum": "enum value that was dropped",
    "unknown-field": "data field that no longer exists",
    "required": "required field added since",
}


@dataclass(frozen=True)
class Saved:
    """One saved workflow: its path as shown, its parsed document (None when unreadable)."""

    shown: str
    document: Any


def load(paths: Iterable[Path], root: Path) -> list[Saved]:
    out = []
    for path in paths:
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        try:
            out.append(Saved(shown, jsonread.loads(path.read_bytes(), shown)))
        except (OSError, jsonread.JsonInputError) as exc:
            out.append(Saved(shown, _Unreadable(str(exc))))
    return out


@dataclass(frozen=True)
class _Unreadable:
    reason: str


def findings(saved: Sequence[Saved], catalog: Catalog) -> list[Finding]:
    """Every finding on every saved workflow, each carrying its file."""
    out: list[Finding] = []
    for item in saved:
        if isinstance(item.document, _Unreadable):
            found = [error_at("$", item.document.reason, rule="json")]
        else:
            found = validate_workflow(item.document, catalog)
        out += [Finding(f.level, f.path, f.message, f.suggestion, item.shown, None, f.rule, f.fix)
                for f in found]
    return out


def stale_groups(found: Iterable[Finding]) -> dict[str, list[Finding]]:
    """The errors grouped by what went stale (STALE_KINDS), the rest under "other"."""
    groups: dict[str, list[Finding]] = {}
    for finding in found:
        if finding.level == "error":
            groups.setdefault(STALE_KINDS.get(finding.rule, "other"), []).append(finding)
    return groups


def real_configurations(saved: Sequence[Saved], catalog: Catalog) -> dict[str, list[Any]]:
    """Per node type, the data of the saved nodes that validate on their own: de-duplicated,
    smallest first (then in text order), as the editor saved it."""
    conv = catalog.conventions
    seen: dict[str, dict[str, Any]] = {}
    for item in saved:
        nodes = item.document.get("nodes") if isinstance(item.document, dict) else None
        for node in nodes if isinstance(nodes, list) else ():
            canonical = canonical_node(node, conv)
            spec = catalog.node_spec(canonical)
            if spec is None or not isinstance(canonical, dict):
                continue
            if any(f.level == "error" for f in validate_node(node, catalog)):
                continue
            text = json.dumps(canonical.get("data"), sort_keys=True, ensure_ascii=False)
            seen.setdefault(str(canonical.get("type")), {}).setdefault(text, canonical["data"])
    return {t: [by_text[k] for k in sorted(by_text, key=lambda k: (len(k), k))]
            for t, by_text in sorted(seen.items())}


def group_lines(groups: Mapping[str, list[Finding]]) -> list[str]:
    """`doctor`'s lines: one per group, with its count and first places."""
    lines = []
    for kind, members in sorted(groups.items()):
        places = ", ".join(f"{f.file} {f.path}" for f in members[:3])
        more = f" (+{len(members) - 3})" if len(members) > 3 else ""
        lines.append(f"{kind}: {len(members)} — {places}{more}")
    return lines
