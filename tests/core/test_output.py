"""Echoed user input cannot drive the terminal or be read as markup."""

from __future__ import annotations

from pygen.output import safe, visible


def test_control_characters_are_spelled_out() -> None:
    assert visible("a\x1b]0;title\x07b\x9b\u202ec\td\n") == "a\\x1b]0;title\\x07b\\x9b\\u202ec\td\n"


def test_markup_is_escaped() -> None:
    assert safe("[tool.pygen] \x1b[2J") == "\\[tool.pygen] \\x1b[2J"
