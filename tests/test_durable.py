"""Crash-safe writes: a new file is written whole or not at all, and never over another."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygen import durable


def test_a_synced_write_creates_a_new_file_and_refuses_an_existing_one(tmp_path: Path) -> None:
    target = tmp_path / "a"
    durable.write_synced(str(target), b"bytes")
    assert target.read_bytes() == b"bytes"
    with pytest.raises(FileExistsError):
        durable.write_synced(str(target), b"other")
    assert target.read_bytes() == b"bytes"
    durable.fsync_dir(tmp_path)
    durable.fsync_dir(tmp_path / "missing")  # a folder that cannot be opened is skipped
    assert durable.digest(b"bytes") == durable.digest(target.read_bytes())
