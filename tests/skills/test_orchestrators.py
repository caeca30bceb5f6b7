"""skills.orchestrators: the frontmatter subset SKILL.md files use.

The Agent Skills rules are tested through the store that refuses them (server/test_store).
"""

from __future__ import annotations

import pytest

from pygen.skills.orchestrators import parse_frontmatter


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\nname: a\ndescription: plain: with colon\n---\n",
         {"name": "a", "description": "plain: with colon"}),
        ('---\ndescription: "quoted \\"x\\" \\u00e9"\n---\n', {"description": 'quoted "x" é'}),
        ("---\ndescription: 'it''s'\n---\n", {"description": "it's"}),
        ("---\ndescription: >\n  folded\n  lines\n\n  para\nname: n\n---\n",
         {"description": "folded lines\npara", "name": "n"}),
        ("---\ndescription: |\n  kept\n  lines\n---\n", {"description": "kept\nlines"}),
        ("---\ndescription: starts here\n  and continues\n---\n",
         {"description": "starts here and continues"}),
        ("---\r\nname: crlf\r\n---\r\n", {"name": "crlf"}),
        ("---\nmetadata:\n  author: x\nname: n\n---\n", {"name": "n"}),
        ("---\ntags:\n  - a\n---\n", {}),
        ("---\nname: open\n", {}),
        ("no frontmatter\n", {}),
        ("", {}),
    ],
)
def test_parse_frontmatter(text: str, expected: dict[str, str]) -> None:
    assert parse_frontmatter(text) == expected
