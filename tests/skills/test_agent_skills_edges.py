"""The package script's edge checks: handles and their types, edge limits and cycles from
`x-handles` and `x-conventions`, for an edges array and for a connections map."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ScriptRun = Callable[[dict[str, Any], Any], list[str]]  # the package_script fixture

DEFS = {"fetch": {"type": "object", "properties": {"url": {"type": "string"}}},
        "mail": {"type": "object", "properties": {"to": {"type": "string"}}}}
HANDLES = {"fetch": {"inputs": ["in"], "outputs": ["out"], "outputTypes": {"out": "text"}},
           "mail": {"inputs": ["in"], "outputs": ["sent"], "inputTypes": {"in": "image"},
                    "inputLimits": {"in": 1}}}


def flow(*edges: tuple[str, str, str, str]) -> dict[str, Any]:
    nodes = [{"id": i, "type": t, "position": {"x": 0, "y": 0}, "data": {}}
             for i, t in (("a", "fetch"), ("b", "fetch"), ("m", "mail"))]
    return {"nodes": nodes, "edges": [
        {"id": f"e{k}", "source": s, "sourceHandle": sh, "target": t, "targetHandle": th}
        for k, (s, sh, t, th) in enumerate(edges)]}


def test_handles_types_and_limits(package_script: ScriptRun) -> None:
    doc = {"$defs": DEFS, "x-handles": HANDLES, "x-conventions": {}}
    assert package_script(doc, flow(("a", "out", "b", "in"))) == []
    assert package_script(doc, flow(("a", "oot", "b", "in"), ("a", "out", "m", "in"),
                                    ("b", "out", "m", "in"))) == [
        "error: $.edges[0].sourceHandle: \"oot\" is not one of [\"out\"] [edge-handle]",
        "error: $.edges[1].targetHandle: fetch output \"out\" carries text, but input \"in\" "
        "of mail takes image [connection-type]",
        "error: $.edges[2].targetHandle: fetch output \"out\" carries text, but input \"in\" "
        "of mail takes image [connection-type]",
        "error: $.edges[2].targetHandle: input \"in\" of node \"m\" takes 1 edge(s); this one "
        "is more [input-edge-limit]"]


def test_a_cycle_only_where_the_editor_forbids_it(package_script: ScriptRun) -> None:
    loop = flow(("a", "out", "b", "in"), ("b", "out", "a", "in"))
    doc = {"$defs": DEFS, "x-handles": HANDLES, "x-conventions": {}}
    assert package_script(doc, loop) == []
    doc["x-conventions"] = {"acyclic": True}
    assert package_script(doc, loop) == [
        "error: $.edges[1]: closes a cycle back to node \"a\"; the graph must be acyclic "
        "[graph-cycle]"]


def test_a_connections_map_and_pair_positions(package_script: ScriptRun) -> None:
    conv = {"node_data_key": "parameters", "position_pair": True,
            "connections_key": "connections", "connection_node_key": "name"}
    doc = {"$defs": DEFS, "x-handles": {"fetch": {"inputs": ["in"], "outputs": ["out"]},
                                        "mail": {"inputs": ["in"]}}, "x-conventions": conv}
    nodes = [{"id": "1", "name": "Get", "type": "fetch", "position": [0, 0],
              "parameters": {"url": "u"}},
             {"id": "2", "name": "Tell", "type": "mail", "position": [300, 0],
              "parameters": {}}]
    good = {"nodes": nodes, "connections": {"Get": {"main": [[{"node": "Tell", "type": "main",
                                                                "index": 0}]]}}}
    assert package_script(doc, good) == []
    bad = {"nodes": nodes, "connections": {
        "Get": {"main": [[{"node": "Tel", "type": "main", "index": 0}], []]},
        "Gone": {"main": []}}}
    assert package_script(doc, bad) == [
        "error: $.connections[\"Get\"].main[0]: no node is named 'Tel' [edge-node]",
        "error: $.connections[\"Get\"].main[1]: 'fetch' has 1 outputs [output-index]",
        "error: $.connections[\"Gone\"]: no node is named 'Gone' [edge-node]"]
    assert package_script(doc, {"nodes": nodes, "edges": []}) == [
        "error: $: expected nodes (an array) and connections (an object) [workflow-shape]"]
