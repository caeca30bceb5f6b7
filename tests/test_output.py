"""Echoed user input cannot drive the terminal or be read as markup."""

from __future__ import annotations

import json

from pygen.output import safe, visible, visible_json


def test_control_characters_are_spelled_out() -> None:
    assert visible("a\x1b]0;title\x07b\x9b\u202ec\td\n") == "a\\x1b]0;title\\x07b\\x9b\\u202ec\td\n"


def test_markup_is_escaped() -> None:
    assert safe("[tool.pygen] \x1b[2J") == "\\[tool.pygen] \\x1b[2J"


def test_json_output_keeps_its_value_with_controls_escaped() -> None:
    text = json.dumps({"k": "a\x9bb\u202e"}, ensure_ascii=False)
    assert visible_json(text) == '{"k": "a\\u009bb\\u202e"}'
    assert json.loads(visible_json(text)) == {"k": "a\x9bb\u202e"}
