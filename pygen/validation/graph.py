"""Graph rules the conventions declare: acyclic graphs and edges per input.

Only what is declared is checked: an editor that allows loops gets no cycle finding, and an
input takes any number of edges unless its handle declares a limit (entry_fields
`handle_limit`) or `edges_per_input` sets one for every input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from pygen.conventions import Conventions
from pygen.jsonvalues import show
from pygen.validation.findings import Finding, Fix, error_at, path_of
from pygen.validation.wiring import End

Edge = tuple[int, End, End]  # (edge index, source, target)


def graph_findings(edges: Sequence[Edge], conv: Conventions,
                   declared: Callable[[End], int | None]) -> Iterator[Finding]:
    """`declared`: the limit an input handle declares (entry_fields handle_limit), if any."""
    if conv.acyclic:
        yield from _self_loops(edges)
        yield from _cycles(edges)
    yield from _edge_limit(edges, lambda end: declared(end) or conv.edges_per_input)


def _self_loops(edges: Sequence[Edge]) -> Iterator[Finding]:
    for j, source, target in edges:
        if source.node_id == target.node_id:
            yield error_at(path_of("$", ("edges", j)), f"connects node {show(source.node_id)} "
                           "to itself; the graph must be acyclic, remove this edge",
                           rule="graph-self-loop", fix=Fix("remove", ("edges", j)))


def _cycles(edges: Sequence[Edge]) -> Iterator[Finding]:
    """One finding per edge that closes a cycle (a back edge of a depth-first search, in
    document order, iteratively so a long chain cannot overflow the stack)."""
    out: dict[str, list[tuple[int, str]]] = {}
    for j, source, target in edges:
        if source.node_id != target.node_id:
            out.setdefault(source.node_id, []).append((j, target.node_id))
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in out:
        if root in state:
            continue
        state[root] = 1
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, i = stack[-1]
            nexts = out.get(node, [])
            if i == len(nexts):
                state[node] = 2
                stack.pop()
                continue
            stack[-1] = (node, i + 1)
            j, to = nexts[i]
            if state.get(to) == 1:
                yield error_at(path_of("$", ("edges", j)), f"closes a cycle back to node "
                               f"{show(to)}; the graph must be acyclic", rule="graph-cycle")
            elif to not in state:
                state[to] = 1
                stack.append((to, 0))


def _edge_limit(edges: Sequence[Edge],
                limit_of: Callable[[End], int | None]) -> Iterator[Finding]:
    seen: dict[tuple[str, str | None], int] = {}
    for j, _, target in edges:
        key = (target.node_id, target.handle)
        seen[key] = seen.get(key, 0) + 1
        limit = limit_of(target)
        if limit is not None and seen[key] > limit:
            taken = "one edge" if limit == 1 else f"{limit} edges"
            yield error_at(path_of("$", ("edges", j, "targetHandle")), f"input "
                           f"{show(target.handle)} of node {show(target.node_id)} takes "
                           f"{taken}; this one is more", rule="input-edge-limit",
                           fix=Fix("remove", ("edges", j)))
