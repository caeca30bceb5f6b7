"""Real configurations of each node type, from the repo's own saved workflows (config
`saved_workflows`): offered to agents beside the generated worked example.

A saved node counts when its data (as the editor sees it: its default data filled in when the
editor is declared to fill defaults) is valid against its type's data schema. Fields the runner
owns (results, status) are left out; configurations are de-duplicated and listed smallest
first, a few per type. `check` reports the saved nodes that do not validate.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen import jsonread
from pygen.conventions import canonical_node
from pygen.model import Model, NodeDef
from pygen.schema.fields import is_runner_owned, properties
from pygen.schema.node_schema import node_data_schema
from pygen.skills.example_data import is_valid

# Per node type: enough to show the range of real use without crowding out the reference.
MAX_SHOWN = 3


@dataclass(frozen=True)
class SavedExample:
    """One real configuration: the file it was first found in, and its data."""

    file: str
    data: dict[str, Any]


def saved_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The files the globs name below the project root, sorted; none reached through a link
    to outside the project."""
    found: set[Path] = set()
    inside = root.resolve()
    for pattern in globs:
        for path in root.glob(pattern):
            if path.is_file() and path.resolve().is_relative_to(inside):
                found.add(path)
    return sorted(found)


def collect(root: Path, globs: Sequence[str], model: Model) -> dict[str, list[SavedExample]]:
    """Node key → its real configurations (at most MAX_SHOWN), smallest first."""
    if not globs:
        return {}
    single = {n.type: n for n in model.nodes if n.variant is None}
    seen: dict[str, dict[str, SavedExample]] = {}
    for path in saved_paths(root, globs):
        shown = path.relative_to(root).as_posix()
        for node_def, data in _nodes(path, shown, model, single):
            text = json.dumps(data, sort_keys=True, ensure_ascii=False)
            seen.setdefault(node_def.key, {}).setdefault(text, SavedExample(shown, data))
    return {key: [found[t] for t in sorted(found, key=lambda t: (len(t), t))][:MAX_SHOWN]
            for key, found in seen.items()}


def _nodes(path: Path, shown: str, model: Model,
           single: dict[str, NodeDef]) -> list[tuple[NodeDef, dict[str, Any]]]:
    try:
        doc = jsonread.loads(path.read_bytes(), shown)
    except (OSError, jsonread.JsonInputError):
        return []  # `check` reports the file
    nodes = doc.get("nodes") if isinstance(doc, dict) else None
    out = []
    for raw in nodes if isinstance(nodes, list) else ():
        node = canonical_node(raw, model.conventions)
        node_def = single.get(str(node.get("type"))) if isinstance(node, dict) else None
        data = node.get("data") if isinstance(node, dict) else None
        if node_def is None or not isinstance(data, dict):
            continue
        kept = _configuration(node_def, data, model.conventions.editor_fills_defaults)
        if kept is not None:
            out.append((node_def, kept))
    return out


def _configuration(node: NodeDef, data: dict[str, Any],
                   fills_defaults: bool) -> dict[str, Any] | None:
    """The data without runner-owned fields, when the editor would load it as valid."""
    schema = node_data_schema(node)
    effective = {**node.default_data, **data} if fills_defaults else data
    if not is_valid(schema, effective):
        return None
    props = properties(schema)
    return {k: v for k, v in data.items() if not (k in props and is_runner_owned(props[k]))}


def real_lines(real: Sequence[SavedExample], data_key: str = "data") -> str:
    """The configurations saved in the repo's own workflows (`saved_workflows`)."""
    if not real:
        return ""
    lines = ["", "", "Configurations of this node saved in the app's own workflows, valid "
             f"against the current code (its `{data_key}`):"]
    for example in real:
        lines += ["", f"From `{example.file}`:", "", "```json",
                  json.dumps(example.data, ensure_ascii=False), "```"]
    return "\n".join(lines)
