"""An expression's own syntax: every `{{` closed by a `}}` after it."""

from __future__ import annotations

import pytest

from pygen.validation.expressions import expression_findings, is_expression


@pytest.mark.parametrize(("value", "problem"), [
    ("={{ $json.id }}", None), ("=plain text", None), ("={{ a }} and {{ b }}", None),
    ("={{ $json.id ", "opens `{{` and never closes it with `}}`"),
    ("={{ a }} {{ b", "opens `{{` and never closes it with `}}`"),
    ("= b }}", "closes `}}` with no `{{` before it"),
])
def test_braces_pair_up(value: str, problem: str | None) -> None:
    found = [f.message for f in expression_findings({"x": [value]}, "$", "=")]
    assert found == ([] if problem is None else [f"the expression {problem}"])


def test_only_a_declared_prefix_makes_an_expression() -> None:
    assert is_expression("={{ 1 }}", "=") and not is_expression("={{ 1 }}", None)
    assert list(expression_findings({"x": "={{"}, "$", None)) == []
