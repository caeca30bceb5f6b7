"""An edge's ends: each names a node of the workflow, by id, and a handle it has."""

from __future__ import annotations

from pygen.validation.edges import check_edge, id_problem


def test_an_edge_without_an_id_is_named_so() -> None:
    found = id_problem({}, "$.edges[0]", "edge", lambda _: None)
    assert found is not None and found.message == (
        "expected a string edge id unique in the workflow, it is missing")


def test_an_edge_to_a_node_the_workflow_lacks_suggests_the_nearest() -> None:
    index: dict[str, tuple[str, None]] = {"alpha": ("$.nodes[0]", None)}
    found = list(check_edge({"id": "e", "source": "alpha", "target": "alpah"}, "$.edges[0]",
                            index, {}))
    assert [(f.rule, f.path, f.suggestion) for f in found] == [
        ("edge-node", "$.edges[0].target", "alpha")]
