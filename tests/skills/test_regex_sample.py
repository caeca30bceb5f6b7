"""Pattern samples for worked examples: the shortest value a common `pattern` rule accepts."""

from __future__ import annotations

import pytest

from pygen.skills.regex_sample import sample


@pytest.mark.parametrize(("pattern", "expected"), [
    ("^\\/", "/"),
    ("^https://", "https://"),
    ("^[a-z0-9-]+$", "a"),
    ("^ab?c", "ac"),
    ("^\\d{3}-\\d{4}$", "000-0000"),
    ("^(foo|bar)baz$", "foobaz"),
    ("^#[0-9a-fA-F]{6}$", "#000000"),
    ("^\\w+@\\w+\\.\\w+$", "a@a.a"),
    ("^v(?:[0-9]+)\\.x$", "v0.x"),
])
def test_a_sample_matches_its_pattern(pattern: str, expected: str) -> None:
    assert sample(pattern) == expected


@pytest.mark.parametrize("pattern", ["^(?=x)y", "^[^a]+$", "^(a)\\1$", "\\bword", "^(a", "[z-"])
def test_a_construct_outside_the_subset_gives_none(pattern: str) -> None:
    assert sample(pattern) is None
