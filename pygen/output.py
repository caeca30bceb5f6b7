"""All terminal output goes through these two consoles (stdout for data, stderr for talk).

Text that may echo user input goes through `safe` first: a file name or a JSON value must not
be able to move the cursor, retitle the terminal, or be taken for Rich markup.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from rich.console import Console
from rich.markup import escape

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

# C0 controls but tab and newline, DEL, C1 controls, and the bidi overrides that reorder a line.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """Control characters spelled as escapes (`\\x1b`), so echoed input cannot drive a terminal."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def visible_line(text: str) -> str:
    """As `visible`, newlines and tabs escaped too: for text that must stay on one line."""
    return visible(text).replace("\t", "\\t").replace("\n", "\\n")


def excerpt(text: str, limit: int = 300) -> str:
    """Another program's output for a one-line message, every control character escaped:
    its last line when the output is short; else its first and last lines, each cut to
    `limit` characters, and its size, so a flood of output never becomes a flood of error."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    if len(text) <= 4 * limit:
        return visible_line(_cut(lines[-1], limit))
    ends = lines[:1] if len(lines) == 1 else [lines[0], lines[-1]]
    size = len(text.encode("utf-8", errors="replace"))
    return " … ".join(visible_line(_cut(line, limit)) for line in ends) + f" ({size} bytes)"


def _cut(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[:limit] + "…"


def visible_json(text: str) -> str:
    """JSON text with the same characters as `\\u` escapes: still the same JSON value."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def safe(text: str) -> str:
    """User-derived text ready for a console that interprets markup."""
    return escape(visible(text))


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    if not path.is_absolute():
        return str(path)
    try:
        relative = os.path.relpath(path)  # (once: it reads the working directory each time)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative
