"""skills.sections: a template's stand-in counts as no prose, and such sections are dropped."""

from __future__ import annotations

from pygen.skills.sections import empty_sections, is_placeholder, without_empty_sections

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
