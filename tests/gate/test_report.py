"""The doctor report's parts: prose gaps and coverage, token sizes, tools named in prose."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen.gate import report as doctor
from pygen.model import DataType, Location, NodeDef
from pygen.skills import sections


def node(node_type: str) -> NodeDef:
    return NodeDef(type=node_type, label="R", source=Location(file="n.ts", line=1),
                   data_type=DataType(name="RenderData", via="name"))


FILLED = "# R\n\n## When to use\n\nFor stills.\n\n## Common gotchas\n\n- Slow.\n"
EMPTY = ("# R\n\n## When to use\n\n<!-- write here -->\n\n## Common gotchas\n\n"
         "<!-- AUTO-GEN:START examples -->\nx\n<!-- AUTO-GEN:END examples -->\n")


def test_prose_gaps_and_coverage() -> None:
    nodes = [node("a"), node("b"), node("c")]
    texts: dict[str, tuple[Path, str | None]] = {
        "a": (Path("a.md"), FILLED), "b": (Path("b.md"), EMPTY), "c": (Path("c.md"), None)}
    gaps = doctor.prose_gaps(nodes, texts)
    assert [(g.node_type, g.empty) for g in gaps] == [
        ("b", ("When to use", "Common gotchas")), ("c", ("When to use", "Common gotchas"))]
    assert doctor.coverage(3, gaps) == pytest.approx(33.3)
    assert doctor.coverage(0, []) == 100.0
    assert sections.section_text(FILLED, "common GOTCHAS") == "- Slow."
    assert sections.section_text(FILLED, "Missing") is None


def test_token_sizes_are_chars_over_four_largest_first() -> None:
    sizes = doctor.token_sizes({Path("a.md"): "x" * 9, Path("b.md"): "x" * 40,
                                Path("c.md"): ""})
    assert [(s.path.name, s.tokens) for s in sizes] == [("b.md", 10), ("a.md", 3), ("c.md", 0)]


def test_tools_named_in_backticks_count_as_mentioned() -> None:
    texts = ["Save with `update_workflow_json`.", "Call `create_workflow({ name })`."]
    assert doctor.mentioned(["update_workflow_json", "create_workflow", "delete"], texts) == {
        "update_workflow_json", "create_workflow"}
