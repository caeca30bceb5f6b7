"""Unclean characters in text from code are spelled as escapes; text stays text."""

from __future__ import annotations

import pytest

from pygen.cleantext import UNCLEAN, clean, clean_json

# Every kind the rule names: C0 (NUL, BEL, ESC, ...), DEL and C1, zero-width, bidi, BOM.
BAD = ["\x00", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f", "\x85", "\x9b",
       "\u200b", "\u200c", "\u200d", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066",
       "\u2069", "\ufeff"]


@pytest.mark.parametrize("char", BAD)
def test_each_unclean_character_is_spelled_as_an_escape(char: str) -> None:
    assert clean(f"a{char}b") == f"a\\u{ord(char):04x}b"
    assert not UNCLEAN.search(clean(f"a{char}b"))


def test_text_stays_as_written() -> None:
    text = "Line one\n\tLine two\r\nÜmlaut, 日本語, emoji 🎬, arrows → ←, \\u001b as typed"
    assert clean(text) == text


def test_a_json_value_is_cleaned_throughout_but_the_kept_keys() -> None:
    value = {"label": "a\x1b[31m", "k\x07": ["x\u202e", 1, None, {"id": "\u200bid"}],
             "sources": [{"path": "weird\x07name.ts"}]}
    assert clean_json(value, frozenset({"sources"})) == {
        "label": "a\\u001b[31m", "k\\u0007": ["x\\u202e", 1, None, {"id": "\\u200bid"}],
        "sources": [{"path": "weird\x07name.ts"}]}
