"""All terminal output goes through these two consoles (stdout for data, stderr for talk)."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path) if path.is_absolute() and not os.path.relpath(
            path).startswith("..") else str(path)
    except ValueError:
        return str(path)
