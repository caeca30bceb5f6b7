"""The prose of a skill file read as CommonMark: which backticked text is inline code in
prose, and at which line."""

from __future__ import annotations

from pygen.gate.block_history import block_names
from pygen.gate.prose import code_spans, prose_only


def spans(text: str) -> list[tuple[int, str]]:
    return list(code_spans(prose_only(text, "skills/nodes/x.md")))


def test_indented_code_is_not_prose() -> None:
    assert spans("Text `a`.\n\n    `b` in indented code\n\nMore `c`.\n") == [(1, "a"), (5, "c")]


def test_an_html_block_is_not_prose() -> None:
    text = "<div>\n`inside`\n</div>\n\nAfter `outside`.\n"
    assert spans(text) == [(5, "outside")]


def test_escaped_backticks_open_no_span() -> None:
    assert spans("Write \\`notcode\\` or `code`.\n") == [(1, "code")]


def test_a_backslash_inside_a_span_is_literal() -> None:
    assert spans("A path `C:\\` and then\n`next`.\n") == [(1, "C:\\"), (2, "next")]


def test_lines_count_past_a_span_over_a_line_break_and_inside_lists_and_tables() -> None:
    text = ("- first `a\n  b` then\n  `c`\n\n"
            "| x | y |\n|---|---|\n| `d` | e |\n\n"
            "> quoted\n> `f`\n")
    assert spans(text) == [(1, "a b"), (3, "c"), (7, "d"), (10, "f")]


def test_inline_html_and_comments_hold_no_span() -> None:
    assert spans("See <!-- `hidden` --> and `shown`.\n") == [(1, "shown")]


def test_a_block_names_the_ids_and_values_of_its_fenced_example() -> None:
    body = ('- `prompt`: string\n- `mode?: "fast" | "slow"`\n\n```json\n'
            '{"nodes": [{"id": "render-1", "data": {"mode": "fast"}}]}\n```\n')
    assert block_names(body) >= {"prompt", "mode", "fast", "slow", "render-1", "nodes", "id"}
