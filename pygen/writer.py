"""Atomic writes: every changed file is staged beside its target, then all are renamed.

Staging all files before renaming any means an error while preparing a run (a full disk,
a permission problem) leaves every file as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def read_text(path: Path) -> str | None:
    """A file's text with its line endings intact, or None when it does not exist."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None


def write_all(files: Iterable[tuple[Path, str]]) -> None:
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
            if path.exists():
                os.chmod(temp, path.stat().st_mode & 0o7777)
            else:
                os.chmod(temp, 0o644)
            staged.append((temp, path))
    except BaseException:
        for temp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        raise
    for temp, path in staged:
        os.replace(temp, path)
