"""A saved workflow as the editor loads it: the legacy names its load step rewrites
(config `load_step`, pygen.extract.load_step) replaced by the current ones before the
workflow is judged, each one a warning ("migrated on load: a -> b", rule `legacy-name`)
with the rename as its fix. Skills never teach these names; an agent's new workflow that
uses one is told the current name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from pygen.jsonvalues import show
from pygen.load_renames import LoadRenames
from pygen.validation.findings import Finding, Fix, path_of, warning_at

RULE = "legacy-name"


HandleIds = Callable[[str, str], tuple[str | None, ...]]


def migrated(workflow: dict[str, Any], renames: LoadRenames,
             handle_ids: HandleIds) -> tuple[dict[str, Any], list[Finding]]:
    """The workflow with the load step's renames applied (a copy; the input is kept) and a
    warning for each rename. `handle_ids(type, side)`: the catalog's handles; a rename lands
    only on a handle the node's type declares (where it declares any): a map that outran the
    catalog must not turn a valid edge into a broken one, nor hide the id that was saved. A
    type the load step renames is renamed even where the catalog still declares it: the
    editor rewrites the node when it loads it, so the loaded workflow has the new type (the
    skills may still teach the old entry; the warning says which one the editor keeps)."""
    if renames.empty:
        return workflow, []
    found: list[Finding] = []
    nodes = workflow.get("nodes")
    types: dict[str, tuple[str, str]] = {}  # node id -> (saved type, loaded type)
    out_nodes: list[Any] = []
    for i, node in enumerate(nodes if isinstance(nodes, list) else ()):
        saved = node.get("type") if isinstance(node, dict) else None
        current = (renames.current_type(saved, node.get("data"))
                   if isinstance(saved, str) and isinstance(node, dict) else None)
        if isinstance(saved, str) and current is not None and current != saved:
            found.append(_finding(("nodes", i, "type"), saved, current, "node type"))
            node = {**node, "type": current}
        if isinstance(node, dict) and isinstance(node.get("id"), str) and isinstance(saved, str):
            types[node["id"]] = (saved, str(node.get("type")))
        out_nodes.append(node)
    edges = workflow.get("edges")
    out_edges: list[Any] = []
    for j, edge in enumerate(edges if isinstance(edges, list) else ()):
        if isinstance(edge, dict):
            for end, key, side, table in (
                    ("source", "sourceHandle", "outputs", renames.output_handles),
                    ("target", "targetHandle", "inputs", renames.input_handles)):
                edge = _rename_end(edge, j, (end, key, side), table, types, handle_ids, found)
        out_edges.append(edge)
    out = dict(workflow)
    if isinstance(nodes, list):
        out["nodes"] = out_nodes
    if isinstance(edges, list):
        out["edges"] = out_edges
    return out, found


def _rename_end(edge: dict[str, Any], j: int, where: tuple[str, str, str],
                table: dict[str, dict[str, str]], types: dict[str, tuple[str, str]],
                handle_ids: HandleIds, found: list[Finding]) -> dict[str, Any]:
    end, key, side = where
    handle = edge.get(key)
    node_types = types.get(edge.get(end))  # type: ignore[arg-type]
    if not isinstance(handle, str) or node_types is None:
        return edge
    saved, current = node_types
    new = (table.get(saved) or {}).get(handle) or (table.get(current) or {}).get(handle)
    if new is None or new == handle:
        return edge
    declared = handle_ids(current, side)
    if declared and new not in declared:
        return edge
    found.append(_finding(("edges", j, key), handle, new, f"{current} handle"))
    return {**edge, key: new}


def _finding(parts: tuple[str | int, ...], old: str, new: str, what: str) -> Finding:
    return warning_at(path_of("$", parts), f"migrated on load: {show(old)} -> {show(new)} (a "
                      f"legacy {what} the editor rewrites when it loads the workflow); write "
                      f"{show(new)}", rule=RULE, fix=Fix("set", parts, new))


_END = re.compile(r"^\$\.edges\[(\d+)\]\.(sourceHandle|targetHandle)$")


def rewritten_in_code(found: list[Finding], workflow: dict[str, Any],
                      renames: LoadRenames) -> list[Finding]:
    """The findings with each edge-handle error on a node type whose handles a load-step
    function reassigns by code (`handle_functions`) taken out, and in their place one
    warning per function naming it: the saved id is what that function turns into the
    loaded one, which pygen does not run, so it cannot say the edge is broken."""
    if not (renames.handle_functions or renames.input_handles or renames.output_handles
            or renames.drawn_inputs or renames.drawn_outputs) or not found:
        return found
    types: dict[object, object] = {}
    nodes = workflow.get("nodes")
    for node in nodes if isinstance(nodes, list) else ():
        if isinstance(node, dict):
            types[node.get("id")] = node.get("type")
    edges = workflow.get("edges")
    edges = edges if isinstance(edges, list) else []
    kept: list[Finding] = []
    taken: dict[str, dict[str, None]] = {}  # function -> node types whose ends were taken
    counts: Counter[str] = Counter()
    for finding in found:
        where = _END.match(finding.path) if (
            finding.rule == "edge-handle" and finding.level == "error") else None
        edge = edges[int(where.group(1))] if where and int(where.group(1)) < len(edges) else None
        hit = _rewriter(renames, edge, where.group(2), types) if (
            where and isinstance(edge, dict)) else None
        if hit is None:
            kept.append(_current_by_map(finding, renames, edge, where, types))
        else:
            taken.setdefault(hit[0], {})[hit[1]] = None
            counts[hit[0]] += 1
    for ref, hit_types in taken.items():
        file, _, name = ref.rpartition(":")
        kept.append(warning_at("$.edges", f"edge handles of {', '.join(map(show, hit_types))} "
                               f"not judged: the editor's load step reassigns them by code, "
                               f"{name} ({file}), which pygen does not run ({counts[ref]} "
                               f"edge end(s) in this workflow)", rule=RULE))
    return kept


def _current_by_map(finding: Finding, renames: LoadRenames, edge: object,
                    where: re.Match[str] | None, types: dict[object, object]) -> Finding:
    """An edge-handle error on an id the load step's own map rewrites *to* on this node type
    (`{"out": "image"}`, the edge saved as "image"), or on an id the code's map of drawn
    handles gives this type (`drawn_inputs`/`drawn_outputs`): the loaded edge has an id the
    editor connects, so the catalog's list is what is out of date; a warning that says so."""
    if where is None or not isinstance(edge, dict):
        return finding
    key = where.group(2)
    end, table, drawn = (("target", renames.input_handles, renames.drawn_inputs)
                         if key == "targetHandle"
                         else ("source", renames.output_handles, renames.drawn_outputs))
    handle, node_type = edge.get(key), types.get(edge.get(end))
    renamed = table.get(node_type) if isinstance(node_type, str) else None
    legacy = [old for old, new in (renamed or {}).items() if new == handle]
    if not legacy:
        if isinstance(node_type, str) and handle in drawn.get(node_type, ()):
            return warning_at(finding.path, f"{show(handle)} is a handle the editor draws on "
                              f"{node_type} (the code's map of drawn handles, load_step."
                              f"drawn_{'inputs' if end == 'target' else 'outputs'}), but the "
                              f"catalog does not declare it: the catalog looks out of date "
                              f"({finding.message})", rule="edge-handle")
        return finding
    return warning_at(finding.path, f"{show(handle)} is what the editor's load step rewrites "
                      f"{show(legacy[0])} to on {node_type} (its handle map), but the catalog "
                      f"does not declare it: the catalog looks out of date ({finding.message})",
                      rule="edge-handle")


def _rewriter(renames: LoadRenames, edge: dict[str, Any], key: str,
              types: dict[object, object]) -> tuple[str, str] | None:
    """(the function, the node type) when a function reassigns this end's handle."""
    end, side = ("target", "inputs") if key == "targetHandle" else ("source", "outputs")
    node_type = types.get(edge.get(end))
    for ref, function in renames.handle_functions.items():
        if isinstance(node_type, str) and node_type in getattr(function, side):
            return ref, node_type
    return None
