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


def visible_json(text: str) -> str:
    """JSON text with the same characters as `\\u` escapes: still the same JSON value."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def safe(text: str) -> str:
    """User-derived text ready for a console that interprets markup."""
    return escape(visible(text))


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path) if path.is_absolute() and not os.path.relpath(
            path).startswith("..") else str(path)
    except ValueError:
        return str(path)
