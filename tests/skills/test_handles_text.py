"""How a node's handles read in its skill."""

from __future__ import annotations

from pygen.model import ComputedValue, Handle
from pygen.skills.handles_text import UNDECLARED, handle_text, handles_text, names_text


def test_a_handle_says_its_label_type_and_rules() -> None:
    handle = Handle(id="audio", label="Audio\nin", type="audio", accepts=("mixer", "tts"),
                    limit=1)
    assert handle_text(handle) == ("`audio` (Audio in, type `audio`, accepts only `mixer` / "
                                   "`tts`, one edge at most)")
    assert handle_text(Handle(id="out", limit=3, connects_to=("sink",))) == (
        "`out` (3 edges at most, connects only to `sink`)")


def test_unnamed_handles_are_counted_and_told_how_an_edge_names_them() -> None:
    text = handles_text((Handle(id="a"), Handle(id=None), Handle(id=None)))
    assert text.startswith("`a`, 2 unnamed handles (id `null`")


def test_no_handles_undeclared_and_computed_handles_read_apart() -> None:
    assert handles_text(()) == "none"
    assert handles_text((), declared=False) == UNDECLARED
    where = {"type_text": "Handle[]", "file": "nodes.ts", "line": 3}
    computed = (ComputedValue(path="outputs[0]", text="x()", **where),
                ComputedValue(path="outputs", text="makePorts(2)", **where))
    assert handles_text((), False, computed) == (
        "not declared (computed at run time: `makePorts(2)`)")
    assert names_text(["a", "b"]) == "`a` / `b`"
