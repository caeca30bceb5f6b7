"""skills.sections: a template's stand-in counts as no prose, and such sections are dropped."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pygen.skills.sections import (
    COMMENT,
    HEADING,
    PROSE_SECTIONS,
    empty_sections,
    is_placeholder,
    section_text,
    without_empty_sections,
)

TEXT = ("# T\n\nintro\n\n## When to use\n\n(Add prose here.)\n\n## Common gotchas\n\n\n"
        "## MCP call\n\n<!-- AUTO-GEN:START x -->\nbody\n<!-- AUTO-GEN:END x -->\n\n"
        "## Notes\n\nReal text (with a parenthesis).\n")


def test_stand_ins_are_not_prose() -> None:
    for stand_in in ("", "(Add prose here.)", "TODO", "TBD: write this", "…", "<!-- x -->"):
        assert is_placeholder(stand_in), stand_in
    assert not is_placeholder("Use it for music.")
    assert empty_sections(TEXT) == ("When to use", "Common gotchas")


def test_sections_without_prose_are_left_out_and_generated_blocks_kept() -> None:
    assert without_empty_sections(TEXT) == (
        "# T\n\nintro\n\n## MCP call\n\n<!-- AUTO-GEN:START x -->\nbody\n"
        "<!-- AUTO-GEN:END x -->\n\n## Notes\n\nReal text (with a parenthesis).\n")


def _reference_section(text: str, title: str) -> str | None:
    """section_text as it was written first: every line tried against HEADING."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = HEADING.match(line)
        if match and match.group(2).strip().lower() == title.lower():
            body = []
            for following in lines[index + 1:]:
                if HEADING.match(following) or "AUTO-GEN:START" in following:
                    break
                body.append(following)
            return COMMENT.sub("", "\n".join(body)).strip()
    return None


_LINES = st.sampled_from(["## When to use", "  ### common GOTCHAS ##", "#When to use", "text",
                          "(TODO)", "<!-- AUTO-GEN:START x -->", "", "\t# Other", "# ",
                          "<!-- note -->", "…", "\x0c## When to use"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=12))
def test_empty_sections_reads_as_each_section_alone(lines: list[str]) -> None:
    text = "\n".join(lines)
    expected = tuple(t for t in PROSE_SECTIONS
                     if is_placeholder(_reference_section(text, t) or ""))
    assert empty_sections(text) == expected
    assert all(section_text(text, t) == _reference_section(text, t) for t in PROSE_SECTIONS)


def test_a_stand_in_before_a_block_is_never_served() -> None:
    text = ("# T\n\n## When to use\n\n(Add prose here. Auto-gen will preserve it across "
            "regenerations.)\n\n<!-- AUTO-GEN:START mcp-call -->\n<!-- AUTO-GEN:END mcp-call -->"
            "\n\n## MCP call\n\n(Add prose here.)\n<!-- AUTO-GEN:START tool -->\nCall `x`.\n"
            "<!-- AUTO-GEN:END tool -->\n\n## Common gotchas\n\n- Real prose.\n")
    served = without_empty_sections(text)
    assert "Add prose" not in served and "## When to use" not in served
    assert "## MCP call\n\n<!-- AUTO-GEN:START tool -->\nCall `x`." in served
    assert served.endswith("## Common gotchas\n\n- Real prose.\n")
