"""skills.markdown: code spans and table cells that survive any text."""

from __future__ import annotations

import pytest

from pygen.model import Handle, Location, Model, NodeDef
from pygen.skills import render
from pygen.skills.markdown import cell, code


@pytest.mark.parametrize(("text", "expected"), [
    ("plain", "`plain`"),
    ("a`b", "``a`b``"),
    ("x `y` z", "``x `y` z``"),
    ("`edge", "`` `edge ``"),
    ("`edge`", "`` `edge` ``"),
    ("two\nlines", "`two lines`"),
    ("a\n  b", "`a b`"),
    ("a|b", "`a|b`"),
])
def test_code_span_survives_backticks_and_newlines(text: str, expected: str) -> None:
    assert code(text) == expected


def test_pipes_are_escaped_only_inside_table_cells() -> None:
    assert code("a|b", table=True) == "`a\\|b`"
    assert cell("a | b\nc") == "a \\| b c"


def test_a_pipe_in_a_handle_id_does_not_break_the_catalog_table() -> None:
    node = NodeDef(type="split", label="Split | join", inputs=(Handle(id="a|b"),),
                   source=Location(file="nodes.ts", line=1))
    row = render.catalog(Model(nodes=(node,))).splitlines()[2]
    assert row.count(" | ") == 5  # six cells, however many pipes the values hold
    assert "`a\\|b`" in row and "Split \\| join" in row
