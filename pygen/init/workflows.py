"""The saved workflows `pygen init` proposes: JSON files of the project whose `nodes` are
mostly of the catalog's node types, as one glob per folder (`workflows/*.json`); and the
node layout they show where it is not pygen's default (data under `parameters`, the version
under `typeVersion`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pygen.init import scan

MAX_BYTES = 1_000_000
# Files every JavaScript project has, never a workflow.
NOT_WORKFLOWS = frozenset({"package.json", "package-lock.json", "tsconfig.json", "jsconfig.json"})


@dataclass(frozen=True)
class Saved:
    globs: list[str]
    # `[conventions]` keys the saved nodes show: node_data_key, node_version_key.
    conventions: dict[str, str]


def nodes_of(path: Path) -> list[dict[str, Any]] | None:
    """The nodes of a workflow document (`{"nodes": [{"type": …}, …]}`), or None."""
    if path.name in NOT_WORKFLOWS or path.stat().st_size > MAX_BYTES:
        return None
    try:
        text = path.read_text(encoding="utf-8")
        if '"nodes"' not in text:
            return None  # far cheaper than parsing every JSON file of a repository
        document = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    nodes = document.get("nodes") if isinstance(document, dict) else None
    if not isinstance(nodes, list) or not nodes:
        return None
    return [n for n in nodes if isinstance(n, dict) and isinstance(n.get("type"), str)]


def saved(root: Path, catalog: tuple[str, ...], variants: set[str]) -> Saved:
    """Globs of the folders holding saved workflows of this catalog (files whose nodes are
    mostly of its types) and the layout their nodes show."""
    known = set(catalog)
    folders: set[Path] = set()
    seen: list[dict[str, Any]] = []
    for path in scan.project_files(root):
        nodes = nodes_of(path) if path.suffix == ".json" else None
        if nodes and 2 * sum(n["type"] in known for n in nodes) > len(nodes):
            folders.add(path.parent)
            seen += nodes
    globs = [(folder / "*.json").resolve().relative_to(root.resolve()).as_posix()
             for folder in sorted(folders)]
    return Saved(globs, layout(seen, variants))


def layout(nodes: list[dict[str, Any]], variants: set[str]) -> dict[str, str]:
    """The data key when no node has `data` and one other key holds an object in every
    node; the version key when one key holds a variant value in every node."""
    found: dict[str, str] = {}
    if not nodes:
        return found
    if not any("data" in n for n in nodes):
        keys = [k for k in _shared(nodes) if k != "position"
                and all(isinstance(n[k], dict) for n in nodes)]
        if len(keys) == 1:
            found["node_data_key"] = keys[0]
    if variants:
        keys = [k for k in _shared(nodes) if k not in ("type", "id") and all(
            isinstance(n[k], int | float | str) and _text(n[k]) in variants for n in nodes)]
        if len(keys) == 1:
            found["node_version_key"] = keys[0]
    return found


def _shared(nodes: list[dict[str, Any]]) -> list[str]:
    return sorted(set.intersection(*(set(n) for n in nodes)))


def _text(value: object) -> str:
    """A variant value as the extractor writes it (`2`, not `2.0`)."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
