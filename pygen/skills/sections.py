"""The hand-written sections of a node file ("When to use", "Common gotchas"), read back:
what a person wrote under each heading, so coverage and the nodes index can tell."""

from __future__ import annotations

import re

PROSE_SECTIONS = ("When to use", "Common gotchas")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# A template's stand-in for prose a person has yet to write: `(Add prose here.)`, `TODO`,
# `TBD: …`, `…`. Such a section counts as empty.
PLACEHOLDER = re.compile(r"\s*(\(.*\)|_?\(?(todo|tbd|fixme)\b.*|\.\.\.|…)\s*",
                         re.IGNORECASE | re.DOTALL)


def is_placeholder(body: str) -> bool:
    """Whether a section's text (comments removed) holds no prose: empty or a stand-in."""
    text = COMMENT.sub("", body).strip()
    return not text or (len(text) <= 80 and "\n" not in text
                        and PLACEHOLDER.fullmatch(text) is not None)


def section_text(text: str, title: str) -> str | None:
    """The text under the heading `title` up to the next heading or block; None if absent."""
    return _section(text.splitlines(), title)


def _heading(line: str) -> re.Match[str] | None:
    # (a line without `#` is no heading: most lines, not worth the pattern)
    return HEADING.match(line) if "#" in line else None


def _section(lines: list[str], title: str) -> str | None:
    for index, line in enumerate(lines):
        match = _heading(line)
        if match and match.group(2).strip().lower() == title.lower():
            body = []
            for following in lines[index + 1:]:
                if _heading(following) or "AUTO-GEN:START" in following:
                    break
                body.append(following)
            return COMMENT.sub("", "\n".join(body)).strip()
    return None


def empty_sections(text: str | None) -> tuple[str, ...]:
    """The PROSE_SECTIONS that are missing or hold no text."""
    if text is None:
        return PROSE_SECTIONS
    lines = text.splitlines()  # once for every section
    return tuple(title for title in PROSE_SECTIONS
                 if is_placeholder(_section(lines, title) or ""))


def without_empty_sections(text: str) -> str:
    """The text without the sections (headings of level 2 or deeper) that hold no prose, so
    an agent never reads a heading over nothing or a template's stand-in."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    index = 0
    while index < len(lines):
        match = HEADING.match(lines[index])
        if match is None or len(match.group(1)) < 2:
            out.append(lines[index])
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not HEADING.match(lines[end]) \
                and "AUTO-GEN:START" not in lines[end]:
            end += 1
        body = "".join(lines[index + 1:end])
        deeper = end < len(lines) and (m := HEADING.match(lines[end])) is not None \
            and len(m.group(1)) > len(match.group(1))
        block = end < len(lines) and "AUTO-GEN:START" in lines[end]
        if not is_placeholder(body) or deeper:
            out.extend(lines[index:end])
        elif block:
            # A stand-in before a block (`(Add prose here.)` above the tool's block): the
            # heading stays over the block's text, never over the stand-in or an empty block.
            close = next((i for i in range(end + 1, len(lines))
                          if "AUTO-GEN:END" in lines[i]), None)
            if close is not None and not "".join(lines[end + 1:close]).strip():
                index = close + 1
                continue
            out.extend([lines[index], "\n"] if body.strip() else lines[index:end])
        index = end
    return "".join(out)
