"""The handle index finds the neighbour a full scan of the catalog would find, in linear time,
also when the connection rules refuse every candidate."""

from __future__ import annotations

import random
import time

from pygen.model import Handle, Location, Model, NodeDef, wire_allowed
from pygen.skills.neighbours import MAX_EXAMINED, build_index, first_allowed, stem
from pygen.skills.wired_example import _neighbour, wired_example

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
    assert [n for n, _ in build_index(model).sources.entries] == [source]
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


def full_scan(me: NodeDef, model: Model, side: str) -> tuple[str, str | None] | None:
    """The neighbour as the first allowed candidate of a scan of the whole catalog."""
    mine = me.inputs if side == "upstream" else me.outputs
    if not mine:
        return None
    for other in model.nodes:
        for theirs in (other.outputs if side == "upstream" else other.inputs):
            if other.type == me.type or theirs.id is None or stem(theirs.id) != stem(
                    mine[0].id or ""):
                continue
            if (wire_allowed(other, theirs, me, mine[0]) if side == "upstream"
                    else wire_allowed(me, mine[0], other, theirs)):
                return other.type, theirs.id
    if side == "upstream":
        for other in model.nodes:
            if (not other.inputs and other.outputs and other.type != me.type
                    and wire_allowed(other, other.outputs[0], me, mine[0])):
                return other.type, other.outputs[0].id
    return None


def random_catalog(rng: random.Random, size: int) -> Model:
    ids, kinds = ("image", "images", "video", "text", "in", "out"), ("image", "video", "text")

    def handle() -> Handle:
        picked = rng.sample(kinds, rng.randint(1, 2))
        return Handle(id=rng.choice(ids),
                      type=rng.choice((None, "", "any", " | ".join(picked), picked[0])),
                      accepts=tuple(rng.sample((*kinds, "any", "n0", "n1", "n2", "in"),
                                               rng.choice((0, 0, 1, 2)))),
                      connects_to=tuple(rng.sample((*kinds, "*", "n3", "n4", "out"),
                                                   rng.choice((0, 0, 1, 2)))))
    nodes = [NodeDef(type=f"n{i}", label=f"n{i}", source=WHERE,
                     inputs=tuple(handle() for _ in range(rng.randint(0, 2))),
                     outputs=tuple(handle() for _ in range(rng.randint(0, 2))),
                     connects_to=tuple(rng.sample(("image", "n5", "text"), rng.choice((0, 1)))))
             for i in range(size)]
    return Model(nodes=tuple(nodes))


def test_the_indexes_find_what_a_full_scan_finds() -> None:
    """Handle types and the searching side's rules prune through indexes: the neighbour found
    is the one a scan of every node finds (a catalog this small never reaches the cap)."""
    rng = random.Random(21)
    for _ in range(60):
        model = random_catalog(rng, rng.randint(2, 30))
        for me in model.nodes:
            for side in ("upstream", "downstream"):
                found = _neighbour(me, build_index(model), side)
                got = (found[0].type, found[1]) if found else None
                assert got == full_scan(me, model, side), (me.type, side)


def test_a_catalog_whose_rules_refuse_every_candidate_stays_linear() -> None:
    """Every output's own rule refuses every node: no index rules them out, so each search
    stops after MAX_EXAMINED candidates instead of trying the whole catalog."""
    def catalog(n: int) -> Model:
        data = Handle(id="data", connects_to=("nothing",))
        return Model(nodes=tuple(node(f"n{i}", (Handle(id="data"),), (data,))
                                 for i in range(n)))

    def seconds(model: Model) -> float:
        start = time.process_time()
        index = build_index(model)
        for each in model.nodes:
            workflow = wired_example(each, model, lambda _n: ({}, None), index)
            assert chain_types(workflow) == [each.type]  # alone: every wire was refused
        return time.process_time() - start

    small, large = catalog(200), catalog(2000)
    seconds(small)
    assert seconds(large) < seconds(small) * 40  # linear: about 10 times; a full walk was about 100
    tried: list[str] = []
    me = large.nodes[0]
    index = build_index(large)
    first_allowed(index.matching("upstream", me.inputs[0], ()),
                  lambda other, _h: bool(tried.append(other.type)))
    assert len(tried) == MAX_EXAMINED


def test_a_type_or_rule_refusal_is_no_step_of_the_walk() -> None:
    """Candidates the searching handle's type or rule refuses are skipped by the index, so
    an allowed one past MAX_EXAMINED refused ones is still found."""
    wrong = [node(f"w{i}", outputs=(Handle(id="media", type="audio"),)) for i in range(200)]
    right = node("right", outputs=(Handle(id="media", type="video"),))
    by_type = node("me", inputs=(Handle(id="media", type="video"),))
    by_rule = node("me", inputs=(Handle(id="media", accepts=("right",)),))
    for me in (by_type, by_rule):
        model = Model(nodes=(*wrong, right, me))
        assert chain_types(wired_example(me, model, lambda _n: ({}, None))) == ["right", "me"]
