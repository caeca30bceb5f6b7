"""Rule `output-index`: a connections map (conventions `connections_key`) indexes each source
node's outputs by position, `connections[name][kind][i]`; a connection from output `i` of a
node that has fewer outputs of that kind is an error. A node that has the convention
`error_output` key and value has one more output of `connection_kind`. Sides the catalog does
not declare, or computes, are not judged."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pygen.conventions import Conventions, get_path, split
from pygen.jsonvalues import show
from pygen.validation.catalog import Catalog, NodeSpec
from pygen.validation.findings import Finding, error_at, path_of


def output_count(spec: NodeSpec, kind: str, conv: Conventions) -> int | None:
    """How many outputs of this connection kind the type declares; None: not known."""
    if not spec.declared("outputs") or spec.dynamic("outputs") is not None:
        return None
    types = spec.handle_types.outputs
    if not types:
        return len(spec.outputs) if kind == conv.connection_kind else 0
    return sum(types.get(h or "") == kind for h in spec.outputs)


def has_error_output(node: Mapping[str, Any], conv: Conventions) -> bool:
    return bool(conv.error_output) and all(
        get_path(node, split(key)) == (True, value)
        for key, value in (conv.error_output or {}).items())


def output_index(workflow: Mapping[str, Any], canonical: Sequence[object],
                 catalog: Catalog) -> tuple[list[Finding], set[str]]:
    """The findings, and the paths of every output this rule judged (an edge there is this
    rule's to speak of). `canonical`: the workflow's nodes as validation reads them, in the
    saved order."""
    conv = catalog.conventions
    key = conv.connections_key
    connections = workflow.get(key) if key else None
    nodes = workflow.get("nodes")
    if not isinstance(connections, dict) or not isinstance(nodes, list):
        return [], set()
    named: dict[str, tuple[Mapping[str, Any], NodeSpec]] = {}
    for raw, node in zip(nodes, canonical, strict=False):
        spec = catalog.node_spec(node)
        name = raw.get(conv.connection_node_key) if isinstance(raw, dict) else None
        if spec is not None and isinstance(name, str) and isinstance(raw, dict):
            named.setdefault(name, (raw, spec))
    found: list[Finding] = []
    judged: set[str] = set()
    for source, kinds in connections.items():
        if source not in named or not isinstance(kinds, dict):
            continue
        raw, spec = named[source]
        for kind, outputs in kinds.items():
            count = output_count(spec, kind, conv)
            if count is None or not isinstance(outputs, list):
                continue
            extra = int(kind == conv.connection_kind and has_error_output(raw, conv))
            for i in _used(outputs):
                path = path_of("$", (str(key), source, kind, i))
                judged.add(path)
                if i >= count + extra:
                    found.append(_beyond(path, source, spec.type, kind, i, count, extra, conv))
    return found, judged


def _used(outputs: list[Any]) -> Iterator[int]:
    """The output indexes that hold a connection (an empty list is no connection)."""
    for i, targets in enumerate(outputs):
        if isinstance(targets, list) and targets:
            yield i


def _beyond(path: str, source: str, node_type: str, kind: str, i: int, count: int,
            extra: int, conv: Conventions) -> Finding:
    has = (f"has no {show(kind)} outputs" if count + extra == 0 else
           f"has {count + extra} {show(kind)} output{'s' if count + extra > 1 else ''} "
           f"(0 to {count + extra - 1}{', the last its error output' if extra else ''})")
    hint = ""
    if conv.error_output and not extra and kind == conv.connection_kind and i == count:
        said = ", ".join(f"{k} {show(v)}" for k, v in conv.error_output.items())
        hint = f"; an error output needs the node's {said}"
    return error_at(path, f"node {show(source)} ({node_type}) {has}; no connection can leave "
                          f"output {i}{hint}", rule="output-index")
