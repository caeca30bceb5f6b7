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

from pygen.errors import PygenError


def read_text(path: Path) -> str | None:
    """A file's text with its line endings intact, or None when it does not exist."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PygenError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PygenError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                         "save the file as UTF-8") from None


def read(path: Path) -> str:
    """A file that must exist, as read_text reads it: exact text or a one-line error."""
    text = read_text(path)
    if text is None:
        raise PygenError(f"{path}: cannot read (No such file or directory)")
    return text


def write_all(files: Iterable[tuple[Path, str]]) -> None:
    """Stage every file beside its target, then rename them all into place.

    An error while staging (a full disk, a folder that cannot be created) removes the
    staged files and changes nothing.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            staged.append((_stage(path, text), path))
    except OSError as exc:
        _discard(staged)
        raise PygenError(f"{exc.filename or 'a skill file'}: cannot write ({exc.strerror}); "
                         "no file was changed") from None
    except BaseException:
        _discard(staged)
        raise
    for index, (temp, path) in enumerate(staged):
        try:
            os.replace(temp, path)
        except OSError as exc:
            _discard(staged[index:])
            raise PygenError(f"{path}: cannot replace ({exc.strerror}); "
                             f"{index} file(s) before it were written") from None


def _stage(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    os.chmod(temp, mode)
    return temp


def _discard(staged: list[tuple[str, Path]]) -> None:
    for temp, _ in staged:
        with contextlib.suppress(OSError):
            os.unlink(temp)
