"""skills.markdown: code spans and table cells that survive any text."""

from __future__ import annotations

import pytest

from pygen.model import Handle, Location, Model, NodeDef
from pygen.skills.catalog_text import catalog_lines
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


def test_a_pipe_or_newline_in_a_name_keeps_the_catalog_one_line_per_node() -> None:
    node = NodeDef(type="split", label="Split | join\nnow", inputs=(Handle(id="a|b"),),
                   source=Location(file="nodes.ts", line=1))
    lines = catalog_lines(Model(nodes=(node,))).splitlines()
    assert lines == ["**other**", "- `split` Split | join now: in `a|b` → out none"]
