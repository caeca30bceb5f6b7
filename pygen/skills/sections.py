"""The hand-written sections of a node file ("When to use", "Common gotchas"), read back:
what a person wrote under each heading, so coverage and the nodes index can tell."""

from __future__ import annotations

import re

PROSE_SECTIONS = ("When to use", "Common gotchas")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def section_text(text: str, title: str) -> str | None:
    """The text under the heading `title` up to the next heading or block; None if absent."""
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


def empty_sections(text: str | None) -> tuple[str, ...]:
    """The PROSE_SECTIONS that are missing or hold no text."""
    return tuple(title for title in PROSE_SECTIONS
                 if not (text is not None and section_text(text, title)))
