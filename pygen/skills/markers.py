"""AUTO-GEN marker blocks: find them, replace their bodies, leave every other byte alone.

Grammar: a line holding only `<!-- AUTO-GEN:START id -->` opens block `id`, a line holding
only `<!-- AUTO-GEN:END id -->` closes it. Markers inside fenced code blocks outside any
block are text (so docs can show the syntax). Unterminated, duplicate, nested or stray
markers are errors naming file:line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pygen.errors import MarkerError, located

_ID = r"([A-Za-z0-9][A-Za-z0-9_.:-]*)"
START = re.compile(r"^[ \t]*<!--[ \t]*AUTO-GEN:START[ \t]+" + _ID + r"[ \t]*-->[ \t]*\r?\n?$")
END = re.compile(r"^[ \t]*<!--[ \t]*AUTO-GEN:END[ \t]+" + _ID + r"[ \t]*-->[ \t]*\r?\n?$")
FENCE = re.compile(r"^[ \t]{0,3}(```+|~~~+)")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


@dataclass(frozen=True)
class Block:
    id: str
    # 1-based line numbers of the START and END marker lines.
    start_line: int
    end_line: int
    # Character offsets of the body (the text between the marker lines).
    body_start: int
    body_end: int
    body: str


def lines_of(text: str) -> list[str]:
    """Lines with their endings, split on \\n only (str.splitlines also splits on \\f, \\u2028…)."""
    return _LINE.findall(text)


def newline_of(text: str) -> str:
    """The file's line ending: CRLF when its first line ending is CRLF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


@dataclass(frozen=True)
class _Open:
    """A block whose START marker was read and whose END was not yet."""

    id: str
    line: int
    body_start: int


# The gate, the digests and the planner each read every file's blocks: parsed once per text.
@functools.lru_cache(maxsize=1 << 15)
def parse(text: str, path: str) -> tuple[Block, ...]:
    blocks: list[Block] = []
    seen: dict[str, int] = {}
    current: _Open | None = None
    fence: str | None = None
    offset = 0
    for number, line in enumerate(lines_of(text), start=1):
        if current is None:
            was_fenced, fence = fence, fence_state(line, fence)
            if was_fenced is None and fence is None:
                block_id = _opened(line, number, seen, path)
                if block_id is not None:
                    current = _Open(block_id, number, offset + len(line))
        elif _closes(line, number, current, path):
            seen[current.id] = current.line
            blocks.append(Block(current.id, current.line, number, current.body_start, offset,
                                text[current.body_start:offset]))
            current = None
        offset += len(line)
    if current is not None:
        raise MarkerError(located(path, current.line, (
            f"AUTO-GEN block '{current.id}' is never closed; add "
            f"<!-- AUTO-GEN:END {current.id} -->")))
    return tuple(blocks)


def _opened(line: str, number: int, seen: Mapping[str, int], path: str) -> str | None:
    """The id of the block a line outside blocks opens, or None; a stray END is an error."""
    start, end = START.match(line), END.match(line)
    if start:
        block_id = start.group(1)
        if block_id in seen:
            raise MarkerError(located(path, number, (
                f"duplicate AUTO-GEN block '{block_id}' (first at line "
                f"{seen[block_id]}); remove one of them")))
        return block_id
    if end:
        raise MarkerError(located(path, number, (
            f"AUTO-GEN:END {end.group(1)} has no matching START; "
            "remove it or add the START marker")))
    return None


def _closes(line: str, number: int, current: _Open, path: str) -> bool:
    """Whether a line inside `current` is its END marker; a START or another END is an error."""
    if START.match(line):
        raise MarkerError(located(path, number, (
            f"AUTO-GEN:START inside block '{current.id}' opened at line {current.line}; "
            "blocks cannot nest")))
    end = END.match(line)
    if end is None:
        return False
    if end.group(1) != current.id:
        raise MarkerError(located(path, number, (
            f"AUTO-GEN:END {end.group(1)} closes block '{current.id}' opened at line "
            f"{current.line}; make the ids match")))
    return True


def fence_state(line: str, fence: str | None) -> str | None:
    """The open code fence after `line`, given the one open before it (None: outside)."""
    match = FENCE.match(line)
    if not match:
        return fence
    marker = match.group(1)
    if fence is None:
        return marker
    return None if marker[0] == fence[0] and len(marker) >= len(fence) else fence


def format_body(content: str, newline: str) -> str:
    """A block body: the content's lines, each ending with the file's newline. A line of the
    content that reads as a marker (text from the code can hold one) is neutralised, so it
    can never open or close a block."""
    lines = content.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return "".join(neutral(line) + newline for line in lines)


def neutral(line: str) -> str:
    """A marker-like line with its `<` written as `&lt;`: Markdown shows the same text."""
    return line.replace("<", "&lt;", 1) if START.match(line) or END.match(line) else line


def replace_blocks(text: str, bodies: Mapping[str, str], path: str,
                   order: Sequence[str] = ()) -> str:
    """Text with each named block's body replaced by its new content.

    Blocks absent from `bodies` are untouched. A block in `bodies` that the file lacks is
    inserted after the nearest earlier block of `order` that the file has (else at the end),
    so a node that gains, say, an MCP tool gains its block.
    """
    blocks = parse(text, path)
    newline = newline_of(text)
    present = {b.id for b in blocks}
    out: list[str] = []
    cursor = 0
    for block in blocks:
        out.append(text[cursor:block.body_start])
        if block.id in bodies:
            out.append(format_body(bodies[block.id], newline))
        else:
            out.append(block.body)
        cursor = block.body_end
        out.append(_end_marker_line(text, block))
        cursor += len(_end_marker_line(text, block))
        for missing in _inserted_after(block.id, order, present, bodies):
            out.append(newline + new_block(missing, bodies[missing], newline))
            present.add(missing)
    out.append(text[cursor:])
    result = "".join(out)
    for missing in [b for b in bodies if b not in present]:
        if result and not result.endswith(("\n", "\r")):
            result += newline
        result += newline + new_block(missing, bodies[missing], newline)
    return result


def _end_marker_line(text: str, block: Block) -> str:
    end = text.find("\n", block.body_end)
    return text[block.body_end:] if end < 0 else text[block.body_end:end + 1]


def _inserted_after(block_id: str, order: Sequence[str], present: set[str],
                    bodies: Mapping[str, str]) -> list[str]:
    """Missing blocks whose nearest earlier present block in `order` is block_id."""
    if block_id not in order:
        return []
    found: list[str] = []
    for later in order[order.index(block_id) + 1:]:
        if later in present:
            break
        if later in bodies:
            found.append(later)
    return found


def new_block(block_id: str, content: str, newline: str = "\n") -> str:
    return (f"<!-- AUTO-GEN:START {block_id} -->{newline}"
            + format_body(content, newline)
            + f"<!-- AUTO-GEN:END {block_id} -->{newline}")


def bodies(text: str, path: str) -> dict[str, str]:
    return {b.id: b.body for b in parse(text, path)}
