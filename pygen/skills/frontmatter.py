"""The YAML frontmatter of a skill file: read and set flat `key: value` lines in place.

Only the keys pygen owns are touched; every other line (and its order) is kept, and the
file's line ending is reused. A file without frontmatter gets one at the top.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping

from pygen import jsonread
from pygen.jsonread import JsonInputError
from pygen.skills.markers import lines_of, newline_of

_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*?)\r?\n?$")
_PLAIN = re.compile(r"^[A-Za-z0-9_./@:+-][A-Za-z0-9_ ./@:+-]*$")


def split(text: str) -> tuple[str, str]:
    """(frontmatter including both `---` lines, rest); frontmatter is '' when absent."""
    lines = lines_of(text)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return "", text
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") in ("---", "..."):
            head = "".join(lines[: index + 1])
            return head, text[len(head):]
    return "", text


def read(text: str) -> dict[str, str]:
    return dict(_read(text))


# The planner, the digests and the gate each read every file's frontmatter: once per text.
@functools.lru_cache(maxsize=1 << 15)
def _read(text: str) -> tuple[tuple[str, str], ...]:
    head, _ = split(text)
    out: dict[str, str] = {}
    for line in lines_of(head)[1:-1]:
        match = _KEY.match(line)
        if match and not line.startswith((" ", "\t")):
            out[match.group(1)] = _unquote(match.group(2).strip())
    return tuple(out.items())


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        if value[0] == '"':
            try:
                loaded = jsonread.loads(value, "frontmatter")
                return loaded if isinstance(loaded, str) else value
            except JsonInputError:
                return value[1:-1]
        return value[1:-1].replace("''", "'")
    return value


def _quote(value: str) -> str:
    return value if _PLAIN.match(value) and not value.endswith(" ") else json.dumps(value)


def update(text: str, fields: Mapping[str, str]) -> str:
    """Text with the given keys set in its frontmatter (added at the end when missing)."""
    newline = newline_of(text)
    head, rest = split(text)
    if not head:
        lines = [f"{key}: {_quote(value)}{newline}" for key, value in fields.items()]
        gap = "" if rest.startswith(("\n", "\r\n")) else newline
        return f"---{newline}" + "".join(lines) + f"---{newline}" + gap + rest
    lines = lines_of(head)
    pending = dict(fields)
    for index in range(1, len(lines) - 1):
        match = _KEY.match(lines[index])
        if match and match.group(1) in pending and not lines[index].startswith((" ", "\t")):
            key = match.group(1)
            lines[index] = f"{key}: {_quote(pending.pop(key))}{newline}"
    added = [f"{key}: {_quote(value)}{newline}" for key, value in pending.items()]
    return "".join(lines[:-1] + added + lines[-1:]) + rest
