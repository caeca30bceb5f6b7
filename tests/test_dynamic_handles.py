"""Dynamic-handle id patterns: `*` stands for any run of characters."""

from __future__ import annotations

from pygen.dynamic_handles import pattern_matches


def test_pattern_matches() -> None:
    assert pattern_matches("col_*", "col_a1")
    assert pattern_matches("col_*_in", "col_x_in")
    assert not pattern_matches("col_*_in", "col_x")
    assert pattern_matches("a*b*c", "a-b-c") and not pattern_matches("a*b*c", "a-c")
    assert pattern_matches("exact", "exact") and not pattern_matches("exact", "exact2")
    assert pattern_matches("*", "")
