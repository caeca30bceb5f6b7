"""The handle index finds the neighbour a full scan of the catalog would find, in linear time."""

from __future__ import annotations

import time

from pygen.model import Handle, Location, Model, NodeDef
from pygen.skills.neighbours import build_index
from pygen.skills.wired_example import wired_example

WHERE = Location(file="nodes.ts", line=1)


def node(kind: str, inputs: tuple[Handle, ...] = (), outputs: tuple[Handle, ...] = ()) -> NodeDef:
    return NodeDef(type=kind, label=kind, source=WHERE, inputs=inputs, outputs=outputs)


def chain_types(workflow: dict[str, object]) -> list[str]:
    return [n["type"] for n in workflow["nodes"]]  # type: ignore[attr-defined]


def test_first_match_in_catalog_order_by_stem_skipping_itself() -> None:
    first = node("first", outputs=(Handle(id="other"), Handle(id="videos")))
    second = node("second", outputs=(Handle(id="video"),))
    me = node("me", inputs=(Handle(id="video"),), outputs=(Handle(id="video"),))
    sink = node("sink", inputs=(Handle(id="Videos"),))
    model = Model(nodes=(me, first, second, sink))
    index = build_index(model)
    assert [(n.type, h.id) for n, h in index.by_stem("upstream", "video")] == [
        ("me", "video"), ("first", "videos"), ("second", "video")]
    workflow = wired_example(me, model)
    assert chain_types(workflow) == ["first", "me", "sink"]
    assert workflow["edges"][0]["sourceHandle"] == "videos"


def test_connection_rules_pass_over_a_candidate() -> None:
    refused = node("refused", outputs=(Handle(id="image"),))
    allowed = node("allowed", outputs=(Handle(id="image"),))
    me = node("me", inputs=(Handle(id="image", accepts=("allowed",)),))
    model = Model(nodes=(refused, allowed, me))
    assert chain_types(wired_example(me, model)) == ["allowed", "me"]


def test_a_source_node_feeds_an_input_no_output_is_named_after() -> None:
    middle = node("middle", inputs=(Handle(id="x"),), outputs=(Handle(id="y"),))
    source = node("source", outputs=(Handle(id="text"),))
    me = node("me", inputs=(Handle(id="in"),))
    model = Model(nodes=(middle, source, me))
    assert build_index(model).sources == [source]
    assert chain_types(wired_example(me, model)) == ["source", "me"]


def test_an_index_passed_in_is_the_one_used() -> None:
    # The index is a value the caller owns: an index of another catalog gives another chain.
    me = node("me", (Handle(id="image"),), ())
    model = Model(nodes=(node("other", (), (Handle(id="image"),)), me))
    assert chain_types(wired_example(me, model)) == ["other", "me"]
    assert chain_types(wired_example(me, model, index=build_index(Model(nodes=(me,))))) == ["me"]


def test_rendering_every_example_grows_linearly() -> None:
    """Nodes whose handles match nothing were the worst case of the full scan."""
    def seconds(n: int) -> float:
        nodes = tuple(node(f"n{i}", (Handle(id="in"), Handle(id=f"p{i}")),
                           (Handle(id=f"out{i}"),)) for i in range(n))
        model = Model(nodes=nodes)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            index = build_index(model)
            for each in nodes:
                wired_example(each, model, lambda _n: ({}, None), index)
            best = min(best, time.process_time() - start)
        return best

    small, large = seconds(300), seconds(3000)
    # Linear: about 10 times; quadratic was about 100 times. Generous for a shared machine.
    assert large < small * 40
