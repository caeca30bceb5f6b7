"""Writes that survive a crash: a file's bytes and a folder's renames reach the disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path


def write_synced(name: str, data: bytes, mode: int = 0o600) -> None:
    """A new file holding data, fsynced; removed again if writing fails."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def fsync_dir(folder: Path) -> None:
    """Make a folder's renames durable; a system that cannot open folders skips it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def digest(data: bytes) -> str:
    """The sha256 a journal records of a staged file's bytes."""
    return hashlib.sha256(data).hexdigest()
