"""A workflow's shape is described in the layout the editor declares: an `edges` array by
default, the connections map where the conventions keep edges in one."""

from __future__ import annotations

from pygen.validation.catalog import Catalog
from pygen.validation.workflow import validate_workflow

MAP = Catalog([], {"x-conventions": {"connections_key": "connections",
                                      "connection_node_key": "name"}})


def found(workflow: object, catalog: Catalog) -> list[tuple[str, str]]:
    return [(f.path, f.message) for f in validate_workflow(workflow, catalog)]


def test_a_connections_map_is_asked_for_by_its_name() -> None:
    expected = "expected the connections map, an object keyed by source node, "
    assert found({"nodes": []}, MAP) == [("$.connections", expected + "it is missing")]
    assert found({"nodes": [], "connections": []}, MAP) == [
        ("$.connections", expected + "got array")]
    assert found({"nodes": [], "connections": {}}, MAP) == []
    assert found([], MAP) == [("$", 'a workflow must be a JSON object with a "nodes" array and '
                                    'a "connections" map, got array')]


def test_react_flow_edges_stay_the_default() -> None:
    assert found({"nodes": []}, Catalog([])) == [
        ("$.edges", "expected an array of edges, it is missing")]
    assert found([], Catalog([])) == [("$", 'a workflow must be a JSON object with a "nodes" '
                                            'array and an "edges" array, got array')]
