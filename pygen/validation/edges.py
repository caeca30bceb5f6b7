"""A workflow's edges: each names a node of the workflow at each end, and a handle that node
has on that side (a declared id, one fitting a dynamic side's pattern, or any where the
catalog does not declare the side: then a note says the end was not checked)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

from pygen.dynamic_handles import pattern_matches
from pygen.jsonvalues import show
from pygen.suggest import closest
from pygen.validation.catalog import NodeSpec
from pygen.validation.findings import (
    Finding,
    Fix,
    error_at,
    info_at,
    kind,
    listed,
    parts_of,
    warning_at,
)


def id_problem(item: dict[str, Any], path: str, what: str,
                first_at: Callable[[str], str | None], key: str = "id") -> Finding | None:
    """A missing, non-string or repeated `id` of a node or an edge (None when it is fine);
    `key`: what the saved workflow calls a node's identity (its `name` in an n8n map)."""
    item_id = item.get("id")
    if not isinstance(item_id, str):
        got = "it is missing" if "id" not in item else f"got {kind(item_id)}"
        return error_at(f"{path}.id", f"expected a string {what} {key} unique in the workflow, "
                                      f"{got}", rule="id")
    first = first_at(item_id)
    if first is not None:
        return error_at(f"{path}.id", f"duplicate {what} {key} {show(item_id)} (first at "
                                      f"{first}); {what} {key}s must be unique",
                        rule="duplicate-id")
    return None


def check_edge(edge: object, path: str, index: Mapping[str, tuple[str, NodeSpec | None]],
                edge_ids: dict[str, str]) -> Iterator[Finding]:
    if not isinstance(edge, dict):
        yield error_at(path, f"expected an edge object, got {kind(edge)}", rule="edge-shape")
        return
    problem = id_problem(edge, path, "edge", edge_ids.get)
    if problem is not None:
        yield problem
    else:
        edge_ids[edge["id"]] = path
    yield from _check_end(edge, path, index, "source", "sourceHandle", "outputs")
    yield from _check_end(edge, path, index, "target", "targetHandle", "inputs")


def _check_end(edge: dict[str, Any], path: str,
               index: Mapping[str, tuple[str, NodeSpec | None]],
               end: str, handle_key: str, side: Literal["inputs", "outputs"]) -> Iterator[Finding]:
    node_id = edge.get(end)
    if not isinstance(node_id, str):
        got = "it is missing" if end not in edge else f"got {kind(node_id)}"
        yield error_at(f"{path}.{end}", f"expected the id of the {end} node, {got}",
                       rule="edge-node")
        return
    if node_id not in index:
        near = closest(node_id, list(index))
        yield error_at(f"{path}.{end}", f"no node has id {show(node_id)}", near,
                       rule="edge-node", fix=Fix("set", (*parts_of(path), end), near)
                       if near else None)
        return
    spec = index[node_id][1]
    if spec is not None:  # an unknown node type was reported on the node itself
        yield from _check_handle(edge.get(handle_key), f"{path}.{handle_key}", node_id, spec, side)


def _check_handle(handle: object, path: str, node_id: str, spec: NodeSpec,
                  side: Literal["inputs", "outputs"]) -> Iterator[Finding]:
    handles = spec.inputs if side == "inputs" else spec.outputs
    node = f"node {show(node_id)} ({spec.type})"
    dynamic = spec.dynamic(side)
    if handle is None and None in handles:
        return
    if dynamic is not None:
        yield from _dynamic_handle(handle, path, node, handles, dynamic, side)
        return
    if not spec.declared(side):
        yield info_at(path, f"{node} does not declare its {side}; this end of the edge is "
                            "not checked", rule="edge-handle")
        return
    if not handles:
        yield error_at(path, f"{node} has no {side}; no edge can {_verb(side)} it",
                       rule="edge-handle")
    elif handle is None:
        if len(handles) > 1:
            yield warning_at(path, f"not set, and {node} has several {side}: "
                                   f"{listed(handles)}; the editor picks the first",
                             rule="edge-handle")
    elif not isinstance(handle, str):
        yield error_at(path, f"expected a handle id string, got {kind(handle)}",
                       rule="edge-handle")
    elif handle not in handles:
        near = closest(handle, [h for h in handles if h])
        yield error_at(path, f"{show(handle)} is not one of the {side} of {node}: "
                             f"{listed(handles)}", near, rule="edge-handle",
                       fix=Fix("set", parts_of(path), near) if near else None)


def _dynamic_handle(handle: object, path: str, node: str, handles: tuple[str | None, ...],
                    patterns: tuple[str, ...], side: str) -> Iterator[Finding]:
    """An end on a side whose handles are computed from the node's data or at run time:
    a declared one, or an id that fits a pattern the code or the config gives."""
    if isinstance(handle, str) and (handle in handles or any(
            pattern_matches(p, handle) for p in patterns)):
        return
    if not patterns:
        yield info_at(path, f"the {side} of {node} are computed from its data; this end of "
                            "the edge is not checked", rule="edge-handle")
    elif not isinstance(handle, str):
        if handle is not None or not handles:
            yield error_at(path, f"expected a handle id string, got {kind(handle)}; the "
                                 f"{side} of {node} are {_ids_text(handles, patterns)}",
                           rule="edge-handle")
    else:
        yield error_at(path, f"{show(handle)} is not one of the {side} of {node}: "
                             f"{_ids_text(handles, patterns)}", rule="edge-handle")


def _ids_text(handles: tuple[str | None, ...], patterns: tuple[str, ...]) -> str:
    shown = [show(p.replace("*", "<id>")) for p in patterns]
    fixed = f"{listed(handles)}, or " if [h for h in handles if h] else ""
    return f"{fixed}ids of the form {' / '.join(shown)}"


def _verb(side: str) -> str:
    return "enter" if side == "inputs" else "leave"
